// RRULE sub-daily frequencies step in local wall-clock time of DTSTART's zone (issue 21 A's table, row by
// row), and a rule with nothing within the search horizon says so, naming the horizon (19.14 / 18.20).
import { describe, expect, it } from 'vitest';
import { PunctualError } from '../../src/errors.js';
import { compileSpec } from '../../src/domain/timing/compile-spec.js';
import { previewSpec } from '../../src/domain/timing/preview-spec.js';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString();
const preview = (spec: string, tz: string, from: string, count = 8): string[] =>
  previewSpec(spec, { tz, from: at(from), count }).next.map(iso);

function thrown(f: () => unknown): PunctualError {
  try {
    f();
  } catch (e) {
    if (e instanceof PunctualError) return e;
    throw e;
  }
  throw new Error('expected a PunctualError');
}

describe('sub-daily RRULE in local time (RFC 5545, as python-dateutil and libical)', () => {
  it('New York HOURLY;INTERVAL=5 keeps its local hours across fall back', () => {
    const spec =
      'DTSTART;TZID=America/New_York:20261031T150000\nRRULE:FREQ=HOURLY;INTERVAL=5;BYMINUTE=0;COUNT=6';
    expect(preview(spec, 'UTC', '2026-10-31T00:00:00Z')).toEqual([
      '2026-10-31T19:00:00.000Z', // 15:00 EDT
      '2026-11-01T00:00:00.000Z', // 20:00 EDT
      '2026-11-01T05:00:00.000Z', // 01:00 EDT (first pass)
      '2026-11-01T11:00:00.000Z', // 06:00 EST
      '2026-11-01T16:00:00.000Z', // 11:00 EST
      '2026-11-01T21:00:00.000Z', // 16:00 EST
    ]);
  });

  it('Paris HOURLY;INTERVAL=2 with BYHOUR keeps firing at 22:xx every evening', () => {
    const spec =
      'DTSTART;TZID=Europe/Paris:20261024T223900\nRRULE:FREQ=HOURLY;INTERVAL=2;BYHOUR=1,2,22;BYMINUTE=39,59';
    expect(preview(spec, 'UTC', '2026-10-24T19:00:00Z')).toEqual([
      '2026-10-24T20:39:00.000Z',
      '2026-10-24T20:59:00.000Z',
      '2026-10-25T00:39:00.000Z', // 02:39 CEST: the even local hours stay even
      '2026-10-25T00:59:00.000Z',
      '2026-10-25T21:39:00.000Z', // 22:39 CET
      '2026-10-25T21:59:00.000Z',
      '2026-10-26T01:39:00.000Z',
      '2026-10-26T01:59:00.000Z',
    ]);
  });

  it('Chatham (:45 offset) HOURLY;INTERVAL=3 fires daily after its change, not six months later', () => {
    const spec =
      'DTSTART;TZID=Pacific/Chatham:20270404T032200\nRRULE:FREQ=HOURLY;INTERVAL=3;BYHOUR=1,3;BYMINUTE=22,30';
    expect(preview(spec, 'UTC', '2027-04-03T08:00:00Z', 6)).toEqual([
      '2027-04-03T13:37:00.000Z', // DTSTART, 03:22 +13:45 (first pass of the repeated hour)
      '2027-04-03T13:45:00.000Z',
      '2027-04-04T14:37:00.000Z', // 03:22 +12:45, daily from here
      '2027-04-04T14:45:00.000Z',
      '2027-04-05T14:37:00.000Z',
      '2027-04-05T14:45:00.000Z',
    ]);
  });

  it('Cairo HOURLY;INTERVAL=2 whose even local hours never meet BYHOUR=23 never fires', () => {
    const spec =
      'DTSTART;TZID=Africa/Cairo:20261029T180000\nRRULE:FREQ=HOURLY;INTERVAL=2;BYHOUR=23;BYMINUTE=30';
    const e = thrown(() => previewSpec(spec, { from: at('2026-10-29T00:00:00Z'), count: 8 }));
    expect(e.code).toBe('SPEC_NEVER_FIRES');
  });

  it('Lord Howe (30-minute change) HOURLY;INTERVAL=2 finds 02:00 after fall back', () => {
    const spec = 'FREQ=HOURLY;INTERVAL=2;BYHOUR=2;BYMINUTE=0,21;UNTIL=20260404T153000Z';
    expect(preview(spec, 'Australia/Lord_Howe', '2026-04-04T09:00:00Z')).toEqual([
      '2026-04-04T15:30:00.000Z',
    ]);
  });

  it('New York MINUTELY;INTERVAL=40 visits the repeated hour once', () => {
    const spec = 'DTSTART;TZID=America/New_York:20261101T000000\nRRULE:FREQ=MINUTELY;INTERVAL=40;COUNT=6';
    expect(preview(spec, 'UTC', '2026-11-01T00:00:00Z')).toEqual([
      '2026-11-01T04:00:00.000Z',
      '2026-11-01T04:40:00.000Z',
      '2026-11-01T05:20:00.000Z',
      '2026-11-01T07:00:00.000Z',
      '2026-11-01T07:40:00.000Z',
      '2026-11-01T08:20:00.000Z',
    ]);
  });

  it('Lord Howe MINUTELY;INTERVAL=45 skips the half-hour gap without using up COUNT', () => {
    const spec = 'DTSTART;TZID=Australia/Lord_Howe:20261004T010000\nRRULE:FREQ=MINUTELY;INTERVAL=45;COUNT=6';
    expect(preview(spec, 'UTC', '2026-10-01T00:00:00Z')).toEqual([
      '2026-10-03T14:30:00.000Z', // 01:00 +10:30
      '2026-10-03T15:15:00.000Z', // 01:45
      '2026-10-03T15:30:00.000Z', // 02:30 +11 (02:00-02:30 does not exist)
      '2026-10-03T16:15:00.000Z',
      '2026-10-03T17:00:00.000Z',
      '2026-10-03T17:45:00.000Z',
    ]);
  });

  it('SECONDLY steps in local time too: a second in the gap is skipped and not counted', () => {
    const spec = 'DTSTART;TZID=America/New_York:20260308T015958\nRRULE:FREQ=SECONDLY;COUNT=4';
    expect(preview(spec, 'UTC', '2026-03-08T00:00:00Z')).toEqual([
      '2026-03-08T06:59:58.000Z',
      '2026-03-08T06:59:59.000Z',
      '2026-03-08T07:00:00.000Z', // 03:00:00 EDT: 02:00:00-02:59:59 do not exist
      '2026-03-08T07:00:01.000Z',
    ]);
  });

  it('an hour in the gap is skipped and does not use up COUNT', () => {
    const spec = 'DTSTART;TZID=America/New_York:20260307T220000\nRRULE:FREQ=HOURLY;INTERVAL=2;COUNT=4';
    expect(preview(spec, 'UTC', '2026-03-07T00:00:00Z')).toEqual([
      '2026-03-08T03:00:00.000Z', // 22:00 EST
      '2026-03-08T05:00:00.000Z', // 00:00 EST; 02:00 does not exist
      '2026-03-08T08:00:00.000Z', // 04:00 EDT
      '2026-03-08T10:00:00.000Z', // 06:00 EDT
    ]);
  });
});

