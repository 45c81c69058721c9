// What runs mean to a reader: the tone of each state, the sentence behind each reason (the answer to "why
// didn't my job run?"), a run's lateness and duration, recent outcomes for spark lines, and the hourly
// buckets of the 24-hour timeline. Pure.

import type { Run, RunState, ScheduleState } from '../api.ts';

export const FINAL_STATES: readonly RunState[] = ['succeeded', 'dead', 'skipped', 'expired', 'cancelled'];

export function isFinal(state: RunState): boolean {
  return FINAL_STATES.includes(state);
}

export type Tone = 'ok' | 'bad' | 'warn' | 'info' | 'muted';

export const STATE_TONE: Record<RunState | ScheduleState, Tone> = {
  succeeded: 'ok',
  dead: 'bad',
  expired: 'warn',
  skipped: 'warn',
  cancelled: 'muted',
  scheduled: 'info',
  running: 'info',
  active: 'ok',
  paused: 'warn',
  completed: 'muted',
};

/** Why a run ended without running, or went back to scheduled, in words. */
export const REASONS: Record<string, string> = {
  retry: 'an attempt failed; it will be retried',
  checkAgain: 'the target asked to be asked again later',
  released: 'a graceful stop handed it back unfinished',
  leaseExpired: 'the worker holding it vanished; it was reclaimed',
  overlap: 'the overlap policy skipped or cancelled it (the previous run was still running)',
  misfire: 'missed while nothing was running, and the misfire policy did not run it',
  outsideCatchupWindow: 'missed longer ago than the catch-up window',
  catchupCap: 'missed beyond the cap of catch-up runs',
  paused: 'the schedule was paused at its time',
  calendar: 'its date is excluded by a calendar of the schedule, or not a working day',
  calendarChanged: 'a calendar of the schedule changed; it was materialised again',
  deadline: 'not started within its deadline',
  updated: 'the schedule changed; this run belonged to the old version',
  deleted: 'the schedule was deleted',
  pausedCancel: 'the schedule was paused with its pending runs cancelled',
  manual: 'cancelled by hand',
};

export function reasonText(reason: string | null): string {
  if (reason === null) return '';
  return REASONS[reason] ?? reason;
}

/** Start time minus due time, in ms; null before it starts. */
export function latenessMs(run: Pick<Run, 'startedAt' | 'dueAt'>): number | null {
  if (run.startedAt === null) return null;
  return Math.max(0, Date.parse(run.startedAt) - Date.parse(run.dueAt));
}

/** Finish time minus start time, in ms; null until it finished. */
export function durationMs(run: Pick<Run, 'startedAt' | 'finishedAt'>): number | null {
  if (run.startedAt === null || run.finishedAt === null) return null;
  return Math.max(0, Date.parse(run.finishedAt) - Date.parse(run.startedAt));
}

/** The final states of the latest `n` finished runs, oldest first (runs arrive newest first). */
export function recentOutcomes(runs: readonly Pick<Run, 'state'>[], n = 10): RunState[] {
  return runs
    .filter((r) => isFinal(r.state))
    .slice(0, n)
    .map((r) => r.state)
    .reverse();
}

/** recentOutcomes per schedule key, from one listing of the tenant's runs (newest first). */
export function recentOutcomesByKey(
  runs: readonly Pick<Run, 'state' | 'scheduleKey'>[],
  n = 10,
): Map<string, RunState[]> {
  const byKey = new Map<string, Pick<Run, 'state'>[]>();
  for (const r of runs) {
    const list = byKey.get(r.scheduleKey);
    if (list) list.push(r);
    else byKey.set(r.scheduleKey, [r]);
  }
  return new Map([...byKey].map(([k, list]) => [k, recentOutcomes(list, n)]));
}

export interface TimelineBucket {
  /** Start of the hour (epoch ms). */
  start: number;
  counts: Partial<Record<RunState, number>>;
  total: number;
}

/**
 * Runs counted by state in `hours` buckets of one hour ending at the hour after `now`, by scheduledFor.
 * Runs outside the range are left out.
 */
export function timelineBuckets(
  runs: readonly Pick<Run, 'state' | 'scheduledFor'>[],
  now: number,
  hours = 24,
): TimelineBucket[] {
  const hour = 3_600_000;
  const end = Math.floor(now / hour) * hour + hour;
  const start = end - hours * hour;
  const buckets: TimelineBucket[] = Array.from({ length: hours }, (_, i) => ({
    start: start + i * hour,
    counts: {},
    total: 0,
  }));
  for (const r of runs) {
    const t = Date.parse(r.scheduledFor);
    if (!(t >= start && t < end)) continue;
    const b = buckets[Math.floor((t - start) / hour)] as TimelineBucket;
    b.counts[r.state] = (b.counts[r.state] ?? 0) + 1;
    b.total++;
  }
  return buckets;
}

/** "8 succeeded, 2 dead" (states in a fixed order; zeros left out). */
export function countsText(counts: Partial<Record<RunState, number>>): string {
  const order: RunState[] = ['succeeded', 'dead', 'expired', 'skipped', 'cancelled', 'running', 'scheduled'];
  const parts = order.filter((s) => (counts[s] ?? 0) > 0).map((s) => `${counts[s]} ${s}`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}

/** Log lines a script target left in a result (`logs: string[]` or `{ level, message }[]`), if any. */
export function logsOf(result: unknown): string[] | null {
  if (typeof result !== 'object' || result === null) return null;
  const logs = (result as { logs?: unknown }).logs;
  if (!Array.isArray(logs)) return null;
  return logs.map((l) => {
    if (typeof l === 'string') return l;
    if (typeof l === 'object' && l !== null && 'message' in l) {
      const e = l as { level?: unknown; message?: unknown };
      return `${typeof e.level === 'string' ? `[${e.level}] ` : ''}${String(e.message)}`;
    }
    return JSON.stringify(l);
  });
}
