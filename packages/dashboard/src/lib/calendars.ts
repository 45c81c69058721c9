// What the Calendars pages show and send, as pure functions: a date or range in words (a range as a range),
// the working days in short (Mon–Fri), the dates of a calendar as the API takes them back with one added or
// removed, and the API's errors about one date placed on the field of the add form. It never calls the API.

import { isApiError, type Calendar, type CalendarDate, type CalendarInput, type Weekday } from '../api.ts';
import { describeError } from './errors.ts';

const DAY = 86_400_000;
const WEEKDAY_ORDER: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
const cap = (d: string): string => d.charAt(0).toUpperCase() + d.slice(1);

/** `2026-12-25`, or `2026-12-24 – 2026-12-26` for a range. */
export function dateText(d: Pick<CalendarDate, 'start' | 'end'>): string {
  return d.start === d.end ? d.start : `${d.start} – ${d.end}`;
}

/** How many days an entry covers (1 for a single date). */
export function daysOf(d: Pick<CalendarDate, 'start' | 'end'>): number {
  return Math.round((Date.parse(`${d.end}T00:00:00Z`) - Date.parse(`${d.start}T00:00:00Z`)) / DAY) + 1;
}

/** The working days in short: `every day` (none given), `Mon–Fri`, `Mon, Wed, Fri`, `Mon–Wed, Sat`. */
export function workingDaysText(days: readonly Weekday[] | null): string {
  if (days === null) return 'every day';
  if (days.length === 0) return 'none';
  const idx = [...new Set(days)].map((d) => WEEKDAY_ORDER.indexOf(d)).sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const i of idx) {
    const last = runs[runs.length - 1];
    if (last && last[1] === i - 1) last[1] = i;
    else runs.push([i, i]);
  }
  return runs
    .map(([a, b]) => {
      const from = cap(WEEKDAY_ORDER[a]!);
      if (a === b) return from;
      return b === a + 1 ? `${from}, ${cap(WEEKDAY_ORDER[b]!)}` : `${from}–${cap(WEEKDAY_ORDER[b]!)}`;
    })
    .join(', ');
}

/** Dates sorted by start (the service keeps them sorted; this keeps the page right whatever it gets). */
export function sortedDates(dates: readonly CalendarDate[]): CalendarDate[] {
  return [...dates].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
}

/** The calendar's content as a put body (the name is the path's). */
export function calendarBody(c: Calendar): CalendarInput {
  return {
    tz: c.tz,
    dates: c.dates.map((d) => ({ start: d.start, end: d.end, label: d.label })),
    workingDays: c.workingDays,
    description: c.description,
  };
}

export interface NewDate {
  start: string;
  end: string;
  label: string;
}

/** The put body with one date added last (its index is the number of dates before it). */
export function withDate(c: Calendar, d: NewDate): CalendarInput {
  const entry = {
    start: d.start.trim(),
    ...(d.end.trim() === '' || d.end.trim() === d.start.trim() ? {} : { end: d.end.trim() }),
    ...(d.label.trim() === '' ? {} : { label: d.label.trim() }),
  };
  const body = calendarBody(c);
  return { ...body, dates: [...(body.dates ?? []), entry] };
}

/** The put body with the date starting on `start` removed. */
export function withoutDate(c: Calendar, start: string): CalendarInput {
  const body = calendarBody(c);
  return { ...body, dates: c.dates.filter((d) => d.start !== start).map((d) => ({ ...d })) };
}

export interface DateErrors {
  fields: Partial<Record<keyof NewDate, string>>;
  general: string | null;
}

/** `dates[3].start` or `dates.3.start` → [3, 'start']; anything else null. */
function datePath(path: unknown): [number, string | undefined] | null {
  if (typeof path !== 'string') return null;
  const m = /^dates(?:\[(\d+)\]|\.(\d+))(?:\.(\w+))?$/.exec(path);
  return m === null ? null : [Number(m[1] ?? m[2]), m[3]];
}

/**
 * Places the API's error about the date added at `index` on the add form's field (start, end or label); an
 * overlap with another date goes on start; anything else is a message for the form.
 */
export function dateErrors(e: unknown, index: number): DateErrors {
  if (!isApiError(e)) return { fields: {}, general: describeError(e) };
  const d = e.details;
  const found: [unknown, string][] =
    e.code === 'VALIDATION_FAILED' && Array.isArray(d.issues)
      ? (d.issues as { field?: unknown; message?: unknown }[]).map((i) => [
          i.field,
          typeof i.message === 'string' ? i.message : e.message,
        ])
      : [
          [d.field, e.message],
          [d.overlaps, e.message],
        ];
  for (const [path, message] of found) {
    const at = datePath(path);
    if (at === null || at[0] !== index) continue;
    const part = at[1] === 'end' || at[1] === 'label' ? at[1] : 'start';
    // Next to the field, the message's leading path (`dates[2].end: `) is noise.
    const text = message.replace(/^dates\[\d+\](\.\w+)?:?\s*/, '');
    return { fields: { [part]: text.charAt(0).toUpperCase() + text.slice(1) }, general: null };
  }
  return { fields: {}, general: describeError(e) };
}
