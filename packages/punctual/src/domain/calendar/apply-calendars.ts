// What a schedule's calendars do to one occurrence: dropped because its date is excluded (`calendar`), or is
// a non-working day under `roll: "skip"` (`notWorkingDay`), rolled to the next or previous working day at the
// same local time (the occurrence keeps its nominal instant as its identity and runs at the rolled one), or
// left alone. The materializer, the preview and the save-time "never fires" check all ask this one module.
// Pure: no I/O, never reads a clock (`now` is given).

import { PunctualError } from '../../errors.js';
import type { CompiledSpec, OnDropped } from '../timing/compiled-spec.js';
import type { PreviewNote, PreviewOccurrence } from '../timing/preview-note.js';
import { zoneOffsets } from '../timing/zone-offsets.js';
import type { CalendarDraft } from './calendar.js';
import { calendarLookup, type CalendarLookup } from './calendar-lookup.js';
import type { CalendarRules, RollMode } from './calendar-rules.js';

const DAY = 86_400_000;
/** A roll looks this many days away at most before giving up (CALENDAR_NO_WORKING_DAY). */
export const MAX_ROLL_DAYS = 400;
/** A search passes over at most this many dropped candidates in one call. */
export const MAX_CALENDAR_DROPS = 10_000;
/** The save-time check looks at this many candidates for one that runs (SPEC_NEVER_FIRES otherwise). */
export const NEVER_FIRES_CANDIDATES = 1000;

/** A schedule's rules with their calendars looked up. */
export interface AppliedCalendars {
  exclude: CalendarLookup[];
  businessDays: { calendar: CalendarLookup; roll: RollMode } | null;
}

export type OccurrenceFate =
  | { kind: 'run'; at: number; rolled: (PreviewNote & { kind: 'rolled' }) | null }
  | {
      kind: 'dropped';
      reason: 'calendar' | 'notWorkingDay';
      calendar: string;
      label: string | null;
      /** A roll found no working day within MAX_ROLL_DAYS. */
      noWorkingDay?: true;
    };

/**
 * Looks a schedule's calendars up. CALENDAR_UNKNOWN (details.field: `exclude[i]` or
 * `businessDays.calendar`, details.calendar) for a name `find` does not know.
 */
export function applyCalendarRules(
  rules: CalendarRules,
  find: (name: string) => CalendarDraft | undefined,
): AppliedCalendars {
  const get = (name: string, field: string): CalendarLookup => {
    const cal = find(name);
    if (cal === undefined) {
      throw new PunctualError('CALENDAR_UNKNOWN', `${field} names no calendar "${name}"`, {
        field,
        calendar: name,
      });
    }
    return calendarLookup(cal);
  };
  return {
    exclude: rules.exclude.map((n, i) => get(n, `exclude[${i}]`)),
    businessDays:
      rules.businessDays === null
        ? null
        : {
            calendar: get(rules.businessDays.calendar, 'businessDays.calendar'),
            roll: rules.businessDays.roll,
          },
  };
}

function excludedBy(applied: AppliedCalendars, t: number): { calendar: string; label: string | null } | null {
  for (const c of applied.exclude) {
    const d = c.dateOn(c.dayOf(t));
    if (d !== null) return { calendar: c.name, label: d.label };
  }
  return null;
}

/** What the calendars do to the occurrence at `nominal`; `tz` is the schedule's zone (the local time kept). */
export function calendarFate(nominal: number, applied: AppliedCalendars, tz: string): OccurrenceFate {
  const ex = excludedBy(applied, nominal);
  if (ex !== null) return { kind: 'dropped', reason: 'calendar', ...ex };
  const bd = applied.businessDays;
  if (bd === null) return { kind: 'run', at: nominal, rolled: null };
  const cal = bd.calendar;
  const day = cal.dayOf(nominal);
  if (cal.isWorkingDay(day)) return { kind: 'run', at: nominal, rolled: null };
  const label = cal.dateOn(day)?.label ?? null;
  if (bd.roll === 'skip') return { kind: 'dropped', reason: 'notWorkingDay', calendar: cal.name, label };
  const zone = zoneOffsets(tz);
  const wall = zone.wall(nominal);
  const step = bd.roll === 'next' ? DAY : -DAY;
  for (let k = 1; k <= MAX_ROLL_DAYS; k++) {
    const w = wall + k * step;
    // The same local time on that day; in a DST gap, the first instant after it.
    const t = zone.instantsOf(w)[0] ?? zone.gapEnd(w);
    if (cal.isWorkingDay(cal.dayOf(t)) && excludedBy(applied, t) === null) {
      return {
        kind: 'run',
        at: t,
        rolled: { kind: 'rolled', rule: bd.roll, calendar: cal.name, from: nominal },
      };
    }
  }
  return { kind: 'dropped', reason: 'notWorkingDay', calendar: cal.name, label, noWorkingDay: true };
}

