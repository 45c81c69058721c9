// RRULE specs: accepted forms, DTSTART defaulting and normalisation, zone from TZID, part validation,
// never-firing rules and bounded searches.
import { describe, expect, it } from 'vitest';
import { PunctualError } from '../../src/errors.js';
import { compileSpec } from '../../src/domain/timing/compile-spec.js';
import { compileRruleSpec } from '../../src/domain/timing/rrule-spec.js';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

function runs(spec: string, opts: { tz?: string; now: string; startAt?: string }, n: number): string[] {
  const c = compileSpec(spec, {
    tz: opts.tz,
    now: at(opts.now),
    startAt: opts.startAt === undefined ? null : at(opts.startAt),
  });
  const out: string[] = [];
  let t = at(opts.now) - 1;
  for (let i = 0; i < n; i++) {
    const next = c.nextAfter(t);
    if (next === null) break;
    out.push(new Date(next).toISOString());
    t = next;
  }
  return out;
}

function thrown(f: () => unknown): PunctualError {
  try {
    f();
  } catch (e) {
    if (e instanceof PunctualError) return e;
    throw e;
  }
  throw new Error('expected a PunctualError');
}

describe('RRULE forms', () => {
  it('RRULE alone starts at now (rounded down to the minute) in tz and stores the DTSTART', () => {
    const c = compileSpec('RRULE:FREQ=DAILY', { tz: 'Europe/Paris', now: at('2026-01-10T08:15:42.250Z') });
    expect(c.kind).toBe('rrule');
    expect(c.tz).toBe('Europe/Paris');
    expect(c.source).toBe('DTSTART;TZID=Europe/Paris:20260110T091500\nRRULE:FREQ=DAILY');
    expect(iso(c.nextAfter(at('2026-01-10T08:15:42.250Z')))).toBe('2026-01-11T08:15:00.000Z');
  });

  it('BYHOUR/BYMINUTE without BYSECOND fire on the whole minute', () => {
    expect(
      runs('FREQ=DAILY;BYHOUR=9;BYMINUTE=0', { tz: 'America/New_York', now: '2026-01-10T19:13:45Z' }, 2),
    ).toEqual(['2026-01-11T14:00:00.000Z', '2026-01-12T14:00:00.000Z']);
  });

  it('SECONDLY keeps the seconds of now; startAt is taken to the second', () => {
    const c = compileSpec('FREQ=SECONDLY;INTERVAL=30', { now: at('2026-01-10T08:15:42.250Z') });
    expect(c.source).toBe('DTSTART;TZID=UTC:20260110T081542\nRRULE:FREQ=SECONDLY;INTERVAL=30');
    const s = compileSpec('FREQ=DAILY', { now: 0, startAt: at('2026-01-10T08:15:42.000Z') });
    expect(s.source).toBe('DTSTART;TZID=UTC:20260110T081542\nRRULE:FREQ=DAILY');
    expect(iso(s.nextAfter(0))).toBe('2026-01-10T08:15:42.000Z');
  });

  it('bare FREQ= is accepted and normalised to upper case', () => {
    const c = compileSpec('freq=weekly;byday=mo,we', { now: at('2026-01-01T00:00:00Z') });
    expect(c.source).toBe('DTSTART;TZID=UTC:20260101T000000\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE');
    expect(iso(c.nextAfter(at('2026-01-01T00:00:00Z')))).toBe('2026-01-05T00:00:00.000Z');
  });

  it('takes the zone from DTSTART;TZID, whatever tz says', () => {
    const c = compileSpec('DTSTART;TZID=Europe/Berlin:20260101T090000\nRRULE:FREQ=DAILY', {
      tz: 'America/New_York',
      now: at('2026-01-01T00:00:00Z'),
    });
    expect(c.tz).toBe('Europe/Berlin');
    expect(iso(c.nextAfter(at('2026-01-01T00:00:00Z')))).toBe('2026-01-01T08:00:00.000Z');
  });

  it('DTSTART with Z is UTC; DTSTART without zone is local time in tz', () => {
    const z = compileSpec('DTSTART:20260101T090000Z RRULE:FREQ=DAILY', { tz: 'Asia/Tokyo', now: 0 });
    expect(z.tz).toBe('UTC');
    expect(z.source).toBe('DTSTART:20260101T090000Z\nRRULE:FREQ=DAILY');
    const floating = compileSpec('DTSTART:20260101T090000\nRRULE:FREQ=DAILY', { tz: 'Asia/Tokyo', now: 0 });
    expect(floating.source).toBe('DTSTART;TZID=Asia/Tokyo:20260101T090000\nRRULE:FREQ=DAILY');
    expect(iso(floating.nextAfter(0))).toBe('2026-01-01T00:00:00.000Z');
  });

  it('applies EXDATE', () => {
    const spec =
      'DTSTART;TZID=UTC:20260101T090000\nRRULE:FREQ=DAILY;COUNT=3\nEXDATE;TZID=UTC:20260102T090000';
    expect(runs(spec, { now: '2026-01-01T00:00:00Z' }, 5)).toEqual([
      '2026-01-01T09:00:00.000Z',
      '2026-01-03T09:00:00.000Z',
    ]);
  });

  it.each([
    [
      'DTSTART;TZID=America/New_York:20260101T093000\nRRULE:FREQ=MONTHLY;BYDAY=2FR',
      ['2026-01-09T14:30:00.000Z', '2026-02-13T14:30:00.000Z'],
    ],
    [
      'DTSTART;TZID=UTC:20260101T000000\nRRULE:FREQ=MONTHLY;BYMONTHDAY=31;COUNT=6',
      ['2026-01-31T00:00:00.000Z', '2026-03-31T00:00:00.000Z', '2026-05-31T00:00:00.000Z'],
    ],
    [
      'DTSTART;TZID=UTC:20260101T000000\nRRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
      ['2026-01-30T00:00:00.000Z', '2026-02-27T00:00:00.000Z'],
    ],
    [
      'DTSTART;TZID=UTC:20260101T120000\nRRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
      ['2028-02-29T12:00:00.000Z', '2032-02-29T12:00:00.000Z'],
    ],
    [
      'DTSTART;TZID=UTC:20260101T000000\nRRULE:FREQ=YEARLY;INTERVAL=20',
      ['2026-01-01T00:00:00.000Z', '2046-01-01T00:00:00.000Z'],
    ],
    [
      'DTSTART;TZID=UTC:20400101T000000\nRRULE:FREQ=DAILY',
      ['2040-01-01T00:00:00.000Z', '2040-01-02T00:00:00.000Z'],
    ],
  ])('%s', (spec, expected) => {
    expect(runs(spec, { now: '2026-01-01T00:00:00Z' }, expected.length)).toEqual(expected);
  });

  it('ends with COUNT and UNTIL (null, bounded)', () => {
    const c = compileSpec('DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY;UNTIL=20260103T000000Z', { now: 0 });
    expect(iso(c.nextAfter(at('2026-01-02T12:00:00Z')))).toBe('2026-01-03T00:00:00.000Z');
    expect(c.nextAfter(at('2026-01-03T00:00:00Z'))).toBeNull();
    const n = compileSpec('DTSTART:20260101T000000Z\nRRULE:FREQ=MINUTELY;COUNT=3', { now: 0 });
    expect(n.nextAfter(at('2026-01-01T00:02:00Z'))).toBeNull();
  });

  it('describes itself with the library text and the zone', () => {
    const c = compileSpec('DTSTART;TZID=Europe/Berlin:20260326T023000\nRRULE:FREQ=DAILY', { now: 0 });
    expect(c.description).toBe('Every day at 2:30 AM, Europe/Berlin');
  });
});

