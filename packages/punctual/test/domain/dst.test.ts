// DST behaviour across zones. Cron follows Vixie: a fixed-time job in a spring-forward gap fires once right
// after the gap, in a repeated hour once (first pass); wildcard jobs fire every real hour (both passes,
// none in the missing hour). RRULE follows RFC 5545: a local time inside a gap does not exist and is skipped.
import { describe, expect, it } from 'vitest';
import { compileSpec } from '../../src/domain/timing/compile-spec.js';

// 2026 transitions used here:
//   America/New_York    03-08 02:00 EST -> 03:00 EDT (07:00Z)   11-01 02:00 EDT -> 01:00 EST (06:00Z)
//   Europe/Berlin       03-29 02:00 CET -> 03:00 CEST (01:00Z)  10-25 03:00 CEST -> 02:00 CET (01:00Z)
//   Australia/Lord_Howe 10-04 02:00 -> 02:30 (+10:30 -> +11, 15:30Z on 10-03)
//                       04-05 02:00 -> 01:30 (+11 -> +10:30, 15:00Z on 04-04; 01:30-02:00 repeats)
//   America/Santiago    09-06 00:00 -04 -> 01:00 -03 (04:00Z): midnight does not exist

const at = (iso: string): number => Date.parse(iso);

function runs(spec: string, tz: string, from: string, n: number): string[] {
  const c = compileSpec(spec, { tz, now: at(from) });
  const out: string[] = [];
  let t = at(from);
  for (let i = 0; i < n; i++) {
    const next = c.nextAfter(t);
    if (next === null) break;
    out.push(new Date(next).toISOString());
    t = next;
  }
  return out;
}

type Row = [label: string, spec: string, tz: string, from: string, expected: string[]];

const NY = 'America/New_York';
const BER = 'Europe/Berlin';
const LH = 'Australia/Lord_Howe';

