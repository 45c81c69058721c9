// A schedule's DST choice (`gap: shift | skip`, `repeat: first | both`) for cron and RRULE, in zones with
// one-hour and half-hour changes, with fixed instants; and the notes and dropped candidates that the one
// search (`nextDetailedAfter`) reports. Defaults: cron shift/first (Vixie), RRULE skip/first (RFC 5545).
import { describe, expect, it } from 'vitest';
import { PunctualError } from '../../src/errors.js';
import { compileSpec } from '../../src/domain/timing/compile-spec.js';
import type { DstChoice } from '../../src/domain/timing/dst-choice.js';
import type { PreviewNote } from '../../src/domain/timing/preview-note.js';

// 2026 transitions used here:
//   Europe/Berlin       03-29 02:00 CET -> 03:00 CEST (01:00Z)  10-25 03:00 CEST -> 02:00 CET (01:00Z)
//   America/New_York    03-08 02:00 EST -> 03:00 EDT (07:00Z)   11-01 02:00 EDT -> 01:00 EST (06:00Z)
//   Australia/Lord_Howe 10-04 02:00 -> 02:30 (15:30Z on 10-03)  04-05 02:00 -> 01:30 (15:00Z on 04-04)

const BER = 'Europe/Berlin';
const NY = 'America/New_York';
const LH = 'Australia/Lord_Howe';

function note(n: PreviewNote): string {
  if (n.kind === 'dstShifted') return ` shifted ${n.asked.slice(11, 16)}->${n.used.slice(11, 16)}`;
  if (n.kind === 'dstRepeat') return ` pass${n.pass}`;
  return ` ${n.kind}`;
}

/** The next `n` occurrences with their notes, and the dropped candidates between them (`- <at> <reason>`). */
function detailed(spec: string, tz: string, from: string, n: number, dst?: Partial<DstChoice>): string[] {
  const c = compileSpec(spec, { tz, now: Date.parse(from), dst });
  const out: string[] = [];
  let t = Date.parse(from);
  for (let i = 0; i < n; i++) {
    const o = c.nextDetailedAfter(t, (d) => out.push(`- ${new Date(d.at).toISOString()} ${d.reason}`));
    if (o === null) break;
    expect(c.nextAfter(t)).toBe(o.at);
    out.push(new Date(o.at).toISOString() + o.notes.map(note).join(''));
    t = o.at;
  }
  return out;
}

type Row = [
  label: string,
  spec: string,
  tz: string,
  from: string,
  dst: Partial<DstChoice>,
  expected: string[],
];

