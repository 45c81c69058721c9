// RRULE EXDATE and RDATE (RFC 5545): TZID, UTC `Z`, floating and VALUE=DATE forms; EXDATE removes rule
// instances and RDATE instances alike, RDATE adds instances (outside COUNT), duplicates collapse, and the
// schedule's DST choice applies to a local RDATE. Expected instants were checked by hand (and, where the
// form allows, against a reference RRULE implementation while writing the test).
import { describe, expect, it } from 'vitest';
import { PunctualError } from '../../src/errors.js';
import { compileSpec } from '../../src/domain/timing/compile-spec.js';
import type { DstChoice } from '../../src/domain/timing/dst-choice.js';

function list(spec: string, from: string, n: number, opts: { tz?: string; dst?: Partial<DstChoice> } = {}) {
  const c = compileSpec(spec, { now: Date.parse(from), ...opts });
  const out: string[] = [];
  let t = Date.parse(from);
  for (let i = 0; i < n; i++) {
    const o = c.nextDetailedAfter(t, (d) => out.push(`- ${new Date(d.at).toISOString()} ${d.reason}`));
    if (o === null) break;
    out.push(
      new Date(o.at).toISOString() + (o.notes.length > 0 ? ` ${o.notes.map((x) => x.kind).join(',')}` : ''),
    );
    t = o.at;
  }
  return { source: c.source, out };
}

