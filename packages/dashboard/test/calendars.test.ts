// The Calendars pages' pure helpers: a date or range in words, the working days in short, the put bodies
// with one date added or removed, and the API's error about the added date placed on the add form's field.
import { describe, expect, it } from 'vitest';
import { ApiError, type Calendar } from '../src/api.ts';
import {
  dateErrors,
  dateText,
  daysOf,
  sortedDates,
  withDate,
  withoutDate,
  workingDaysText,
} from '../src/lib/calendars.ts';

const CAL: Calendar = {
  name: 'de-holidays',
  tz: 'Europe/Berlin',
  dates: [
    { start: '2026-12-24', end: '2026-12-26', label: 'Weihnachten' },
    { start: '2027-01-01', end: '2027-01-01', label: null },
  ],
  workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
  description: null,
  version: 4,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};

describe('calendar helpers', () => {
  it('shows a range as a range and counts its days, across a month end', () => {
    expect(dateText(CAL.dates[0]!)).toBe('2026-12-24 – 2026-12-26');
    expect(dateText(CAL.dates[1]!)).toBe('2027-01-01');
    expect(daysOf(CAL.dates[0]!)).toBe(3);
    expect(daysOf({ start: '2026-12-30', end: '2027-01-02' })).toBe(4);
    expect(sortedDates([CAL.dates[1]!, CAL.dates[0]!]).map((d) => d.start)).toEqual([
      '2026-12-24',
      '2027-01-01',
    ]);
  });

  it('writes working days in short', () => {
    expect(workingDaysText(null)).toBe('every day');
    expect(workingDaysText(['mon', 'tue', 'wed', 'thu', 'fri'])).toBe('Mon–Fri');
    expect(workingDaysText(['mon', 'wed', 'fri'])).toBe('Mon, Wed, Fri');
    expect(workingDaysText(['sat', 'mon', 'tue', 'sun'])).toBe('Mon, Tue, Sat, Sun');
    expect(workingDaysText(['mon', 'tue', 'wed', 'sat'])).toBe('Mon–Wed, Sat');
  });

  it('adds a date last (no end for one day, no empty label) and removes one by its start', () => {
    const added = withDate(CAL, { start: ' 2027-05-01 ', end: '2027-05-01', label: '' });
    expect(added.dates).toEqual([
      { start: '2026-12-24', end: '2026-12-26', label: 'Weihnachten' },
      { start: '2027-01-01', end: '2027-01-01', label: null },
      { start: '2027-05-01' },
    ]);
    expect(added).toMatchObject({ tz: 'Europe/Berlin', workingDays: CAL.workingDays, description: null });
    const range = withDate(CAL, { start: '2027-07-01', end: '2027-07-14', label: 'Summer' });
    expect(range.dates?.[2]).toEqual({ start: '2027-07-01', end: '2027-07-14', label: 'Summer' });
    expect(withoutDate(CAL, '2026-12-24').dates).toEqual([
      { start: '2027-01-01', end: '2027-01-01', label: null },
    ]);
  });

  it("places the API's error about the added date on its field, anything else on the form", () => {
    const reversed = new ApiError(400, 'CALENDAR_RANGE_REVERSED', 'dates[2].end: end is before start', {
      field: 'dates[2].end',
    });
    expect(dateErrors(reversed, 2)).toEqual({ fields: { end: 'End is before start' }, general: null });
    const overlap = new ApiError(400, 'CALENDAR_RANGE_OVERLAP', 'dates[0] overlaps dates[2]', {
      field: 'dates[0]',
      overlaps: 'dates[2]',
    });
    expect(dateErrors(overlap, 2)).toEqual({ fields: { start: 'Overlaps dates[2]' }, general: null });
    const schema = new ApiError(400, 'VALIDATION_FAILED', 'invalid', {
      issues: [{ field: 'dates.2.label', message: 'too long' }],
    });
    expect(dateErrors(schema, 2).fields).toEqual({ label: 'Too long' });
    const other = new ApiError(409, 'VERSION_CONFLICT', 'stale', { name: 'de-holidays', expected: 4 });
    expect(dateErrors(other, 2)).toEqual({
      fields: {},
      general: 'Someone changed this calendar since you opened it. Reload it to see the new version.',
    });
  });
});
