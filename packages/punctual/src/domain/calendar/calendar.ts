// The calendar: a tenant's named set of all-day dates and date ranges in one zone (each with an optional
// label), and an optional weekly working-days mask. This module owns the calendar's shape, its limits and
// `normalizeCalendar`, the pure validation that turns input into what the store keeps. It must never
// perform I/O or read a clock.

import { PunctualError, type ErrorCode } from '../../errors.js';
import { resolveTimeZone } from '../timing/time-zone.js';
import { dateOfDay, dayOfDate } from './calendar-day.js';

/** The days of the week, Monday first, as a working-days mask names them. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A calendar's name: 1-100 letters, digits and . _ - (starting with a letter or digit). */
export const CALENDAR_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
/** At most this many dates and ranges in one calendar. */
export const CALENDAR_MAX_DATES = 5000;
/** A range spans at most this many days. */
export const CALENDAR_MAX_RANGE_DAYS = 366;
/** A label: at most this many characters. */
export const CALENDAR_LABEL_MAX = 200;
/** A description: at most this many characters. */
export const CALENDAR_DESCRIPTION_MAX = 2000;

/** One all-day date (`end` omitted) or an inclusive range of dates, YYYY-MM-DD in the calendar's zone. */
export interface CalendarDateInput {
  start: string;
  end?: string | undefined;
  label?: string | null | undefined;
}

/** What a user gives to create or replace a calendar. */
export interface CalendarInput {
  name: string;
  /** IANA zone the dates are days of; default UTC. */
  tz?: string | undefined;
  dates?: (string | CalendarDateInput)[] | undefined;
  /** The working days of the week; null or absent: every day is a working day (except the dates). */
  workingDays?: Weekday[] | null | undefined;
  description?: string | null | undefined;
}

/** A stored date or range: `end` is inclusive and equals `start` for one day. */
export interface CalendarDate {
  start: string;
  end: string;
  label: string | null;
}

/** The validated calendar content: everything a version captures. */
export interface CalendarDraft {
  name: string;
  tz: string;
  /** Sorted by start, not overlapping. */
  dates: CalendarDate[];
  /** Sorted Monday first; null: every day of the week is a working day. */
  workingDays: Weekday[] | null;
  description: string | null;
}

export interface Calendar extends CalendarDraft {
  tenantId: string;
  /** Bumps on every change, as a schedule's. */
  version: number;
  createdAt: number;
  updatedAt: number;
}

function fail(code: ErrorCode, message: string, details: Record<string, unknown>): PunctualError {
  return new PunctualError(code, message, details);
}

/** Checks a calendar name (CALENDAR_INVALID with `field`, e.g. `name` or `exclude[0]`). */
export function checkCalendarName(name: unknown, field = 'name'): string {
  if (typeof name !== 'string' || !CALENDAR_NAME_RE.test(name)) {
    throw fail(
      'CALENDAR_INVALID',
      `${field} must be a calendar name: 1-100 letters, digits and . _ - (starting with a letter or digit)`,
      { field, value: typeof name === 'string' ? name.slice(0, 120) : name },
    );
  }
  return name;
}

function parseDay(text: unknown, field: string): number {
  const day = typeof text === 'string' ? dayOfDate(text) : null;
  if (day === null) {
    throw fail('CALENDAR_INVALID', `${field} must be a date YYYY-MM-DD`, { field, value: text });
  }
  return day;
}

/**
 * Validates calendar input: CALENDAR_INVALID (details.field), TIME_ZONE_UNKNOWN, CALENDAR_RANGE_REVERSED,
 * CALENDAR_RANGE_OVERLAP (both ranges named), CALENDAR_TOO_LARGE. Dates come back sorted.
 */