const gapRows: Row[] = [
  // Europe/Berlin 2026-03-29: 02:30 does not exist.
  [
    'cron Berlin default = shift',
    '30 2 * * *',
    BER,
    '2026-03-28T12:00:00Z',
    {},
    ['2026-03-29T01:00:00.000Z shifted 02:30->03:00', '2026-03-30T00:30:00.000Z'],
  ],
  [
    'cron Berlin skip',
    '30 2 * * *',
    BER,
    '2026-03-28T12:00:00Z',
    { gap: 'skip' },
    ['- 2026-03-29T01:00:00.000Z dstGap', '2026-03-30T00:30:00.000Z', '2026-03-31T00:30:00.000Z'],
  ],
  [
    'RRULE Berlin default = skip',
    'FREQ=DAILY;BYHOUR=2;BYMINUTE=30',
    BER,
    '2026-03-28T12:00:00Z',
    {},
    ['- 2026-03-29T01:00:00.000Z dstGap', '2026-03-30T00:30:00.000Z', '2026-03-31T00:30:00.000Z'],
  ],
  [
    'RRULE Berlin shift',
    'FREQ=DAILY;BYHOUR=2;BYMINUTE=30',
    BER,
    '2026-03-28T12:00:00Z',
    { gap: 'shift' },
    ['2026-03-29T01:00:00.000Z shifted 02:30->03:00', '2026-03-30T00:30:00.000Z'],
  ],
  // America/New_York 2026-03-08: 02:00-03:00 does not exist.
  [
    'cron New York shift',
    '30 2 * * *',
    NY,
    '2026-03-07T12:00:00Z',
    { gap: 'shift' },
    ['2026-03-08T07:00:00.000Z shifted 02:30->03:00', '2026-03-09T06:30:00.000Z'],
  ],
  [
    'cron New York skip',
    '30 2 * * *',
    NY,
    '2026-03-07T12:00:00Z',
    { gap: 'skip' },
    ['- 2026-03-08T07:00:00.000Z dstGap', '2026-03-09T06:30:00.000Z'],
  ],
  [
    'cron New York list: the first time in the gap is the one asked for',
    '0,30 2 * * *',
    NY,
    '2026-03-07T12:00:00Z',
    {},
    ['2026-03-08T07:00:00.000Z shifted 02:00->03:00', '2026-03-09T06:00:00.000Z'],
  ],
  [
    'RRULE New York shift',
    'FREQ=DAILY;BYHOUR=2;BYMINUTE=30',
    NY,
    '2026-03-07T12:00:00Z',
    { gap: 'shift' },
    ['2026-03-08T07:00:00.000Z shifted 02:30->03:00', '2026-03-09T06:30:00.000Z'],
  ],
  [
    'RRULE New York skip',
    'FREQ=DAILY;BYHOUR=2;BYMINUTE=30',
    NY,
    '2026-03-07T12:00:00Z',
    { gap: 'skip' },
    ['- 2026-03-08T07:00:00.000Z dstGap', '2026-03-09T06:30:00.000Z'],
  ],
  // Australia/Lord_Howe 2026-10-04: 02:00-02:30 does not exist (a 30-minute change).
  [
    'cron Lord Howe shift',
    '15 2 * * *',
    LH,
    '2026-10-03T00:00:00Z',
    { gap: 'shift' },
    ['2026-10-03T15:30:00.000Z shifted 02:15->02:30', '2026-10-04T15:15:00.000Z'],
  ],
  [
    'cron Lord Howe skip',
    '15 2 * * *',
    LH,
    '2026-10-03T00:00:00Z',
    { gap: 'skip' },
    ['- 2026-10-03T15:30:00.000Z dstGap', '2026-10-04T15:15:00.000Z'],
  ],
  [
    'RRULE Lord Howe shift',
    'FREQ=DAILY;BYHOUR=2;BYMINUTE=15',
    LH,
    '2026-10-03T00:00:00Z',
    { gap: 'shift' },
    ['2026-10-03T15:30:00.000Z shifted 02:15->02:30', '2026-10-04T15:15:00.000Z'],
  ],
  [
    'RRULE Lord Howe skip',
    'FREQ=DAILY;BYHOUR=2;BYMINUTE=15',
    LH,
    '2026-10-03T00:00:00Z',
    { gap: 'skip' },
    ['- 2026-10-03T15:30:00.000Z dstGap', '2026-10-04T15:15:00.000Z'],
  ],
  // An hourly RRULE shifted into the gap's end meets the real 03:00: one occurrence.
  [
    'RRULE hourly shift collapses into 03:00',
    'FREQ=HOURLY;BYMINUTE=0,30',
    BER,
    '2026-03-29T00:10:00Z',
    { gap: 'shift' },
    ['2026-03-29T00:30:00.000Z', '2026-03-29T01:00:00.000Z shifted 02:00->03:00', '2026-03-29T01:30:00.000Z'],
  ],
];