describe('docs/time.md: RRULE (local) or @every (elapsed)', () => {
  it('an RRULE keeps 08:00, 12:00 and 16:00 Paris time across spring forward', () => {
    const spec = 'DTSTART;TZID=Europe/Paris:20260327T080000\nRRULE:FREQ=HOURLY;INTERVAL=4;BYHOUR=8,12,16';
    expect(preview(spec, 'UTC', '2026-03-28T00:00:00Z', 6)).toEqual([
      '2026-03-28T07:00:00.000Z',
      '2026-03-28T11:00:00.000Z',
      '2026-03-28T15:00:00.000Z',
      '2026-03-29T06:00:00.000Z',
      '2026-03-29T10:00:00.000Z',
      '2026-03-29T14:00:00.000Z',
    ]);
  });

  it('@every 4h stays 4 hours apart, its local times shifted', () => {
    expect(preview('@every 4h', 'Europe/Paris', '2026-03-28T19:00:00Z', 2)).toEqual([
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T03:00:00.000Z',
    ]);
  });
});

describe('queries around a repeated hour, EXDATE', () => {
  const spec = 'DTSTART;TZID=America/New_York:20261101T000000\nRRULE:FREQ=HOURLY;COUNT=5';

  it('asked from inside the second pass of 01:xx, the next is 02:00 EST', () => {
    const c = compileSpec(spec, { now: 0, validate: false });
    expect(iso(c.nextAfter(at('2026-11-01T06:30:00Z')) as number)).toBe('2026-11-01T07:00:00.000Z');
    expect(iso(c.nextAfter(at('2026-11-01T05:00:00Z')) as number)).toBe('2026-11-01T07:00:00.000Z');
  });

  it('EXDATE removes a local time after COUNT has counted it (RFC 5545)', () => {
    const c = compileSpec(`${spec}\nEXDATE;TZID=America/New_York:20261101T010000`, {
      now: 0,
      validate: false,
    });
    const out: string[] = [];
    for (let t = c.nextAfter(0); t !== null; t = c.nextAfter(t)) out.push(iso(t));
    expect(out).toEqual([
      '2026-11-01T04:00:00.000Z',
      '2026-11-01T07:00:00.000Z',
      '2026-11-01T08:00:00.000Z',
      '2026-11-01T09:00:00.000Z',
    ]);
  });
});

describe('RRULE search horizon', () => {
  it('a YEARLY rule whose next occurrence is 18 years away is accepted (400-year horizon)', () => {
    const c = compileSpec('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO', {
      now: at('2026-01-01T00:00:00Z'),
    });
    expect(iso(c.nextAfter(at('2026-01-01T00:00:00Z')) as number)).toBe('2044-02-29T00:00:00.000Z');
  });

  it('a rule with nothing within the horizon names the horizon, not "from now on"', () => {
    const yearly = thrown(() => compileSpec('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', { now: 0 }));
    expect(yearly.code).toBe('SPEC_NEVER_FIRES');
    expect(yearly.message).toMatch(/has no occurrence within the next 400 years/);
    const daily = thrown(() =>
      compileSpec('FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO', { now: at('2026-01-01T00:00:00Z') }),
    );
    expect(daily.code).toBe('SPEC_NEVER_FIRES');
    expect(daily.message).toMatch(/has no occurrence within the next 10 years/);
  });

  it('a series used up by COUNT or UNTIL has none "from now on" (exact)', () => {
    const e = thrown(() =>
      compileSpec('DTSTART:20200101T000000Z\nRRULE:FREQ=DAILY;COUNT=3', { now: at('2026-01-01T00:00:00Z') }),
    );
    expect(e.code).toBe('SPEC_NEVER_FIRES');
    expect(e.message).toMatch(/has no occurrence from now on$/);
  });
});