export function normalizeCalendar(input: CalendarInput): CalendarDraft {
  if (typeof input !== 'object' || input === null) {
    throw fail('CALENDAR_INVALID', 'a calendar must be an object', { field: 'calendar' });
  }
  const name = checkCalendarName(input.name);
  if (input.tz !== undefined && typeof input.tz !== 'string') {
    throw fail('TIME_ZONE_UNKNOWN', 'tz must be a string naming an IANA zone', { field: 'tz' });
  }
  const tz = resolveTimeZone(input.tz ?? 'UTC', { field: 'tz' });
  const given = input.dates ?? [];
  if (!Array.isArray(given)) throw fail('CALENDAR_INVALID', 'dates must be a list', { field: 'dates' });
  if (given.length > CALENDAR_MAX_DATES) {
    throw fail('CALENDAR_TOO_LARGE', `a calendar holds at most ${CALENDAR_MAX_DATES} dates and ranges`, {
      field: 'dates',
      count: given.length,
      limit: CALENDAR_MAX_DATES,
    });
  }
  const ranges = given.map((g, i) => parseEntry(g, `dates[${i}]`));
  ranges.sort((a, b) => a.from - b.from);
  for (let i = 1; i < ranges.length; i++) {
    const [a, b] = [ranges[i - 1]!, ranges[i]!];
    if (b.from <= a.to) {
      throw fail(
        'CALENDAR_RANGE_OVERLAP',
        `${b.field} (${dateOfDay(b.from)}) overlaps ${a.field} (${dateOfDay(a.from)} to ${dateOfDay(a.to)})`,
        { field: b.field, overlaps: a.field },
      );
    }
  }
  return {
    name,
    tz,
    dates: ranges.map((r) => ({ start: dateOfDay(r.from), end: dateOfDay(r.to), label: r.label })),
    workingDays: parseWorkingDays(input.workingDays),
    description: parseDescription(input.description),
  };
}

interface Range {
  from: number;
  to: number;
  label: string | null;
  field: string;
}

function parseEntry(g: unknown, field: string): Range {
  if (typeof g === 'string') {
    const day = parseDay(g, field);
    return { from: day, to: day, label: null, field };
  }
  if (typeof g !== 'object' || g === null || Array.isArray(g)) {
    throw fail('CALENDAR_INVALID', `${field} must be a date or { start, end?, label? }`, { field });
  }
  const e = g as Record<string, unknown>;
  const unknown = Object.keys(e).find((k) => !['start', 'end', 'label'].includes(k));
  if (unknown !== undefined) {
    throw fail('CALENDAR_INVALID', `${field} has an unknown part "${unknown}"`, {
      field: `${field}.${unknown}`,
    });
  }
  const from = parseDay(e.start, `${field}.start`);
  const to = e.end === undefined || e.end === null ? from : parseDay(e.end, `${field}.end`);
  if (to < from) {
    throw fail(
      'CALENDAR_RANGE_REVERSED',
      `${field}: end ${String(e.end)} is before start ${String(e.start)}`,
      {
        field: `${field}.end`,
        start: e.start,
        end: e.end,
      },
    );
  }
  if (to - from + 1 > CALENDAR_MAX_RANGE_DAYS) {
    throw fail('CALENDAR_TOO_LARGE', `${field} spans more than ${CALENDAR_MAX_RANGE_DAYS} days`, {
      field,
      days: to - from + 1,
      limit: CALENDAR_MAX_RANGE_DAYS,
    });
  }
  let label: string | null = null;
  if (e.label !== undefined && e.label !== null && e.label !== '') {
    if (typeof e.label !== 'string' || e.label.length > CALENDAR_LABEL_MAX) {
      throw fail(
        'CALENDAR_INVALID',
        `${field}.label must be a string of at most ${CALENDAR_LABEL_MAX} characters`,
        {
          field: `${field}.label`,
        },
      );
    }
    label = e.label;
  }
  return { from, to, label, field };
}

function parseWorkingDays(v: unknown): Weekday[] | null {
  if (v === undefined || v === null) return null;
  const all = WEEKDAYS as readonly string[];
  if (!Array.isArray(v) || v.length === 0 || v.some((d) => typeof d !== 'string' || !all.includes(d))) {
    throw fail('CALENDAR_INVALID', `workingDays must be a non-empty list of ${WEEKDAYS.join(' ')}`, {
      field: 'workingDays',
      value: v as unknown,
    });
  }
  const set = new Set(v as Weekday[]);
  return WEEKDAYS.filter((d) => set.has(d));
}

function parseDescription(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string' || v.length > CALENDAR_DESCRIPTION_MAX) {
    throw fail(
      'CALENDAR_INVALID',
      `description must be a string of at most ${CALENDAR_DESCRIPTION_MAX} characters`,
      {
        field: 'description',
      },
    );
  }
  return v;
}
