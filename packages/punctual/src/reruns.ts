// Re-runs: what TenantApi.rerun and rerunRange ask of the store. A rerun makes a final run `scheduled` again,
// due now, as new attempts of the same occurrence (same run, scheduledFor, occurrence id and attempt history),
// with the schedule's current version and a fresh attempt budget. This module finds the runs of a range and
// turns refusals into coded errors; it never reads a clock (callers pass `now`) and never emits events.

import { PunctualError } from './errors.js';
import type { Run, RunState } from './domain/run.js';
import { parseInstant, type Schedule } from './domain/schedule.js';
import type { RerunRefusal, RerunResult, Store, Transition } from './store/store.js';

/** The states a run may be re-run from: the final ones. */
export const RERUNNABLE_STATES = ['succeeded', 'dead', 'skipped', 'expired', 'cancelled'] as const;
export type RerunnableState = (typeof RERUNNABLE_STATES)[number];

export interface RerunRange {
  /** scheduledFor at or after this instant (ISO-8601, epoch ms or Date). */
  from: string | number | Date;
  /** scheduledFor before this instant. */
  to: string | number | Date;
  /** Only runs in these states (default: dead). Final states only. */
  states?: readonly string[] | undefined;
}

/** The coded error for a run the store left as it was. */
export function refusalError(r: RerunRefusal): PunctualError {
  if (r.why === 'notFound') return new PunctualError('RUN_NOT_FOUND', `no run "${r.runId}"`, { id: r.runId });
  if (r.why === 'notFinal') {
    return new PunctualError('RUN_NOT_RERUNNABLE', `run "${r.runId}" is ${r.state}, not final yet`, {
      id: r.runId,
      state: r.state,
      why: r.why,
    });
  }
  return new PunctualError(
    'RUN_NOT_RERUNNABLE',
    `run "${r.runId}": its occurrence is held by run "${r.heldBy}"; rerun that one`,
    { id: r.runId, state: r.state, why: r.why, heldBy: r.heldBy },
  );
}

/** Reruns these runs of `s`. */
export function rerunRuns(
  store: Store,
  s: Schedule,
  runIds: readonly string[],
  now: number,
): Promise<RerunResult> {
  return store.rerunRuns({
    tenantId: s.tenantId,
    scheduleId: s.id,
    scheduleVersion: s.version,
    attempts: s.policies.retry.maxAttempts,
    runIds,
    now,
  });
}

/** The ids of `s`'s runs in the range and states, at most maxCatchup (SCHEDULE_INVALID beyond). */
export async function runsInRange(store: Store, s: Schedule, range: RerunRange): Promise<string[]> {
  const from = parseInstant(range.from, 'from');
  const to = parseInstant(range.to, 'to');
  if (from === null || to === null || to <= from) {
    throw new PunctualError('SCHEDULE_INVALID', 'a rerun range needs from < to', { field: 'to' });
  }
  const states = [...new Set(range.states ?? ['dead'])];
  for (const state of states) {
    if (!(RERUNNABLE_STATES as readonly string[]).includes(state)) {
      throw new PunctualError(
        'SCHEDULE_INVALID',
        `states: "${String(state)}" is not a final state (${RERUNNABLE_STATES.join(', ')})`,
        { field: 'states' },
      );
    }
  }
  const ids: string[] = [];
  for (const state of states) {
    let cursor: string | undefined;
    do {
      const page = await store.listRuns({
        tenantId: s.tenantId,
        scheduleKey: s.key,
        state: state as RunState,
        from,
        to,
        cursor,
        limit: 1000,
      });
      // A key reused after a delete: only this schedule's runs.
      ids.push(...page.items.filter((r: Run) => r.scheduleId === s.id).map((r) => r.id));
      if (ids.length > s.policies.maxCatchup) {
        throw new PunctualError(
          'SCHEDULE_INVALID',
          `the rerun range holds more than maxCatchup (${s.policies.maxCatchup}) runs`,
          { field: 'to', limit: s.policies.maxCatchup },
        );
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  }
  return ids;
}

/** A run of a range that was left as it was, as the API shows it. */
export interface RerunRefused {
  id: string;
  code: string;
  message: string;
}

/**
 * Reruns one run: RUN_NOT_FOUND, SCHEDULE_NOT_FOUND (its schedule was deleted, even if the key was reused) or
 * RUN_NOT_RERUNNABLE when it cannot; its transition otherwise.
 */
export async function rerunOne(
  store: Store,
  tenantId: string,
  id: string,
  now: number,
): Promise<Transition[]> {
  const found = await store.getRun(tenantId, id);
  if (!found) throw new PunctualError('RUN_NOT_FOUND', `no run "${id}"`, { id });
  const s = await store.getSchedule(tenantId, found.run.scheduleKey);
  if (s?.id !== found.run.scheduleId) {
    throw new PunctualError('SCHEDULE_NOT_FOUND', `the schedule of run "${id}" was deleted`, {
      key: found.run.scheduleKey,
    });
  }
  const res = await rerunRuns(store, s, [id], now);
  if (res.refused[0] !== undefined) throw refusalError(res.refused[0]);
  return res.transitions;
}

/** Reruns the runs of `s` in the range; `beforeWrite` sees how many were found before anything is written. */
export async function rerunInRange(
  store: Store,
  s: Schedule,
  range: RerunRange,
  now: number,
  beforeWrite?: (count: number) => Promise<void>,
): Promise<{ transitions: Transition[]; refused: RerunRefused[] }> {
  const ids = await runsInRange(store, s, range);
  await beforeWrite?.(ids.length);
  if (ids.length === 0) return { transitions: [], refused: [] };
  const res = await rerunRuns(store, s, ids, now);
  return {
    transitions: res.transitions,
    refused: res.refused.map((r) => {
      const e = refusalError(r);
      return { id: r.runId, code: e.code, message: e.message };
    }),
  };
}