/** One occurrence of a calendared search: its nominal instant (identity) and where and how it runs. */
export interface CalendaredOccurrence {
  nominal: number;
  occurrence: PreviewOccurrence;
}

/**
 * The first occurrence whose nominal instant is after `after` and that the calendars let run, with the
 * `rolled` note when a business-day rule moved it; the candidates dropped on the way are told to
 * `onDropped` (with the calendar's name and the date's label). Null when the spec has no more, or after
 * MAX_CALENDAR_DROPS dropped candidates in a row.
 */
export function nextCalendaredAfter(
  spec: CompiledSpec,
  applied: AppliedCalendars,
  after: number,
  onDropped?: OnDropped,
): CalendaredOccurrence | null {
  let t = after;
  for (let n = 0; n <= MAX_CALENDAR_DROPS; n++) {
    const o = spec.nextDetailedAfter(t, onDropped);
    if (o === null || o.at <= t) return null;
    const fate = calendarFate(o.at, applied, spec.tz);
    if (fate.kind === 'run') {
      const notes = fate.rolled === null ? o.notes : [...o.notes, fate.rolled];
      return { nominal: o.at, occurrence: { at: fate.at, notes } };
    }
    onDropped?.({
      at: o.at,
      reason: fate.reason,
      calendar: fate.calendar,
      ...(fate.label === null ? {} : { label: fate.label }),
    });
    t = o.at;
  }
  return null;
}

/**
 * The save-time check: among the next NEVER_FIRES_CANDIDATES candidates from `now`, one must run.
 * CALENDAR_NO_WORKING_DAY when a roll meets no working day first; SPEC_NEVER_FIRES naming the calendar that
 * dropped them otherwise (details.field `exclude` or `businessDays`).
 */
export function checkCalendarsFire(spec: CompiledSpec, applied: AppliedCalendars, now: number): void {
  let t = now - 1;
  let lastDrop: { reason: string; calendar: string } | null = null;
  for (let n = 0; n < NEVER_FIRES_CANDIDATES; n++) {
    const at = spec.nextAfter(t);
    if (at === null || at <= t) break;
    const fate = calendarFate(at, applied, spec.tz);
    if (fate.kind === 'run') return;
    if (fate.noWorkingDay === true) {
      throw new PunctualError(
        'CALENDAR_NO_WORKING_DAY',
        `businessDays: calendar "${fate.calendar}" has no working day within ${MAX_ROLL_DAYS} days of ${new Date(at).toISOString()}`,
        { field: 'businessDays.roll', calendar: fate.calendar, at },
      );
    }
    lastDrop = fate;
    t = at;
  }
  if (lastDrop === null) return; // the spec itself has none: compileSpec judged that already
  const field = lastDrop.reason === 'calendar' ? 'exclude' : 'businessDays';
  throw new PunctualError(
    'SPEC_NEVER_FIRES',
    lastDrop.reason === 'calendar'
      ? `the spec never fires: its remaining candidates (up to ${NEVER_FIRES_CANDIDATES} looked at) are all excluded by its calendars (last: "${lastDrop.calendar}")`
      : `the spec never fires: its remaining candidates (up to ${NEVER_FIRES_CANDIDATES} looked at) all fall on non-working days of calendar "${lastDrop.calendar}" and roll is "skip"`,
    { field, calendar: lastDrop.calendar, candidates: NEVER_FIRES_CANDIDATES },
  );
}
