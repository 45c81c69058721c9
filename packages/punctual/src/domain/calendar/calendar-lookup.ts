// Answers about one calendar's days: "is this local date one of its dates (and which label)?" and "is it a
// working day?". This module owns those two questions only; it must never read a clock, and it never
// decides what a schedule does with the answer (apply-calendars.ts does).

import { dayOfDate, localDayOf, weekdayOfDay } from './calendar-day.js';
import { WEEKDAYS, type CalendarDate, type CalendarDraft } from './calendar.js';

export interface CalendarLookup {
  name: string;
  tz: string;
  /** The date or range holding this day number, or null. */
  dateOn(day: number): CalendarDate | null;
  /** A working day: a working weekday (every day without a mask) that is none of the calendar's dates. */
  isWorkingDay(day: number): boolean;
  /** The local day number of an instant in the calendar's zone. */
  dayOf(t: number): number;
}

/** Builds the lookup of a validated calendar (binary search over its sorted dates). */
export function calendarLookup(cal: CalendarDraft): CalendarLookup {
  const from = cal.dates.map((d) => dayOfDate(d.start) as number);
  const to = cal.dates.map((d) => dayOfDate(d.end) as number);
  const working = new Set((cal.workingDays ?? WEEKDAYS).map((d) => WEEKDAYS.indexOf(d)));
  const dateOn = (day: number): CalendarDate | null => {
    let lo = 0;
    let hi = from.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (day < from[mid]!) hi = mid - 1;
      else if (day > to[mid]!) lo = mid + 1;
      else return cal.dates[mid]!;
    }
    return null;
  };
  return {
    name: cal.name,
    tz: cal.tz,
    dateOn,
    isWorkingDay: (day) => working.has(weekdayOfDay(day)) && dateOn(day) === null,
    dayOf: (t) => localDayOf(t, cal.tz),
  };
}
