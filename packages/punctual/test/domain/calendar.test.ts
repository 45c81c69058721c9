// normalizeCalendar and calendarLookup: dates come back sorted with inclusive ends, bad input gets its own
// code with the field, and a lookup answers "one of its dates?" and "a working day?" in the calendar's zone.
import { describe, expect, it } from 'vitest';
import { isPunctualError, type ErrorCode } from '../../src/errors.js';
import { dayOfDate } from '../../src/domain/calendar/calendar-day.js';
import { calendarLookup } from '../../src/domain/calendar/calendar-lookup.js';
import {
  CALENDAR_MAX_DATES,
  normalizeCalendar,
  type CalendarInput,
} from '../../src/domain/calendar/calendar.js';
import { parseCalendarRules } from '../../src/domain/calendar/calendar-rules.js';

function refused(input: CalendarInput): { code: ErrorCode; details: unknown } {
  try {
    normalizeCalendar(input);
  } catch (e) {
    if (isPunctualError(e)) return { code: e.code, details: e.details };
    throw e;
  }
  throw new Error('accepted');
}

describe('normalizeCalendar', () => {
  it('sorts dates, gives one-day entries an end, keeps labels and sorts the working days', () => {
    const c = normalizeCalendar({
      name: 'de-holidays',
      tz: 'Europe/Berlin',
      dates: [{ start: '2026-12-25', end: '2026-12-26', label: 'Christmas' }, '2026-10-03'],
      workingDays: ['fri', 'mon', 'tue', 'wed', 'thu'],
    });
    expect(c).toEqual({
      name: 'de-holidays',
      tz: 'Europe/Berlin',
      dates: [
        { start: '2026-10-03', end: '2026-10-03', label: null },
        { start: '2026-12-25', end: '2026-12-26', label: 'Christmas' },
      ],
      workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
      description: null,
    });
  });

  it('refuses a reversed range, overlapping ranges, too many dates, bad names, dates and masks', () => {
    expect(refused({ name: 'x', dates: [{ start: '2026-12-26', end: '2026-12-25' }] })).toEqual({
      code: 'CALENDAR_RANGE_REVERSED',
      details: { field: 'dates[0].end', start: '2026-12-26', end: '2026-12-25' },
    });
    expect(refused({ name: 'x', dates: [{ start: '2026-12-24', end: '2026-12-26' }, '2026-12-26'] })).toEqual(
      { code: 'CALENDAR_RANGE_OVERLAP', details: { field: 'dates[1]', overlaps: 'dates[0]' } },
    );
    const many = Array.from({ length: CALENDAR_MAX_DATES + 1 }, () => '2026-01-01');
    expect(refused({ name: 'x', dates: many }).code).toBe('CALENDAR_TOO_LARGE');
    expect(refused({ name: 'x', dates: [{ start: '2026-01-01', end: '2027-06-01' }] }).code).toBe(
      'CALENDAR_TOO_LARGE',
    );
    expect(refused({ name: '-bad', dates: [] })).toMatchObject({
      code: 'CALENDAR_INVALID',
      details: { field: 'name' },
    });
    expect(refused({ name: 'x', dates: ['2026-02-30'] })).toMatchObject({
      code: 'CALENDAR_INVALID',
      details: { field: 'dates[0]' },
    });
    expect(refused({ name: 'x', workingDays: [] })).toMatchObject({
      code: 'CALENDAR_INVALID',
      details: { field: 'workingDays' },
    });
    expect(refused({ name: 'x', tz: 'CET+1' }).code).toBe('TIME_ZONE_UNKNOWN');
  });
});

describe('calendarLookup', () => {
  const cal = calendarLookup(
    normalizeCalendar({
      name: 'sydney',
      tz: 'Australia/Sydney',
      dates: [
        { start: '2026-10-05', label: 'Labour Day' },
        { start: '2026-12-24', end: '2026-12-31' },
      ],
      workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
    }),
  );
  const day = (d: string): number => dayOfDate(d) as number;

  it('finds the date or range holding a day, and judges working days by mask and dates', () => {
    expect(cal.dateOn(day('2026-10-05'))?.label).toBe('Labour Day');
    expect(cal.dateOn(day('2026-12-28'))).toEqual({ start: '2026-12-24', end: '2026-12-31', label: null });
    expect(cal.dateOn(day('2026-10-06'))).toBeNull();
    expect(cal.isWorkingDay(day('2026-10-05'))).toBe(false); // a Monday, but a date of the calendar
    expect(cal.isWorkingDay(day('2026-10-06'))).toBe(true); // Tuesday
    expect(cal.isWorkingDay(day('2026-10-03'))).toBe(false); // Saturday
  });

  it('reads the date of an instant in the calendar zone, not UTC nor the host zone', () => {
    // 2026-10-04T14:30Z is already Monday 01:30 in Sydney (AEDT, UTC+11).
    expect(cal.dayOf(Date.parse('2026-10-04T14:30:00Z'))).toBe(day('2026-10-05'));
    expect(cal.dayOf(Date.parse('2026-10-04T12:30:00Z'))).toBe(day('2026-10-04'));
  });
});

describe('parseCalendarRules', () => {
  it('keeps the names once, defaults roll to skip, and is null without rules', () => {
    expect(parseCalendarRules(['a', 'b', 'a'], { calendar: 'w' })).toEqual({
      exclude: ['a', 'b'],
      businessDays: { calendar: 'w', roll: 'skip' },
    });
    expect(parseCalendarRules(undefined, null)).toBeNull();
    expect(parseCalendarRules([], undefined)).toBeNull();
  });

  it('names the field of a bad rule', () => {
    const codeOf = (f: () => unknown): unknown => {
      try {
        f();
      } catch (e) {
        return isPunctualError(e) ? [e.code, e.details?.field] : e;
      }
      return 'accepted';
    };
    expect(codeOf(() => parseCalendarRules(['ok', ''], null))).toEqual(['CALENDAR_INVALID', 'exclude[1]']);
    expect(codeOf(() => parseCalendarRules(null, { calendar: 'w', roll: 'sideways' }))).toEqual([
      'CALENDAR_INVALID',
      'businessDays.roll',
    ]);
    expect(codeOf(() => parseCalendarRules('w', null))).toEqual(['CALENDAR_INVALID', 'exclude']);
  });
});
