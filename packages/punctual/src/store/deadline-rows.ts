// What both stores do with a due deadline check, as pure steps around their own statements: which runs prove
// a window met (the bounds of the lookup), the alert the closed window raises or clears, and the window
// watched next. Shared so the SQLite and PostgreSQL stores judge alike. It must never run a statement or
// read a clock.

import type { AlertClearance, AlertCondition, Check } from '../domain/alert.js';
import { DEADLINE_RUN_LOOKBACK_MS, deadlineVerdict, nextWindowStart } from '../domain/deadline-check.js';

/** The runs that prove a window met: succeeded within [start, close], scheduled at most a day before it. */
export interface WindowLookup {
  tenantId: string;
  scheduleKey: string;
  scheduledFrom: number;
  start: number;
  close: number;
}

export function windowLookup(c: Check, start: number): WindowLookup {
  const d = c.deadline!;
  return {
    tenantId: c.tenantId,
    scheduleKey: d.schedule,
    scheduledFrom: start - DEADLINE_RUN_LOOKBACK_MS,
    start,
    close: start + d.withinMs,
  };
}

/**
 * The outcome of a closed window: the alert op, and the window to watch next (its start and close, or
 * nulls when the spec opens no more). After an outage the windows that closed meanwhile are not judged one
 * by one: the next one watched is the first whose close is still ahead.
 */
export function judgedWindow(
  c: Check,
  start: number,
  met: boolean,
  now: number,
): {
  op: { open: AlertCondition } | { clear: AlertClearance };
  windowStart: number | null;
  nextCheckAt: number | null;
} {
  const d = c.deadline!;
  const op = deadlineVerdict({ tenantId: c.tenantId, name: c.name, deadline: d }, start, met);
  const next = nextWindowStart(d, start, now);
  return { op, windowStart: next, nextCheckAt: next === null ? null : next + d.withinMs };
}

/** The first window a new or replaced deadline check watches at `now`. */
export function firstWindow(
  d: NonNullable<Check['deadline']>,
  now: number,
): { windowStart: number | null; nextCheckAt: number | null } {
  const start = nextWindowStart(d, now - d.withinMs, now);
  return { windowStart: start, nextCheckAt: start === null ? null : start + d.withinMs };
}