const repeatRows: Row[] = [
  // Europe/Berlin 2026-10-25: 02:00-03:00 happens twice (CEST, then CET).
  [
    'cron Berlin default = first',
    '30 2 * * *',
    BER,
    '2026-10-24T12:00:00Z',
    {},
    ['2026-10-25T00:30:00.000Z pass1', '- 2026-10-25T01:30:00.000Z dstRepeat', '2026-10-26T01:30:00.000Z'],
  ],
  [
    'cron Berlin both',
    '30 2 * * *',
    BER,
    '2026-10-24T12:00:00Z',
    { repeat: 'both' },
    ['2026-10-25T00:30:00.000Z pass1', '2026-10-25T01:30:00.000Z pass2', '2026-10-26T01:30:00.000Z'],
  ],
  [
    'RRULE Berlin default = first',
    'FREQ=DAILY;BYHOUR=2;BYMINUTE=30',
    BER,
    '2026-10-24T12:00:00Z',
    {},
    ['2026-10-25T00:30:00.000Z pass1', '- 2026-10-25T01:30:00.000Z dstRepeat', '2026-10-26T01:30:00.000Z'],
  ],
  [
    'RRULE Berlin both',
    'FREQ=DAILY;BYHOUR=2;BYMINUTE=30',
    BER,
    '2026-10-24T12:00:00Z',
    { repeat: 'both' },
    ['2026-10-25T00:30:00.000Z pass1', '2026-10-25T01:30:00.000Z pass2', '2026-10-26T01:30:00.000Z'],
  ],
  // America/New_York 2026-11-01: 01:00-02:00 happens twice; both passes interleave in instant order.
  [
    'cron New York first',
    '0,30 1 * * *',
    NY,
    '2026-10-31T12:00:00Z',
    { repeat: 'first' },
    [
      '2026-11-01T05:00:00.000Z pass1',
      '2026-11-01T05:30:00.000Z pass1',
      '- 2026-11-01T06:00:00.000Z dstRepeat',
      '- 2026-11-01T06:30:00.000Z dstRepeat',
      '2026-11-02T06:00:00.000Z',
    ],
  ],
  [
    'cron New York both',
    '0,30 1 * * *',
    NY,
    '2026-10-31T12:00:00Z',
    { repeat: 'both' },
    [
      '2026-11-01T05:00:00.000Z pass1',
      '2026-11-01T05:30:00.000Z pass1',
      '2026-11-01T06:00:00.000Z pass2',
      '2026-11-01T06:30:00.000Z pass2',
      '2026-11-02T06:00:00.000Z',
    ],
  ],
  [
    'RRULE New York first',
    'FREQ=DAILY;BYHOUR=1;BYMINUTE=0,30',
    NY,
    '2026-10-31T12:00:00Z',
    {},
    [
      '2026-11-01T05:00:00.000Z pass1',
      '2026-11-01T05:30:00.000Z pass1',
      '- 2026-11-01T06:00:00.000Z dstRepeat',
      '- 2026-11-01T06:30:00.000Z dstRepeat',
      '2026-11-02T06:00:00.000Z',
    ],
  ],
  [
    'RRULE New York both',
    'FREQ=DAILY;BYHOUR=1;BYMINUTE=0,30',
    NY,
    '2026-10-31T12:00:00Z',
    { repeat: 'both' },
    [
      '2026-11-01T05:00:00.000Z pass1',
      '2026-11-01T05:30:00.000Z pass1',
      '2026-11-01T06:00:00.000Z pass2',
      '2026-11-01T06:30:00.000Z pass2',
      '2026-11-02T06:00:00.000Z',
    ],
  ],
  // Each pass is an instance and counts toward COUNT.
  [
    'RRULE COUNT with both passes',
    'DTSTART;TZID=America/New_York:20261030T013000\nRRULE:FREQ=DAILY;COUNT=4',
    'UTC',
    '2026-10-29T12:00:00Z',
    { repeat: 'both' },
    [
      '2026-10-30T05:30:00.000Z',
      '2026-10-31T05:30:00.000Z',
      '2026-11-01T05:30:00.000Z pass1',
      '2026-11-01T06:30:00.000Z pass2',
    ],
  ],
  [
    'RRULE COUNT with the first pass',
    'DTSTART;TZID=America/New_York:20261030T013000\nRRULE:FREQ=DAILY;COUNT=4',
    'UTC',
    '2026-10-29T12:00:00Z',
    {},
    [
      '2026-10-30T05:30:00.000Z',
      '2026-10-31T05:30:00.000Z',
      '2026-11-01T05:30:00.000Z pass1',
      '- 2026-11-01T06:30:00.000Z dstRepeat',
      '2026-11-02T06:30:00.000Z',
    ],
  ],
  // Australia/Lord_Howe 2026-04-05: 01:30-02:00 happens twice (+11, then +10:30).
  [
    'cron Lord Howe first',
    '45 1 * * *',
    LH,
    '2026-04-04T00:00:00Z',
    {},
    ['2026-04-04T14:45:00.000Z pass1', '- 2026-04-04T15:15:00.000Z dstRepeat', '2026-04-05T15:15:00.000Z'],
  ],
  [
    'cron Lord Howe both',
    '45 1 * * *',
    LH,
    '2026-04-04T00:00:00Z',
    { repeat: 'both' },
    ['2026-04-04T14:45:00.000Z pass1', '2026-04-04T15:15:00.000Z pass2', '2026-04-05T15:15:00.000Z'],
  ],
  [
    'RRULE Lord Howe both',
    'FREQ=DAILY;BYHOUR=1;BYMINUTE=45',
    LH,
    '2026-04-04T00:00:00Z',
    { repeat: 'both' },
    ['2026-04-04T14:45:00.000Z pass1', '2026-04-04T15:15:00.000Z pass2', '2026-04-05T15:15:00.000Z'],
  ],
];

