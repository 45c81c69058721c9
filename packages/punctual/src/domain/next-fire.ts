// When a schedule fires next, as users see it: its earliest pending run (materialised, not started), else its
// next occurrence not yet materialised; nothing while it is paused. The schedule's own `nextFireAt` is the
// materializer's cursor (the first occurrence not yet turned into a run), which skips the run already queued.
// Pure: it reads no clock and no store.

import type { Schedule } from './schedule.js';

/**
 * The instant the schedule fires next: the earlier of `pendingDueAt` (the earliest dueAt of its `scheduled`
 * runs, undefined or null for none) and the materializer's cursor; null when paused or when nothing remains.
 */
export function nextFireOf(
  schedule: Pick<Schedule, 'state' | 'nextFireAt'>,
  pendingDueAt: number | null | undefined,
): number | null {
  if (schedule.state === 'paused') return null;
  const pending = pendingDueAt ?? null;
  const cursor = schedule.state === 'active' ? schedule.nextFireAt : null;
  if (pending === null) return cursor;
  if (cursor === null) return pending;
  return Math.min(pending, cursor);
}
