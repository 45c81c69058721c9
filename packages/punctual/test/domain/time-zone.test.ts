// The zone rule: Area/Location IANA names (links included) and UTC/GMT are accepted; abbreviations, legacy
// rule names, one-word links and fixed offsets are refused with TIME_ZONE_UNKNOWN and, where the table has
// one, a suggestion. The answer never depends on what the runtime's Intl accepts (Node 24+ takes "+05:30",
// Node 20 does not; Intl reads "BST" as Bangladesh), so these cases hold on every Node.

import { describe, expect, it } from 'vitest';
import { compileSpec } from '../../src/domain/timing/compile-spec.js';
import { resolveTimeZone } from '../../src/domain/timing/time-zone.js';
import { PunctualError } from '../../src/errors.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

function refusal(tz: string): PunctualError {
  try {
    resolveTimeZone(tz, { field: 'tz' });
  } catch (e) {
    if (e instanceof PunctualError) return e;
    throw e;
  }
  throw new Error(`"${tz}" was accepted`);
}

describe('accepted zones', () => {
  it.each([
    ['Europe/London', 'Europe/London'],
    ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
    ['Etc/GMT-5', 'Etc/GMT-5'],
    ['Etc/UTC', 'Etc/UTC'],
    ['US/Eastern', 'US/Eastern'],
    ['Asia/Calcutta', 'Asia/Calcutta'],
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['GMT', 'GMT'],
    ['europe/paris', 'Europe/Paris'],
  ])('%s', (tz, expected) => {
    expect(resolveTimeZone(tz, { field: 'tz' })).toBe(expected);
  });
});

describe('every zone the runtime lists (the dashboard offers them) is accepted', () => {
  it('Intl.supportedValuesOf("timeZone")', () => {
    const zones = Intl.supportedValuesOf('timeZone');
    expect(zones.length).toBeGreaterThan(300);
    expect(zones.filter((z) => resolveTimeZone(z, { field: 'tz' }) !== z)).toEqual([]);
  });
});

describe('refused abbreviations, with a suggestion', () => {
  it.each([
    ['BST', 'Europe/London'],
    ['CST', 'America/Chicago'],
    ['PST', 'America/Los_Angeles'],
    ['IST', 'Asia/Kolkata'],
    ['EST', 'America/New_York'],
    ['MST', 'America/Denver'],
    ['CET', 'Europe/Paris'],
    ['EET', 'Europe/Athens'],
    ['HST', 'Pacific/Honolulu'],
    ['PST8PDT', 'America/Los_Angeles'],
    ['est5edt', 'America/New_York'],
    ['Zulu', 'UTC'],
  ])('%s: did you mean %s?', (tz, suggestion) => {
    const e = refusal(tz);
    expect(e.code).toBe('TIME_ZONE_UNKNOWN');
    expect(e.details).toEqual({ field: 'tz', value: tz, suggestion });
    expect(e.message).toContain(`"${tz}": did you mean ${suggestion}`);
  });

  it('BST is not Bangladesh: a schedule in "BST" is refused, not fired at 03:00Z', () => {
    expect(() => compileSpec('0 9 * * *', { tz: 'BST', now: NOW })).toThrow(/did you mean Europe\/London/);
  });

  it('a one-word link without a table entry is refused with the general hint', () => {
    const e = refusal('Japan');
    expect(e.details).toEqual({ field: 'tz', value: 'Japan' });
    expect(e.message).toMatch(/Area\/Location/);
  });
});

describe('fixed offsets are refused on every Node, with a place or an Etc zone as the hint', () => {
  it.each([
    ['+05:30', 'Asia/Kolkata'],
    ['+0530', 'Asia/Kolkata'],
    ['UTC+5:45', 'Asia/Kathmandu'],
    ['UTC+2', 'Etc/GMT-2'],
    ['GMT-3', 'Etc/GMT+3'],
    ['+00:00', 'UTC'],
  ])('%s', (tz, suggestion) => {
    const e = refusal(tz);
    expect(e.code).toBe('TIME_ZONE_UNKNOWN');
    expect(e.details).toEqual({ field: 'tz', value: tz, suggestion });
    expect(e.message).toMatch(/fixed UTC offset is not accepted/);
  });

  it('an RRULE TZID follows the same rule', () => {
    expect(() => compileSpec('DTSTART;TZID=EST:20260302T090000\nRRULE:FREQ=DAILY', { now: NOW })).toThrow(
      PunctualError,
    );
    try {
      compileSpec('DTSTART;TZID=EST:20260302T090000\nRRULE:FREQ=DAILY', { now: NOW });
    } catch (e) {
      expect((e as PunctualError).details).toMatchObject({ field: 'spec', part: 'TZID', value: 'EST' });
    }
  });
});