const wildcardRows: Row[] = [
  // Wildcard cron jobs run every real hour whatever the choice; their repeated times are annotated.
  [
    'wildcard repeat, first',
    '*/30 * * * *',
    BER,
    '2026-10-24T23:50:00Z',
    { repeat: 'first' },
    [
      '2026-10-25T00:00:00.000Z pass1',
      '2026-10-25T00:30:00.000Z pass1',
      '2026-10-25T01:00:00.000Z pass2',
      '2026-10-25T01:30:00.000Z pass2',
      '2026-10-25T02:00:00.000Z',
    ],
  ],
  [
    'wildcard gap, skip',
    '0 * * * *',
    NY,
    '2026-03-08T05:30:00Z',
    { gap: 'skip' },
    ['2026-03-08T06:00:00.000Z', '2026-03-08T07:00:00.000Z', '2026-03-08T08:00:00.000Z'],
  ],
];

describe('DST choice: a local time in a gap', () => {
  it.each(gapRows)('%s', (_l, spec, tz, from, dst, expected) => {
    expect(detailed(spec, tz, from, expected.filter((e) => !e.startsWith('-')).length, dst)).toEqual(
      expected,
    );
  });
});

describe('DST choice: a repeated local time', () => {
  it.each(repeatRows)('%s', (_l, spec, tz, from, dst, expected) => {
    expect(detailed(spec, tz, from, expected.filter((e) => !e.startsWith('-')).length, dst)).toEqual(
      expected,
    );
  });
});

describe('DST choice: wildcard cron jobs are unaffected', () => {
  it.each(wildcardRows)('%s', (_l, spec, tz, from, dst, expected) => {
    expect(detailed(spec, tz, from, expected.length, dst)).toEqual(expected);
  });
});

describe('DST choice: validation', () => {
  const code = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      return e instanceof PunctualError ? e.code : 'other';
    }
    return 'none';
  };
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('the effective choice takes the kind defaults for missing parts', () => {
    expect(compileSpec('0 9 * * *', { now }).dst).toEqual({ gap: 'shift', repeat: 'first' });
    expect(compileSpec('FREQ=DAILY', { now }).dst).toEqual({ gap: 'skip', repeat: 'first' });
    expect(compileSpec('0 9 * * *', { now, dst: { repeat: 'both' } }).dst).toEqual({
      gap: 'shift',
      repeat: 'both',
    });
    expect(compileSpec('@every 1h', { now }).dst).toBeNull();
  });

  it.each([
    ['@every 1h', { gap: 'skip' }],
    ['@at 2026-02-01T00:00:00Z', { repeat: 'both' }],
    ['@in 5m', { gap: 'shift' }],
    ['0 9 * * *', { gap: 'later' }],
    ['0 9 * * *', { repeat: 'twice' }],
    ['0 9 * * *', { gaps: 'skip' }],
    ['FREQ=DAILY', 'skip'],
  ])('%s with %j is DST_INVALID', (spec, dst) => {
    expect(code(() => compileSpec(spec, { now, dst: dst as never }))).toBe('DST_INVALID');
  });
});