const cronRows: Row[] = [
  // America/New_York, spring forward
  [
    'NY fixed in gap fires at 03:00 EDT',
    '30 2 * * *',
    NY,
    '2026-03-07T12:00:00Z',
    ['2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z'],
  ],
  ['NY fixed the day before the gap', '30 2 * * *', NY, '2026-03-06T12:00:00Z', ['2026-03-07T07:30:00.000Z']],
  [
    'NY stepped range is fixed: once after gap',
    '0-59/15 2 * * *',
    NY,
    '2026-03-08T05:00:00Z',
    ['2026-03-08T07:00:00.000Z', '2026-03-09T06:00:00.000Z', '2026-03-09T06:15:00.000Z'],
  ],
  [
    'NY hour range is fixed: 02:00 runs at 03:00',
    '0 1-2 * * *',
    NY,
    '2026-03-08T05:00:00Z',
    ['2026-03-08T06:00:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-09T05:00:00.000Z'],
  ],
  [
    'NY stepped hours are fixed',
    '0 0-23/2 * * *',
    NY,
    '2026-03-08T04:30:00Z',
    ['2026-03-08T05:00:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-08T08:00:00.000Z'],
  ],
  [
    'NY seconds do not make it wildcard',
    '*/10 30 2 * * *',
    NY,
    '2026-03-08T05:00:00Z',
    ['2026-03-08T07:00:00.000Z', '2026-03-09T06:30:00.000Z', '2026-03-09T06:30:10.000Z'],
  ],
  [
    'NY wildcard minute skips the missing hour',
    '*/15 2 * * *',
    NY,
    '2026-03-08T05:00:00Z',
    ['2026-03-09T06:00:00.000Z', '2026-03-09T06:15:00.000Z'],
  ],
  [
    'NY hourly across the gap',
    '0 * * * *',
    NY,
    '2026-03-08T05:30:00Z',
    ['2026-03-08T06:00:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-08T08:00:00.000Z'],
  ],
  // America/New_York, fall back
  [
    'NY fixed in repeated hour: first pass only',
    '30 1 * * *',
    NY,
    '2026-10-31T12:00:00Z',
    ['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z'],
  ],
  [
    'NY list is fixed: first pass only',
    '1,31 1 * * *',
    NY,
    '2026-11-01T04:00:00Z',
    ['2026-11-01T05:01:00.000Z', '2026-11-01T05:31:00.000Z', '2026-11-02T06:01:00.000Z'],
  ],
  [
    'NY hour range is fixed: 01:00 once',
    '0 1-2 * * *',
    NY,
    '2026-11-01T04:00:00Z',
    ['2026-11-01T05:00:00.000Z', '2026-11-01T07:00:00.000Z', '2026-11-02T06:00:00.000Z'],
  ],
  [
    'NY hourly runs both 01:00',
    '0 * * * *',
    NY,
    '2026-11-01T03:30:00Z',
    [
      '2026-11-01T04:00:00.000Z',
      '2026-11-01T05:00:00.000Z',
      '2026-11-01T06:00:00.000Z',
      '2026-11-01T07:00:00.000Z',
    ],
  ],
  [
    'NY wildcard minute runs both passes',
    '*/30 1 * * *',
    NY,
    '2026-11-01T04:00:00Z',
    [
      '2026-11-01T05:00:00.000Z',
      '2026-11-01T05:30:00.000Z',
      '2026-11-01T06:00:00.000Z',
      '2026-11-01T06:30:00.000Z',
      '2026-11-02T06:00:00.000Z',
    ],
  ],
  // Europe/Berlin
  [
    'Berlin fixed in gap fires at 03:00 CEST',
    '30 2 * * *',
    BER,
    '2026-03-28T12:00:00Z',
    ['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z'],
  ],
  [
    'Berlin hourly across the gap',
    '0 * * * *',
    BER,
    '2026-03-29T00:30:00Z',
    ['2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z'],
  ],
  [
    'Berlin fixed in repeated hour: first pass',
    '30 2 * * *',
    BER,
    '2026-10-24T12:00:00Z',
    ['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z'],
  ],
  [
    'Berlin wildcard runs both passes',
    '*/30 * * * *',
    BER,
    '2026-10-24T23:50:00Z',
    [
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-25T01:00:00.000Z',
      '2026-10-25T01:30:00.000Z',
      '2026-10-25T02:00:00.000Z',
    ],
  ],
  // Australia/Lord_Howe (30-minute shift)
  [
    'Lord Howe fixed in gap fires at 02:30',
    '15 2 * * *',
    LH,
    '2026-10-03T00:00:00Z',
    ['2026-10-03T15:30:00.000Z', '2026-10-04T15:15:00.000Z'],
  ],
  [
    'Lord Howe wildcard skips only the missing half hour',
    '*/15 2 * * *',
    LH,
    '2026-10-03T15:00:00Z',
    ['2026-10-03T15:30:00.000Z', '2026-10-03T15:45:00.000Z', '2026-10-04T15:00:00.000Z'],
  ],
  [
    'Lord Howe fixed in repeated half hour: once',
    '45 1 * * *',
    LH,
    '2026-04-04T00:00:00Z',
    ['2026-04-04T14:45:00.000Z', '2026-04-05T15:15:00.000Z'],
  ],
  [
    'Lord Howe wildcard runs both passes',
    '*/15 1 * * *',
    LH,
    '2026-04-04T14:00:00Z',
    [
      '2026-04-04T14:15:00.000Z',
      '2026-04-04T14:30:00.000Z',
      '2026-04-04T14:45:00.000Z',
      '2026-04-04T15:00:00.000Z',
      '2026-04-04T15:15:00.000Z',
      '2026-04-05T14:30:00.000Z',
    ],
  ],
  [
    'Lord Howe midnight stays midnight',
    '0 0 * * *',
    LH,
    '2026-10-03T00:00:00Z',
    ['2026-10-03T13:30:00.000Z', '2026-10-04T13:00:00.000Z'],
  ],
  // America/Santiago: midnight does not exist on 09-06
  [
    'Santiago midnight runs at 01:00 -03',
    '0 0 * * *',
    'America/Santiago',
    '2026-09-05T00:00:00Z',
    ['2026-09-05T04:00:00.000Z', '2026-09-06T04:00:00.000Z', '2026-09-07T03:00:00.000Z'],
  ],
  [
    'Santiago hourly across the gap',
    '0 * * * *',
    'America/Santiago',
    '2026-09-06T03:30:00Z',
    ['2026-09-06T04:00:00.000Z', '2026-09-06T05:00:00.000Z'],
  ],
];

