// When a schedule fires next, as users see it: its earliest pending run (materialised, not started), else its
// next occurrence not yet materialised; nothing while it is paused. The schedule's own `nextFireAt` is the
// materializer's cursor (the first occurrence not yet turned into a run), which skips the run already queued;
// that occurrence may be excluded by a calendar, rolled, skipped or moved by an override, so the next one not
// yet materialised is where those leave it (cursorFireAt). Pure: it reads no clock and no store.

import type { AppliedCalendars } from './calendar/apply-calendars.js';
import type { Schedule } from './schedule.js';
import type { CompiledSpec } from './timing/compiled-spec.js';
import { previewList, type PreviewOverride } from './timing/preview-list.js';

/**
 * When the first occurrence from the materializer's `cursor` on runs, as its calendars and overrides leave
 * it (the first one they let run, rolled or moved), or null when none remains. Overrides of occurrences
 * before the cursor are ignored: those are materialised, their runs are pending.
 */
export function cursorFireAt(
  spec: CompiledSpec,
  cursor: number,
  calendars: AppliedCalendars | null,
  overrides: readonly PreviewOverride[],
): number | null {
  const list = previewList(spec, {
    from: cursor,
    count: 1,
    calendars,
    overrides: overrides.filter((o) => o.instant >= cursor),
  });
  return list.occurrences[0]?.at ?? null;
}

/**
 * The instant the schedule fires next: the earlier of `pendingDueAt` (the earliest dueAt of its `scheduled`
 * runs, undefined or null for none) and the materializer's cursor (`cursorAt`: where its calendars and
 * overrides leave it, see cursorFireAt; undefined: the cursor itself); null when paused or when nothing remains.
 */
export function nextFireOf(
  schedule: Pick<Schedule, 'state' | 'nextFireAt'>,
  pendingDueAt: number | null | undefined,
  cursorAt?: number | null,
): number | null {
  if (schedule.state === 'paused') return null;
  const pending = pendingDueAt ?? null;
  const cursor =
    schedule.state === 'active' && schedule.nextFireAt !== null
      ? cursorAt === undefined
        ? schedule.nextFireAt
        : cursorAt
      : null;
  if (pending === null) return cursor;
  if (cursor === null) return pending;
  return Math.min(pending, cursor);
}