describe('EXDATE and RDATE', () => {
  it('UTC forms: EXDATE removes a rule instance and an RDATE; RDATE adds outside COUNT; duplicates collapse', () => {
    const spec = [
      'DTSTART:20260105T100000Z',
      'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=4',
      'EXDATE:20260112T100000Z',
      'RDATE:20260114T150000Z,20260119T100000Z,20260120T100000Z',
      'EXDATE:20260120T100000Z',
    ].join('\n');
    expect(list(spec, '2026-01-01T00:00:00Z', 10).out).toEqual([
      '2026-01-05T10:00:00.000Z',
      '- 2026-01-12T10:00:00.000Z exdate',
      '2026-01-14T15:00:00.000Z',
      '2026-01-19T10:00:00.000Z',
      '- 2026-01-20T10:00:00.000Z exdate',
      '2026-01-26T10:00:00.000Z',
    ]);
  });

  it('TZID and VALUE=DATE forms, read in the zone (Berlin is UTC+1 in January)', () => {
    const spec = [
      'DTSTART;TZID=Europe/Berlin:20260101T090000',
      'RRULE:FREQ=DAILY;COUNT=5',
      'EXDATE;TZID=Europe/Berlin:20260102T090000',
      'RDATE;TZID=Europe/Berlin:20260102T120000,20260103T090000',
      'EXDATE;VALUE=DATE:20260104',
      'RDATE;VALUE=DATE:20260111',
      'RDATE;TZID=America/New_York:20260112T090000',
    ].join('\n');
    const { source, out } = list(spec, '2025-12-31T00:00:00Z', 10);
    expect(out).toEqual([
      '2026-01-01T08:00:00.000Z',
      '- 2026-01-02T08:00:00.000Z exdate',
      '2026-01-02T11:00:00.000Z', // RDATE 12:00 Berlin
      '2026-01-03T08:00:00.000Z', // the RDATE equal to the rule's instance: one occurrence
      '- 2026-01-04T08:00:00.000Z exdate', // VALUE=DATE removes the whole local day
      '2026-01-05T08:00:00.000Z',
      '2026-01-11T08:00:00.000Z', // VALUE=DATE RDATE: at DTSTART's time of day
      '2026-01-12T14:00:00.000Z', // 09:00 in New York (UTC-5)
    ]);
    expect(source.split('\n')).toEqual(spec.split('\n'));
  });

  it('a floating RDATE or EXDATE is read in the schedule zone', () => {
    const spec =
      'RRULE:FREQ=DAILY;BYHOUR=9;BYMINUTE=0;COUNT=2\nRDATE:20260301T070000\nEXDATE:20260302T090000';
    expect(list(spec, '2026-03-01T00:00:00Z', 5, { tz: 'America/New_York' }).out).toEqual([
      '2026-03-01T12:00:00.000Z', // RDATE 07:00 EST
      '2026-03-01T14:00:00.000Z', // the rule, 09:00 EST
      '- 2026-03-02T14:00:00.000Z exdate',
    ]);
  });

  it('a local RDATE in a DST gap follows the DST choice', () => {
    const spec =
      'DTSTART;TZID=Europe/Berlin:20260320T090000\nRRULE:FREQ=DAILY;COUNT=1\nRDATE;TZID=Europe/Berlin:20260329T023000';
    expect(list(spec, '2026-03-20T00:00:00Z', 3).out).toEqual([
      '2026-03-20T08:00:00.000Z',
      '- 2026-03-29T01:00:00.000Z dstGap',
    ]);
    expect(list(spec, '2026-03-20T00:00:00Z', 3, { dst: { gap: 'shift' } }).out).toEqual([
      '2026-03-20T08:00:00.000Z',
      '2026-03-29T01:00:00.000Z dstShifted',
    ]);
  });

  it('a local EXDATE removes every instance of that local time (both passes of a repeated one)', () => {
    const spec =
      'DTSTART;TZID=America/New_York:20261031T013000\nRRULE:FREQ=DAILY;COUNT=3\nEXDATE;TZID=America/New_York:20261101T013000';
    expect(list(spec, '2026-10-31T00:00:00Z', 5, { dst: { repeat: 'both' } }).out).toEqual([
      '2026-10-31T05:30:00.000Z',
      '- 2026-11-01T05:30:00.000Z exdate',
      '- 2026-11-01T06:30:00.000Z exdate',
    ]);
    // A UTC EXDATE removes one instant only: here the second pass.
    const utc = spec.replace('EXDATE;TZID=America/New_York:20261101T013000', 'EXDATE:20261101T063000Z');
    expect(list(utc, '2026-10-31T00:00:00Z', 5, { dst: { repeat: 'both' } }).out).toEqual([
      '2026-10-31T05:30:00.000Z',
      '2026-11-01T05:30:00.000Z dstRepeat',
      '- 2026-11-01T06:30:00.000Z exdate',
    ]);
  });

  it('RDATE extends a series whose rule has ended; a spec whose every instance is excluded never fires', () => {
    const spec = 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY;COUNT=1\nRDATE:20270101T000000Z';
    expect(list(spec, '2026-06-01T00:00:00Z', 3).out).toEqual(['2027-01-01T00:00:00.000Z']);
    const gone = () =>
      compileSpec('DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY;COUNT=1\nEXDATE:20260101T000000Z', {
        now: Date.parse('2025-12-01T00:00:00Z'),
      });
    expect(gone).toThrow(expect.objectContaining({ code: 'SPEC_NEVER_FIRES' }));
  });

  it.each([
    ['RDATE;VALUE=PERIOD:20260101T000000Z/PT1H', 'PERIOD'],
    ['RDATE;TZID=Europe/Berlin:20260101T000000Z', 'both TZID and a Z'],
    ['EXDATE:20260231T000000Z', 'not a valid date'],
    ['EXDATE;FOO=1:20260101T000000Z', 'unknown parameter'],
    ['EXDATE;TZID=Europe/Berlin;VALUE=DATE:20260101', 'VALUE=DATE takes no TZID'],
    ['RDATE;VALUE=DATE:20260101T000000', 'is not a date'],
    ['RDATE:', 'expected RDATE'],
  ])('%s is refused (SPEC_INVALID: %s)', (line, why) => {
    let err: unknown;
    try {
      compileSpec(`FREQ=DAILY\n${line}`, { now: Date.parse('2026-01-01T00:00:00Z') });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PunctualError);
    expect((err as PunctualError).code).toBe('SPEC_INVALID');
    expect((err as PunctualError).message).toContain(why);
  });

  it('an RDATE TZID is checked like any zone', () => {
    expect(() =>
      compileSpec('FREQ=DAILY\nRDATE;TZID=Mars/Olympus:20260101T000000', {
        now: Date.parse('2026-01-01T00:00:00Z'),
      }),
    ).toThrow(expect.objectContaining({ code: 'TIME_ZONE_UNKNOWN' }));
  });
});
