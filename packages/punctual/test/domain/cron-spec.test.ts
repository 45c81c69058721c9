// Cron specs: field syntax (L, W, #, names, steps, 6 and 7 fields, nicknames), Vixie's day-of-month /
// day-of-week rule, the fixed-time vs wildcard classification, and errors that name the field.
import { describe, expect, it } from 'vitest';
import { PunctualError } from '../../src/errors.js';
import { compileSpec } from '../../src/domain/timing/compile-spec.js';
import { classifyCron, cronerPattern, parseCronFields } from '../../src/domain/timing/cron-spec.js';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString();

/** The first `n` occurrences strictly after `from`, as UTC ISO strings. */
function runs(spec: string, tz: string, from: string, n: number): string[] {
  const c = compileSpec(spec, { tz, now: at(from) });
  const out: string[] = [];
  let t = at(from);
  for (let i = 0; i < n; i++) {
    const next = c.nextAfter(t);
    if (next === null) break;
    out.push(iso(next));
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

describe('cron syntax', () => {
  it.each([
    ['0 0 15W * *', '2026-02-01T00:00:00Z', ['2026-02-16T00:00:00.000Z', '2026-03-16T00:00:00.000Z']],
    ['0 0 2W * *', '2026-04-30T00:00:00Z', ['2026-05-01T00:00:00.000Z', '2026-06-02T00:00:00.000Z']],
    ['0 10 * * 5#2', '2026-02-01T00:00:00Z', ['2026-02-13T10:00:00.000Z', '2026-03-13T10:00:00.000Z']],
    ['0 10 * * FRI#L', '2026-02-01T00:00:00Z', ['2026-02-27T10:00:00.000Z', '2026-03-27T10:00:00.000Z']],
    ['0 10 * * 5L', '2026-02-01T00:00:00Z', ['2026-02-27T10:00:00.000Z', '2026-03-27T10:00:00.000Z']],
    ['0 9 L * *', '2026-02-01T00:00:00Z', ['2026-02-28T09:00:00.000Z', '2026-03-31T09:00:00.000Z']],
    ['0 0 LW * *', '2026-02-01T00:00:00Z', ['2026-02-27T00:00:00.000Z', '2026-03-31T00:00:00.000Z']],
    ['0 0 1,L * *', '2026-02-01T00:00:00Z', ['2026-02-28T00:00:00.000Z', '2026-03-01T00:00:00.000Z']],
    ['0 0 12 1 1 * 2027', '2026-02-01T00:00:00Z', ['2027-01-01T12:00:00.000Z']],
    ['0 0 0 29 2 * 2027-2030', '2026-01-01T00:00:00Z', ['2028-02-29T00:00:00.000Z']],
    [
      '30 */20 * * * *',
      '2026-01-01T00:00:00Z',
      ['2026-01-01T00:00:30.000Z', '2026-01-01T00:20:30.000Z', '2026-01-01T00:40:30.000Z'],
    ],
    ['*/15 * * * * *', '2026-01-01T00:00:00Z', ['2026-01-01T00:00:15.000Z', '2026-01-01T00:00:30.000Z']],
    [
      '0 9 * jan,JUL MON-FRI',
      '2026-06-30T00:00:00Z',
      ['2026-07-01T09:00:00.000Z', '2026-07-02T09:00:00.000Z'],
    ],
    ['0 12 * * SAT-SUN', '2026-01-01T00:00:00Z', ['2026-01-03T12:00:00.000Z', '2026-01-04T12:00:00.000Z']],
    ['0 0 * * 7', '2026-01-01T00:00:00Z', ['2026-01-04T00:00:00.000Z']],
    ['0 0 1-31/10 * *', '2026-01-01T00:00:00Z', ['2026-01-11T00:00:00.000Z', '2026-01-21T00:00:00.000Z']],
    ['0 0 1 */3 *', '2026-01-01T00:00:00Z', ['2026-04-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z']],
    ['@yearly', '2026-01-01T00:00:00Z', ['2027-01-01T00:00:00.000Z']],
    ['@annually', '2026-01-01T00:00:00Z', ['2027-01-01T00:00:00.000Z']],
    ['@monthly', '2026-01-01T00:00:00Z', ['2026-02-01T00:00:00.000Z']],
    ['@weekly', '2026-01-01T00:00:00Z', ['2026-01-04T00:00:00.000Z']],
    ['@daily', '2026-01-01T00:00:00Z', ['2026-01-02T00:00:00.000Z']],
    ['@MIDNIGHT', '2026-01-01T00:00:00Z', ['2026-01-02T00:00:00.000Z']],
    ['@hourly', '2026-01-01T00:00:00Z', ['2026-01-01T01:00:00.000Z']],
  ])('%s after %s', (spec, from, expected) => {
    expect(runs(spec, 'UTC', from, expected.length + 1).slice(0, expected.length)).toEqual(expected);
  });

  it('gives null after the last year of a 7-field expression', () => {
    const c = compileSpec('0 0 12 1 1 * 2027', { now: at('2026-01-01T00:00:00Z') });
    expect(c.nextAfter(at('2027-01-01T12:00:00Z'))).toBeNull();
  });

  it('is strictly after: an occurrence exactly at `after` is not returned', () => {
    const c = compileSpec('0 * * * *', { now: at('2026-01-01T00:00:00Z') });
    expect(iso(c.nextAfter(at('2026-01-01T10:00:00Z')) as number)).toBe('2026-01-01T11:00:00.000Z');
    expect(iso(c.nextAfter(at('2026-01-01T09:59:59.999Z')) as number)).toBe('2026-01-01T10:00:00.000Z');
  });

  it('keeps the text as the source (whitespace collapsed), nicknames included', () => {
    expect(compileSpec('  0   9 * *  1-5 ', { now: 0 }).source).toBe('0 9 * * 1-5');
    expect(compileSpec('@daily', { now: 0 }).source).toBe('@daily');
  });
});

describe('day-of-month and day-of-week (Vixie)', () => {
  it.each([
    // both restricted: OR (the 1st, and every Monday)
    ['0 0 1 * 1', ['2026-01-05', '2026-01-12', '2026-01-19', '2026-01-26', '2026-02-01', '2026-02-02']],
    // one of them starts with `*` (but is not `*`): AND, as in Vixie (odd days that are Mondays)
    ['0 0 */2 * 1', ['2026-01-05', '2026-01-19', '2026-02-09', '2026-02-23']],
    ['0 0 1-7 * */7', ['2026-01-04', '2026-02-01', '2026-03-01']],
    // `+` asks for AND explicitly: the first Monday of the month
    ['0 0 1-7 * +1', ['2026-01-05', '2026-02-02', '2026-03-02']],
    // `*` in either field leaves the other alone
    ['0 0 13 * *', ['2026-01-13', '2026-02-13']],
    ['0 0 * * 5', ['2026-01-02', '2026-01-09']],
  ])('%s', (spec, days) => {
    const expected = days.map((d) => `${d}T00:00:00.000Z`);
    expect(runs(spec, 'UTC', '2026-01-01T00:00:00Z', expected.length)).toEqual(expected);
  });
});

describe('DST classification (Vixie: wildcard only when minute or hour starts with *)', () => {
  it.each([
    ['30 2 * * *', 'fixed-time'],
    ['0,30 2 * * *', 'fixed-time'],
    ['1,31 1 * * *', 'fixed-time'],
    ['0 1-3 * * *', 'fixed-time'],
    ['0-59/15 2 * * *', 'fixed-time'],
    ['0 0-23/2 * * *', 'fixed-time'],
    ['*/10 30 2 * * *', 'fixed-time'],
    ['@daily', 'fixed-time'],
    ['@weekly', 'fixed-time'],
    ['*/15 2 * * *', 'wildcard'],
    ['* 2 * * *', 'wildcard'],
    ['0 * * * *', 'wildcard'],
    ['0 */2 * * *', 'wildcard'],
    ['*/15 * * * *', 'wildcard'],
    ['@hourly', 'wildcard'],
  ])('%s is %s', (spec, kind) => {
    expect(classifyCron(parseCronFields(spec))).toBe(kind);
  });

  it.each([
    ['0-59/15 2 * * *', '0 0,15,30,45 2 * * * *'],
    ['0 0-23/2 * * *', '0 0 0,2,4,6,8,10,12,14,16,18,20,22 * * * *'],
    ['*/15 2 * * *', '0 */15 2 * * * *'],
    ['30 2 * * *', '0 30 2 * * * *'],
  ])('hands croner %s as %s', (spec, pattern) => {
    expect(cronerPattern(parseCronFields(spec))).toBe(pattern);
  });
});

describe('never fires', () => {
  it.each(['0 0 31 2 *', '0 0 30 2 *', '0 0 31 4,6,9,11 *', '0 0 0 1 1 * 2020', '0 0 0 30 2 * *'])(
    '%s',
    (spec) => {
      const e = thrown(() => compileSpec(spec, { now: at('2026-01-01T00:00:00Z') }));
      expect(e.code).toBe('SPEC_NEVER_FIRES');
      expect(e.details).toMatchObject({ field: 'spec' });
    },
  );
});

describe('malformed cron names the field', () => {
  it.each([
    ['60 * * * * *', 'second', '60'],
    ['61 * * * *', 'minute', '61'],
    ['* 25 * * *', 'hour', '25'],
    ['0 0 32 * *', 'dayOfMonth', '32'],
    ['0 0 0 * *', 'dayOfMonth', '0'],
    ['0 0 * 13 *', 'month', '13'],
    ['0 0 * JANX *', 'month', 'JANX'],
    ['0 0 * * 8', 'dayOfWeek', '8'],
    ['0 0 * * 5#6', 'dayOfWeek', '5#6'],
    ['0 0 * * MON-FOO', 'dayOfWeek', 'MON-FOO'],
    ['0 0 * * 1W', 'dayOfWeek', '1W'],
    ['0 0 0 * * * 1969', 'year', '1969'],
    ['5/15 * * * *', 'minute', '5/15'],
    ['*/0 * * * *', 'minute', '*/0'],
    ['*/61 * * * *', 'minute', '*/61'],
    ['0 0 10-5 * *', 'dayOfMonth', '10-5'],
    ['0 0 1,,2 * *', 'dayOfMonth', '1,,2'],
    ['0 0 L-2 * *', 'dayOfMonth', 'L-2'],
    ['0 0 LW,1 * *', 'dayOfMonth', 'LW,1'],
    ['? * * * *', 'minute', '?'],
    ['a b c d e', 'minute', 'A'],
    ['* * * *', 'fields', '* * * *'],
    ['* * * * * * * *', 'fields', '* * * * * * * *'],
    ['@reboot', 'nickname', '@reboot'],
    ['@often', 'nickname', '@often'],
  ])('%s -> %s', (spec, part, value) => {
    const e = thrown(() => compileSpec(spec, { now: 0 }));
    expect(e.code).toBe('SPEC_INVALID');
    expect(e.details).toEqual({ field: 'spec', part, value });
    expect(e.message).toContain(
      part === 'nickname'
        ? `unknown form ${value}`
        : part === 'fields'
          ? 'cron expression'
          : `cron ${part} field`,
    );
  });

  it('says why', () => {
    expect(thrown(() => compileSpec('* 25 * * *', { now: 0 })).message).toBe(
      'cron hour field "25": 25 is out of range 0-23',
    );
    expect(thrown(() => compileSpec('5/15 * * * *', { now: 0 })).message).toContain('*/n or a-b/n');
  });
});
