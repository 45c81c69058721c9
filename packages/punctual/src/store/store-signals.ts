// Which StoreSignals a store operation's result calls for, and their text form for a NOTIFY payload. Both
// stores use these, so they signal the same things. Pure: no I/O, no clock.

import { writeFromOf } from '../domain/calendar/calendar-rules.js';
import type { ClaimResult, PutScheduleResult, StoreSignal, Transition } from './store.js';

/**
 * Saved schedules that changed and are active: materialise before the earliest next occurrence (earlier for
 * one that rolls back, see writeFromOf).
 */
export function putSignals(results: readonly PutScheduleResult[]): StoreSignal[] {
  let at = Infinity;
  for (const r of results) {
    const s = r.schedule;
    const from = writeFromOf(s.nextFireAt, s.calendarRules);
    if (r.changed && s.state === 'active' && from !== null) at = Math.min(at, from);
  }
  return at === Infinity ? [] : [{ kind: 'schedules', at }];
}

/** A paused schedule: its workers stop what runs (cancelPending) or hold, as the pause says. */
export function pauseSignals(
  res: { schedule: PutScheduleResult['schedule'] } | undefined,
  cancelPending: boolean,
): StoreSignal[] {
  return res ? [{ kind: 'paused', scheduleId: res.schedule.id, cancelPending }] : [];
}

/** A resumed schedule: materialise before its next occurrence (earlier for one that rolls back). */
export function resumeSignals(res: { schedule: PutScheduleResult['schedule'] } | undefined): StoreSignal[] {
  const s = res?.schedule;
  const from = s ? writeFromOf(s.nextFireAt, s.calendarRules) : null;
  return s && s.state === 'active' && from !== null ? [{ kind: 'schedules', at: from }] : [];
}

/** Running runs that a claim (cancelPrevious) or a manual cancel ended: their workers abort now. */
export function abortSignals(transitions: readonly Transition[]): StoreSignal[] {
  const runIds = transitions.filter((t) => t.from === 'running' && t.to === 'cancelled').map((t) => t.run.id);
  return runIds.length === 0 ? [] : [{ kind: 'abort', runIds }];
}

export function claimSignals(res: ClaimResult): StoreSignal[] {
  return abortSignals(res.transitions);
}

/** Most run ids in one NOTIFY payload (PostgreSQL caps a payload at 8000 bytes). */
const IDS_PER_PAYLOAD = 200;

/** The NOTIFY payloads of a signal: JSON objects, told apart from a wake-up's plain number by the brace. */
export function encodeSignal(signal: StoreSignal): string[] {
  if (signal.kind !== 'abort') return [JSON.stringify(signal)];
  const out: string[] = [];
  for (let i = 0; i < signal.runIds.length; i += IDS_PER_PAYLOAD)
    out.push(JSON.stringify({ kind: 'abort', runIds: signal.runIds.slice(i, i + IDS_PER_PAYLOAD) }));
  return out;
}

/** The signal a payload carries, or undefined for anything else (a wake-up, a malformed payload). */
export function decodeSignal(payload: string): StoreSignal | undefined {
  if (!payload.startsWith('{')) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(payload);
  } catch {
    return undefined;
  }
  const o = v as Record<string, unknown>;
  switch (o.kind) {
    case 'schedules':
      return typeof o.at === 'number' ? { kind: 'schedules', at: o.at } : undefined;
    case 'abort':
      return Array.isArray(o.runIds) && o.runIds.every((id) => typeof id === 'string')
        ? { kind: 'abort', runIds: o.runIds as string[] }
        : undefined;
    case 'paused':
      return typeof o.scheduleId === 'string' && typeof o.cancelPending === 'boolean'
        ? { kind: 'paused', scheduleId: o.scheduleId, cancelPending: o.cancelPending }
        : undefined;
    default:
      return undefined;
  }
}
