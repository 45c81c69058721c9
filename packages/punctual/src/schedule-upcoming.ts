// What comes next for saved schedules, as it will really run: the preview of one schedule (its next
// occurrences with its calendars and overrides applied) and when each schedule of a page fires next. It
// reads what the domain needs (the schedules' calendars, their overrides, their pending runs) in as few store
// reads as it can, then asks the pure domain (domain/schedule-preview.ts, domain/next-fire.ts). It never
// writes and never reads a clock (callers pass `now`).

import { applyCalendarRules, type AppliedCalendars } from './domain/calendar/apply-calendars.js';
import type { CalendarDraft } from './domain/calendar/calendar.js';
import { calendarNamesOf } from './domain/calendar/calendar-rules.js';
import { cursorFireAt, nextFireOf } from './domain/next-fire.js';
import { OVERRIDE_HORIZON_MS, type OccurrenceOverride } from './domain/occurrence-override.js';
import { compileStored, type Schedule } from './domain/schedule.js';
import { previewSchedule } from './domain/schedule-preview.js';
import type { SpecPreview } from './domain/timing/preview-spec.js';
import { MOVED_LOOKBACK_MS, OVERRIDES_LISTED_MAX } from './occurrence-overrides.js';
import { hasCalendars } from './store/calendar-store.js';
import type { Store } from './store/store.js';

/**
 * The calendars these schedules use, looked up, by schedule id (null for a schedule without calendar
 * rules); one read per calendar. A calendar deleted under a schedule (deletion refuses while one names it)
 * counts as one with no dates: every day works.
 */
export async function appliedCalendarsOf(
  store: Store,
  schedules: readonly Schedule[],
): Promise<Map<string, AppliedCalendars | null>> {
  const found = new Map<string, CalendarDraft>();
  const out = new Map<string, AppliedCalendars | null>();
  for (const s of schedules) {
    const rules = s.calendarRules ?? null;
    if (rules === null) {
      out.set(s.id, null);
      continue;
    }
    for (const name of calendarNamesOf(rules)) {
      const k = `${s.tenantId}\u0000${name}`;
      if (found.has(k)) continue;
      const cal = hasCalendars(store) ? await store.getCalendar(s.tenantId, name) : undefined;
      found.set(k, cal ?? { name, tz: 'UTC', dates: [], workingDays: null, description: null });
    }
    out.set(
      s.id,
      applyCalendarRules(rules, (n) => found.get(`${s.tenantId}\u0000${n}`)),
    );
  }
  return out;
}

/**
 * The schedule's next `count` occurrences from `now` with its calendars and overrides applied (an
 * occurrence moved from up to MOVED_LOOKBACK_MS ago to a later instant is still listed).
 */
export async function previewSavedSchedule(
  store: Store,
  s: Schedule,
  opts: { now: number; count: number; explain?: boolean | undefined },
): Promise<SpecPreview> {
  const calendars = (await appliedCalendarsOf(store, [s])).get(s.id) ?? null;
  const overrides = await store.listOccurrenceOverrides(s.tenantId, s.id, {
    from: opts.now - MOVED_LOOKBACK_MS,
    limit: OVERRIDES_LISTED_MAX,
  });
  return previewSchedule(s, {
    from: opts.now,
    count: opts.count,
    explain: opts.explain,
    calendars,
    overrides,
  });
}

/**
 * When each schedule fires next, by schedule id: the earlier of its earliest pending run and the first
 * occurrence from the materializer's cursor as its calendars and overrides leave it; null while paused or
 * when none remain. One read of pending runs and one of overrides for the whole list, one per calendar.
 */
export async function nextFireTimes(
  store: Store,
  tenantId: string,
  schedules: readonly Schedule[],
  now: number,
): Promise<Map<string, number | null>> {
  const mine = schedules.filter((s) => s.tenantId === tenantId);
  const asked = mine.filter((s) => s.state !== 'paused');
  const pending =
    asked.length > 0
      ? await store.pendingDueAt(
          tenantId,
          asked.map((s) => s.id),
        )
      : new Map<string, number>();
  const cursors = asked.filter((s) => s.state === 'active' && s.nextFireAt !== null);
  const overrides = await overridesAhead(store, cursors);
  const calendars = await appliedCalendarsOf(
    store,
    cursors.filter((s) => s.calendarRules != null),
  );
  return new Map(
    mine.map((s) => {
      const own = overrides.get(s.id) ?? [];
      const cals = calendars.get(s.id) ?? null;
      const cursorAt =
        s.state === 'active' && s.nextFireAt !== null && (cals !== null || own.length > 0)
          ? cursorFireAt(compileStored(s, now), s.nextFireAt, cals, own)
          : undefined;
      return [s.id, nextFireOf(s, pending.get(s.id), cursorAt)];
    }),
  );
}

/** The overrides of these schedules at or after their cursors (within the override horizon), by schedule id. */
async function overridesAhead(
  store: Store,
  schedules: readonly Schedule[],
): Promise<Map<string, OccurrenceOverride[]>> {
  const out = new Map<string, OccurrenceOverride[]>();
  if (schedules.length === 0) return out;
  const from = Math.min(...schedules.map((s) => s.nextFireAt!));
  const until = Math.max(...schedules.map((s) => s.nextFireAt!)) + OVERRIDE_HORIZON_MS;
  for (const o of await store.overridesDue(
    schedules.map((s) => s.id),
    from,
    until,
  )) {
    const list = out.get(o.scheduleId) ?? [];
    list.push(o);
    out.set(o.scheduleId, list);
  }
  return out;
}