describe('cron across DST (Vixie)', () => {
  it.each(cronRows)('%s: %s', (_label, spec, tz, from, expected) => {
    expect(runs(spec, tz, from, expected.length)).toEqual(expected);
  });
});

const rruleRows: Row[] = [
  [
    'Berlin 02:30 daily skips the gap day',
    'DTSTART;TZID=Europe/Berlin:20260326T023000\nRRULE:FREQ=DAILY',
    'UTC',
    '2026-03-26T00:00:00Z',
    [
      '2026-03-26T01:30:00.000Z',
      '2026-03-27T01:30:00.000Z',
      '2026-03-28T01:30:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ],
  ],
  [
    'Berlin BYHOUR=2 skips the gap day',
    'DTSTART;TZID=Europe/Berlin:20260326T000000\nRRULE:FREQ=DAILY;BYHOUR=2;BYMINUTE=30',
    'UTC',
    '2026-03-28T00:00:00Z',
    ['2026-03-28T01:30:00.000Z', '2026-03-30T00:30:00.000Z'],
  ],
  [
    'NY skipped day does not consume COUNT',
    'DTSTART;TZID=America/New_York:20260306T023000 RRULE:FREQ=DAILY;COUNT=4',
    'UTC',
    '2026-03-06T00:00:00Z',
    [
      '2026-03-06T07:30:00.000Z',
      '2026-03-07T07:30:00.000Z',
      '2026-03-09T06:30:00.000Z',
      '2026-03-10T06:30:00.000Z',
    ],
  ],
  [
    'Lord Howe 02:15 skipped in the half-hour gap',
    'DTSTART;TZID=Australia/Lord_Howe:20261002T021500\nRRULE:FREQ=DAILY',
    'UTC',
    '2026-10-01T00:00:00Z',
    ['2026-10-01T15:45:00.000Z', '2026-10-02T15:45:00.000Z', '2026-10-04T15:15:00.000Z'],
  ],
  [
    'NY repeated 01:30 fires once (first pass)',
    'DTSTART;TZID=America/New_York:20261031T013000\nRRULE:FREQ=DAILY;COUNT=3',
    'UTC',
    '2026-10-31T00:00:00Z',
    ['2026-10-31T05:30:00.000Z', '2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z'],
  ],
  // Library behaviour pinned on purpose: HOURLY visits the repeated 01:00 once (01:00 EST is not produced).
  [
    'NY HOURLY across fall back (pinned)',
    'DTSTART;TZID=America/New_York:20261101T000000\nRRULE:FREQ=HOURLY;COUNT=4',
    'UTC',
    '2026-11-01T00:00:00Z',
    [
      '2026-11-01T04:00:00.000Z',
      '2026-11-01T05:00:00.000Z',
      '2026-11-01T07:00:00.000Z',
      '2026-11-01T08:00:00.000Z',
    ],
  ],
  [
    'Santiago midnight RRULE skips 09-06',
    'DTSTART;TZID=America/Santiago:20260905T000000\nRRULE:FREQ=DAILY',
    'UTC',
    '2026-09-05T00:00:00Z',
    ['2026-09-05T04:00:00.000Z', '2026-09-07T03:00:00.000Z'],
  ],
];

describe('RRULE across DST (RFC 5545: a local time in a gap is skipped)', () => {
  it.each(rruleRows)('%s', (_label, spec, tz, from, expected) => {
    expect(runs(spec, tz, from, expected.length)).toEqual(expected);
  });
});

describe('one-off local times', () => {
  it.each([
    [
      'in a gap: read with the offset before the gap (02:30 EST = 03:30 EDT)',
      '@at 2026-03-08T02:30',
      NY,
      '2026-03-08T07:30:00.000Z',
    ],
    ['in a repeated hour: the first pass', '@at 2026-11-01T01:30', NY, '2026-11-01T05:30:00.000Z'],
    ['Lord Howe gap', '@at 2026-10-04T02:15', LH, '2026-10-03T15:45:00.000Z'],
    ['Lord Howe repeated half hour', '@at 2026-04-05T01:45', LH, '2026-04-04T14:45:00.000Z'],
  ])('%s', (_label, spec, tz, expected) => {
    const c = compileSpec(spec, { tz, now: at('2026-01-01T00:00:00Z') });
    expect(c.source).toBe(`@at ${expected}`);
  });
});
