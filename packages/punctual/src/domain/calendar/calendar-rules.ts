// A schedule's calendar rules: which calendars exclude its occurrences (`exclude`) and which one's working
// days it keeps to (`businessDays` with a roll). This module owns the names of the roll modes and the
// validation of the rules as a schedule field; it holds calendar names only and must never look calendars
// up or compute occurrences.

import { PunctualError } from '../../errors.js';
import { checkCalendarName } from './calendar.js';

/** What a business-day rule does with an occurrence on a non-working day. */
export const ROLL_MODES = ['skip', 'next', 'previous'] as const;
export type RollMode = (typeof ROLL_MODES)[number];

/** At most this many calendars in one schedule's `exclude`. */
export const EXCLUDE_MAX = 10;

export interface BusinessDaysRule {
  calendar: string;
  roll: RollMode;
}

/**
 * How much earlier than the others the runs of a schedule that rolls back (`roll: "previous"`) are written:
 * an occurrence rolled back by up to this much is written before its rolled instant. Bounded, so such a
 * schedule keeps at most this much of runs pending; the store claims those schedules this much ahead.
 */
export const ROLL_BACK_LEAD_MS = 7 * 86_400_000;

/** Whether the rules can move an occurrence earlier than its nominal instant (a roll to the previous working day). */
export function rollsBack(rules: CalendarRules | null | undefined): boolean {
  return rules?.businessDays?.roll === 'previous';
}

/**
 * From when the materializer must write the occurrence at `nextFireAt` (before its look-ahead): that
 * instant, or ROLL_BACK_LEAD_MS earlier for a schedule that rolls back. Null when none remains.
 */
export function writeFromOf(
  nextFireAt: number | null,
  rules: CalendarRules | null | undefined,
): number | null {
  if (nextFireAt === null) return null;
  return rollsBack(rules) ? nextFireAt - ROLL_BACK_LEAD_MS : nextFireAt;
}

/** The calendar rules as a schedule stores them (one `calendar_rules` column). */
export interface CalendarRules {
  exclude: string[];
  businessDays: BusinessDaysRule | null;
}

function invalid(message: string, field: string, value?: unknown): PunctualError {
  return new PunctualError('CALENDAR_INVALID', message, { field, ...(value === undefined ? {} : { value }) });
}

/**
 * Validates the two schedule fields. Returns null when neither is given (no rules): a schedule without
 * calendars stores nothing. Names are checked for form only; whether they exist is the caller's question
 * (CALENDAR_UNKNOWN).
 */
export function parseCalendarRules(exclude: unknown, businessDays: unknown): CalendarRules | null {
  const ex: string[] = [];
  if (exclude !== undefined && exclude !== null) {
    if (!Array.isArray(exclude)) throw invalid('exclude must be a list of calendar names', 'exclude');
    if (exclude.length > EXCLUDE_MAX) {
      throw invalid(`exclude names at most ${EXCLUDE_MAX} calendars`, 'exclude', exclude.length);
    }
    exclude.forEach((n, i) => {
      const name = checkCalendarName(n, `exclude[${i}]`);
      if (!ex.includes(name)) ex.push(name);
    });
  }
  let bd: BusinessDaysRule | null = null;
  if (businessDays !== undefined && businessDays !== null) {
    if (typeof businessDays !== 'object' || Array.isArray(businessDays)) {
      throw invalid('businessDays must be { calendar, roll }', 'businessDays');
    }
    const b = businessDays as Record<string, unknown>;
    const unknown = Object.keys(b).find((k) => k !== 'calendar' && k !== 'roll');
    if (unknown !== undefined) {
      throw invalid(`businessDays has an unknown part "${unknown}"`, `businessDays.${unknown}`);
    }
    const calendar = checkCalendarName(b.calendar, 'businessDays.calendar');
    const roll = b.roll ?? 'skip';
    if (typeof roll !== 'string' || !(ROLL_MODES as readonly string[]).includes(roll)) {
      throw invalid(`businessDays.roll must be one of ${ROLL_MODES.join(', ')}`, 'businessDays.roll', roll);
    }
    bd = { calendar, roll: roll as RollMode };
  }
  if (ex.length === 0 && bd === null) return null;
  return { exclude: ex, businessDays: bd };
}

/** Every calendar name the rules refer to, each once, `exclude` first. */
export function calendarNamesOf(rules: CalendarRules | null): string[] {
  if (rules === null) return [];
  const names = [...rules.exclude];
  if (rules.businessDays !== null && !names.includes(rules.businessDays.calendar)) {
    names.push(rules.businessDays.calendar);
  }
  return names;
}
