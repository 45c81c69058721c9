// What a tenant can do with its calendars, and what a schedule's calendars must satisfy when it is saved:
// the calendars an input names are read once, each must exist (CALENDAR_UNKNOWN), and the schedule must
// still fire once they apply (SPEC_NEVER_FIRES, CALENDAR_NO_WORKING_DAY). A calendar change then re-plans the
// pending runs of every schedule that uses it, in bounded batches. Validation happens before anything is
// written; this module never reads a clock (callers pass `now`).

import {
  applyCalendarRules,
  checkCalendarsFire,
  type AppliedCalendars,
} from './domain/calendar/apply-calendars.js';
import {
  normalizeCalendar,
  type Calendar,
  type CalendarDraft,
  type CalendarInput,
  type Weekday,
} from './domain/calendar/calendar.js';
import { parseIcs } from './domain/calendar/ics-import.js';
import { calendarNamesOf, parseCalendarRules } from './domain/calendar/calendar-rules.js';
import type { ScheduleDraft, ScheduleInput } from './domain/schedule.js';
import type { RevisionNote } from './domain/schedule-revision.js';
import type { CompiledSpec } from './domain/timing/compiled-spec.js';
import { PunctualError } from './errors.js';
import {
  calendarNotFound,
  hasCalendars,
  type CalendarStore,
  type PutCalendarResult,
} from './store/calendar-store.js';
import type { Store, Transition } from './store/store.js';

/** Schedules re-planned per store transaction after a calendar change. */
export const REWIND_BATCH = 500;

/** The store's calendar part, or CALENDAR_NOT_FOUND-style refusal when it has none. */
export function calendarStoreOf(store: Store): Store & CalendarStore {
  if (!hasCalendars(store)) {
    throw new PunctualError('CALENDAR_INVALID', 'this store does not keep calendars', { field: 'store' });
  }
  return store;
}

/** The calendar names a schedule input refers to (whatever their form: normalizing checks it later). */
function namesIn(input: ScheduleInput): string[] {
  const out: string[] = [];
  if (Array.isArray(input?.exclude))
    out.push(...input.exclude.filter((n): n is string => typeof n === 'string'));
  const bd = input?.businessDays as { calendar?: unknown } | null | undefined;
  if (typeof bd?.calendar === 'string') out.push(bd.calendar);
  return out;
}

/** Reads the calendars the inputs name (those that exist), by name. */
export async function calendarsNamedBy(
  store: Store,
  tenantId: string,
  inputs: readonly ScheduleInput[],
): Promise<Map<string, CalendarDraft>> {
  const out = new Map<string, CalendarDraft>();
  if (!hasCalendars(store)) return out;
  for (const name of new Set(inputs.flatMap(namesIn))) {
    const cal = await store.getCalendar(tenantId, name);
    if (cal !== undefined) out.set(name, cal);
  }
  return out;
}

/**
 * The save-time check of a schedule's calendars: each must exist (CALENDAR_UNKNOWN with the field) and the
 * schedule must still fire under them from `now`. Returns the applied calendars (null when it has none).
 */
export function checkScheduleCalendars(
  draft: ScheduleDraft,
  spec: CompiledSpec,
  calendars: ReadonlyMap<string, CalendarDraft>,
  now: number,
): AppliedCalendars | null {
  if (draft.calendarRules === null) return null;
  const applied = applyCalendarRules(draft.calendarRules, (n) => calendars.get(n));
  if (spec.kind !== 'at' || spec.nextAfter(now - 1) !== null) checkCalendarsFire(spec, applied, now);
  return applied;
}

export interface ImportCalendarOptions {
  /** The zone of the dates; default the feed's X-WR-TIMEZONE, else UTC. */
  tz?: string | undefined;
  workingDays?: Weekday[] | null | undefined;
  description?: string | null | undefined;
  /** Yearly events are expanded over this many years from `now` (default 5, at most 50). */
  horizonYears?: number | undefined;
  expectedVersion?: number | undefined;
}

/** The calendar input an .ics text gives, and the events it left out. */
export function calendarInputFromIcs(
  name: string,
  ics: string,
  opts: ImportCalendarOptions & { now: number },
): { input: CalendarInput; skipped: { summary: string | null; why: string }[] } {
  const parsed = parseIcs(ics, { from: opts.now, horizonYears: opts.horizonYears });
  return {
    input: {
      name,
      tz: opts.tz ?? parsed.tz ?? 'UTC',
      dates: parsed.dates,
      workingDays: opts.workingDays ?? null,
      description: opts.description ?? null,
    },
    skipped: parsed.skipped,
  };
}

/** Validates and writes a calendar; the caller re-plans its users when it changed. */
export async function writeCalendar(
  store: Store,
  tenantId: string,
  input: CalendarInput,
  opts: { now: number; expectedVersion?: number | undefined; revision?: RevisionNote | undefined },
): Promise<PutCalendarResult> {
  const draft = normalizeCalendar(input);
  return calendarStoreOf(store).putCalendar({
    tenantId,
    draft,
    now: opts.now,
    expectedVersion: opts.expectedVersion,
    revision: opts.revision,
  });
}

/** The calendar or CALENDAR_NOT_FOUND. */
export async function requireCalendar(store: Store, tenantId: string, name: string): Promise<Calendar> {
  const cal = await calendarStoreOf(store).getCalendar(tenantId, name);
  if (cal === undefined) throw calendarNotFound(name);
  return cal;
}

/**
 * Re-plans every schedule using the calendar, REWIND_BATCH schedules per store transaction; `onBatch` is
 * told each batch's cancelled runs. Returns how many schedules were looked at.
 */
export async function rewindCalendarUsers(
  store: Store,
  tenantId: string,
  calendar: string,
  now: number,
  onBatch: (transitions: Transition[]) => void,
): Promise<number> {
  const s = calendarStoreOf(store);
  let after: string | null = null;
  let total = 0;
  do {
    const res = await s.rewindCalendarUsers({ tenantId, calendar, now, after, limit: REWIND_BATCH });
    total += res.schedules;
    onBatch(res.transitions);
    after = res.last;
  } while (after !== null);
  return total;
}

/**
 * The calendars of a preview: `exclude` and `businessDays` as a schedule gives them, each name looked up
 * first among `inline` calendars (given with the preview, e.g. a file), then among the tenant's. Null when
 * neither rule is given. CALENDAR_INVALID / CALENDAR_UNKNOWN / the calendar validation codes otherwise.
 */
export async function previewCalendars(
  store: Store,
  tenantId: string,
  rules: { exclude?: unknown; businessDays?: unknown; calendars?: readonly CalendarInput[] | undefined },
): Promise<AppliedCalendars | null> {
  const parsed = parseCalendarRules(rules.exclude, rules.businessDays);
  if (parsed === null) return null;
  const found = new Map<string, CalendarDraft>();
  for (const c of rules.calendars ?? []) {
    const d = normalizeCalendar(c);
    found.set(d.name, d);
  }
  for (const name of calendarNamesOf(parsed)) {
    if (found.has(name) || !hasCalendars(store)) continue;
    const cal = await store.getCalendar(tenantId, name);
    if (cal !== undefined) found.set(name, cal);
  }
  return applyCalendarRules(parsed, (n) => found.get(n));
}
