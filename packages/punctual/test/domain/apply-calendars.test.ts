// What calendars do to a schedule's occurrences, in several zones and across DST changes: an excluded date
// drops the occurrence (reason `calendar` with the name and label); a business-day rule skips it or rolls it
// to the next or previous working day at the same local time (the nominal instant stays its identity); a
// schedule that can never fire under its calendars is refused. Fixed instants only; the host zone is not used.
import { describe, expect, it } from 'vitest';
import { isPunctualError } from '../../src/errors.js';
import {
  applyCalendarRules,
  calendarFate,
  checkCalendarsFire,
} from '../../src/domain/calendar/apply-calendars.js';
import { normalizeCalendar, type CalendarInput } from '../../src/domain/calendar/calendar.js';
import type { CalendarRules } from '../../src/domain/calendar/calendar-rules.js';
import { compileSpec } from '../../src/domain/timing/compile-spec.js';
import { previewSpec } from '../../src/domain/timing/preview-spec.js';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString();
const MON_FRI = ['mon', 'tue', 'wed', 'thu', 'fri'] as const;

function applied(rules: CalendarRules, ...cals: CalendarInput[]) {
  const drafts = new Map(cals.map((c) => [c.name, normalizeCalendar(c)]));
  return applyCalendarRules(rules, (n) => drafts.get(n));
}

function refusal(f: () => unknown): [string, unknown] {
  try {
    f();
  } catch (e) {
    if (isPunctualError(e)) return [e.code, e.details];
    throw e;
  }
  return ['accepted', null];
}

const berlin: CalendarInput = {
  name: 'de-holidays',
  tz: 'Europe/Berlin',
  dates: [
    { start: '2026-12-24', end: '2026-12-26', label: 'Weihnachten' },
    { start: '2027-01-01', label: 'Neujahr' },
  ],
};

describe('exclude', () => {
  it('Europe/Berlin: the daily 09:00 run skips the holidays; explain names the calendar and the label', () => {
    const p = previewSpec('0 9 * * *', {
      tz: 'Europe/Berlin',
      from: at('2026-12-20T00:00:00Z'),
      count: 10,
      explain: true,
      calendars: applied({ exclude: ['de-holidays'], businessDays: null }, berlin),
    });
    expect(p.next.map(iso)).toEqual([
      '2026-12-20T08:00:00.000Z',
      '2026-12-21T08:00:00.000Z',
      '2026-12-22T08:00:00.000Z',
      '2026-12-23T08:00:00.000Z',
      '2026-12-27T08:00:00.000Z',
      '2026-12-28T08:00:00.000Z',
      '2026-12-29T08:00:00.000Z',
      '2026-12-30T08:00:00.000Z',
      '2026-12-31T08:00:00.000Z',
      '2027-01-02T08:00:00.000Z',
    ]);
    expect(p.dropped).toEqual([
      { at: at('2026-12-24T08:00:00Z'), reason: 'calendar', calendar: 'de-holidays', label: 'Weihnachten' },
      { at: at('2026-12-25T08:00:00Z'), reason: 'calendar', calendar: 'de-holidays', label: 'Weihnachten' },
      { at: at('2026-12-26T08:00:00Z'), reason: 'calendar', calendar: 'de-holidays', label: 'Weihnachten' },
      { at: at('2027-01-01T08:00:00Z'), reason: 'calendar', calendar: 'de-holidays', label: 'Neujahr' },
    ]);
  });

  it('America/New_York: the date is read in the calendar zone (UTC here), not the schedule zone', () => {
    const cal = { name: 'utc-xmas', tz: 'UTC', dates: ['2026-12-25'] };
    const rules = applied({ exclude: ['utc-xmas'], businessDays: null }, cal);
    // 21:00 New York on the 24th is 02:00 UTC on the 25th: excluded. 21:00 on the 25th is the 26th in UTC.
    expect(calendarFate(at('2026-12-25T02:00:00Z'), rules, 'America/New_York')).toMatchObject({
      kind: 'dropped',
      reason: 'calendar',
      calendar: 'utc-xmas',
    });
    expect(calendarFate(at('2026-12-26T02:00:00Z'), rules, 'America/New_York')).toEqual({
      kind: 'run',
      at: at('2026-12-26T02:00:00Z'),
      rolled: null,
    });
  });

  it('names the unknown calendar and its field', () => {
    expect(refusal(() => applied({ exclude: ['de-holidays', 'fr'], businessDays: null }, berlin))).toEqual([
      'CALENDAR_UNKNOWN',
      { field: 'exclude[1]', calendar: 'fr' },
    ]);
    expect(refusal(() => applied({ exclude: [], businessDays: { calendar: 'x', roll: 'next' } }))).toEqual([
      'CALENDAR_UNKNOWN',
      { field: 'businessDays.calendar', calendar: 'x' },
    ]);
  });
});