describe('RRULE never fires', () => {
  it.each([
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'],
    ['FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30'],
    ['FREQ=MONTHLY;BYDAY=6FR'],
    ['DTSTART:20200101T000000Z\nRRULE:FREQ=DAILY;COUNT=3'],
    ['DTSTART:20200101T000000Z\nRRULE:FREQ=DAILY;UNTIL=20210101T000000Z'],
    ['DTSTART:20200101T000000Z\nRRULE:FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=31;COUNT=5'],
  ])('%s', (spec) => {
    const e = thrown(() => compileSpec(spec, { now: at('2026-03-01T00:00:00Z') }));
    expect(e.code).toBe('SPEC_NEVER_FIRES');
  });

  it('a search finds nothing within its horizon and answers null, not a loop', () => {
    const r = compileRruleSpec('DTSTART:20260101T000000Z\nRRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', {
      tz: 'UTC',
      dtstart: 0,
    });
    expect(r.nextAfter(at('2026-01-01T00:00:00Z'))).toBeNull();
  });
});

describe('malformed RRULE names the part', () => {
  it.each([
    ['FREQ=DAILY;BYHOUR=25', 'BYHOUR', '25'],
    ['FREQ=DAILY;BYMINUTE=60', 'BYMINUTE', '60'],
    ['FREQ=MONTHLY;BYMONTHDAY=0', 'BYMONTHDAY', '0'],
    ['FREQ=MONTHLY;BYMONTHDAY=32', 'BYMONTHDAY', '32'],
    ['FREQ=YEARLY;BYMONTH=13', 'BYMONTH', '13'],
    ['FREQ=WEEKLY;BYDAY=XX', 'BYDAY', 'XX'],
    ['FREQ=YEARLY;BYDAY=54FR', 'BYDAY', '54FR'],
    ['FREQ=DAILYX', 'FREQ', 'DAILYX'],
    ['FREQ=DAILY;INTERVAL=0', 'INTERVAL', '0'],
    ['FREQ=DAILY;COUNT=0', 'COUNT', '0'],
    ['FREQ=DAILY;COUNT=10001', 'COUNT', '10001'],
    ['FREQ=DAILY;FOO=1', 'FOO', 'FOO=1'],
    ['FREQ=DAILY;FREQ=WEEKLY', 'FREQ', 'WEEKLY'],
    ['RRULE:INTERVAL=2', 'FREQ', 'INTERVAL=2'],
    ['FREQ=DAILY;COUNT=2;UNTIL=20270101T000000Z', 'COUNT', 'FREQ=DAILY;COUNT=2;UNTIL=20270101T000000Z'],
    ['DTSTART:2026-01-01 RRULE:FREQ=DAILY', 'DTSTART', 'DTSTART:2026-01-01'],
    ['DTSTART:20260231T000000Z RRULE:FREQ=DAILY', 'DTSTART', 'DTSTART:20260231T000000Z'],
    ['DTSTART;TZID=UTC:20260101T000000Z RRULE:FREQ=DAILY', 'DTSTART', 'DTSTART;TZID=UTC:20260101T000000Z'],
    [
      'DTSTART;TZID=Europe/Berlin:20260329T023000 RRULE:FREQ=DAILY',
      'DTSTART',
      'DTSTART;TZID=Europe/Berlin:20260329T023000',
    ],
    ['DTSTART:20260101T000000Z', 'RRULE', 'DTSTART:20260101T000000Z'],
    ['FREQ=DAILY FREQ=WEEKLY', 'RRULE', 'FREQ=WEEKLY'],
    ['FREQ=DAILY HELLO', 'line', 'HELLO'],
  ])('%s -> %s', (spec, part, value) => {
    const e = thrown(() => compileSpec(spec, { now: at('2026-01-01T00:00:00Z') }));
    expect(e.code).toBe('SPEC_INVALID');
    expect(e.details).toEqual({ field: 'spec', part, value });
  });

  it('an unknown TZID is TIME_ZONE_UNKNOWN', () => {
    const e = thrown(() =>
      compileSpec('DTSTART;TZID=Mars/Base:20260101T000000\nRRULE:FREQ=DAILY', { now: 0 }),
    );
    expect(e.code).toBe('TIME_ZONE_UNKNOWN');
    expect(e.details).toEqual({ field: 'spec', part: 'TZID', value: 'Mars/Base' });
  });
});