describe('businessDays', () => {
  const sydney: CalendarInput = {
    name: 'nsw',
    tz: 'Australia/Sydney',
    dates: [{ start: '2026-10-05', label: 'Labour Day' }],
    workingDays: [...MON_FRI],
  };

  it('Australia/Sydney: a Monday holiday rolls to Tuesday or back to Friday at 02:30 local across the DST start', () => {
    const monday = at('2026-10-04T15:30:00Z'); // Monday 5 October 02:30 AEDT (UTC+11)
    const next = calendarFate(
      monday,
      applied({ exclude: [], businessDays: { calendar: 'nsw', roll: 'next' } }, sydney),
      'Australia/Sydney',
    );
    expect(next).toEqual({
      kind: 'run',
      at: at('2026-10-05T15:30:00Z'), // Tuesday 02:30 AEDT
      rolled: { kind: 'rolled', rule: 'next', calendar: 'nsw', from: monday },
    });
    const prev = calendarFate(
      monday,
      applied({ exclude: [], businessDays: { calendar: 'nsw', roll: 'previous' } }, sydney),
      'Australia/Sydney',
    );
    expect(prev).toMatchObject({ kind: 'run', at: at('2026-10-01T16:30:00Z') }); // Friday 02:30 AEST (UTC+10)
  });

  it('Australia/Sydney: a roll onto the day of the gap runs right after the gap', () => {
    const sundaysOnly = { name: 'sundays', tz: 'Australia/Sydney', workingDays: ['sun' as const] };
    const saturday = at('2026-10-02T16:30:00Z'); // Saturday 3 October 02:30 AEST
    const f = calendarFate(
      saturday,
      applied({ exclude: [], businessDays: { calendar: 'sundays', roll: 'next' } }, sundaysOnly),
      'Australia/Sydney',
    );
    // Sunday 02:30 does not exist (02:00 -> 03:00): 03:00 AEDT is 16:00 UTC on the Saturday.
    expect(f).toMatchObject({ kind: 'run', at: at('2026-10-03T16:00:00Z') });
  });

  it('the preview annotates a rolled occurrence and keeps the nominal order', () => {
    const p = previewSpec('30 2 * * 1', {
      tz: 'Australia/Sydney',
      from: at('2026-09-30T00:00:00Z'),
      count: 2,
      calendars: applied({ exclude: [], businessDays: { calendar: 'nsw', roll: 'next' } }, sydney),
    });
    expect(p.occurrences).toEqual([
      {
        at: at('2026-10-05T15:30:00Z'),
        notes: [{ kind: 'rolled', rule: 'next', calendar: 'nsw', from: at('2026-10-04T15:30:00Z') }],
      },
      { at: at('2026-10-11T15:30:00Z'), notes: [] },
    ]);
  });

  it('Asia/Kolkata: roll skip drops weekends (notWorkingDay); a weekend-only schedule never fires', () => {
    const india = { name: 'in-work', tz: 'Asia/Kolkata', workingDays: [...MON_FRI] };
    const rules = applied({ exclude: [], businessDays: { calendar: 'in-work', roll: 'skip' } }, india);
    const p = previewSpec('0 9 * * *', {
      tz: 'Asia/Kolkata',
      from: at('2026-12-04T00:00:00Z'),
      count: 2,
      explain: true,
      calendars: rules,
    });
    expect(p.next.map(iso)).toEqual(['2026-12-04T03:30:00.000Z', '2026-12-07T03:30:00.000Z']);
    expect(p.dropped).toEqual([
      { at: at('2026-12-05T03:30:00Z'), reason: 'notWorkingDay', calendar: 'in-work' },
      { at: at('2026-12-06T03:30:00Z'), reason: 'notWorkingDay', calendar: 'in-work' },
    ]);
    const weekends = compileSpec('0 9 * * 6,0', { tz: 'Asia/Kolkata', now: at('2026-12-04T00:00:00Z') });
    expect(refusal(() => checkCalendarsFire(weekends, rules, at('2026-12-04T00:00:00Z')))).toEqual([
      'SPEC_NEVER_FIRES',
      { field: 'businessDays', calendar: 'in-work', candidates: 1000 },
    ]);
  });

  it('a roll that finds no working day within the limit is refused with its own code', () => {
    const closed = {
      name: 'closed',
      tz: 'Asia/Kolkata',
      dates: [
        { start: '2027-01-01', end: '2027-12-31' },
        { start: '2028-01-01', end: '2028-12-31' },
      ],
    };
    const rules = applied({ exclude: [], businessDays: { calendar: 'closed', roll: 'next' } }, closed);
    const now = at('2026-12-31T12:00:00Z');
    const spec = compileSpec('0 9 * * *', { tz: 'Asia/Kolkata', now });
    expect(refusal(() => checkCalendarsFire(spec, rules, now))[0]).toBe('CALENDAR_NO_WORKING_DAY');
  });

  it('an every-candidate exclusion of a one-off is SPEC_NEVER_FIRES naming the calendar', () => {
    const now = at('2026-12-01T00:00:00Z');
    const spec = compileSpec('@at 2026-12-25T10:00:00+01:00', { now });
    const rules = applied({ exclude: ['de-holidays'], businessDays: null }, berlin);
    expect(refusal(() => checkCalendarsFire(spec, rules, now))).toEqual([
      'SPEC_NEVER_FIRES',
      { field: 'exclude', calendar: 'de-holidays', candidates: 1000 },
    ]);
  });
});
