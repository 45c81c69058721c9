// Differential test: every RRULE in rows.json (generated around DST transitions of eight zones by
// generate.py, with the instants python-dateutil computes, read as RFC 5545 says) gives the same instants
// here. Runs under any host zone (`npm run test:tz`). Also checks that Node's zone data agrees with the
// data the rows were generated from, on every transition used.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { offsetAt } from '../../../src/domain/timing/at-spec.js';
import { compileSpec } from '../../../src/domain/timing/compile-spec.js';

interface Oracle {
  dateutil: string;
  /** zone -> [UTC instant of a change, offset before (s), offset after (s)] */
  transitions: Record<string, [string, number, number][]>;
  rows: { spec: string; expected: string[]; searchedTo: string | null }[];
}

const oracle = JSON.parse(readFileSync(new URL('./rows.json', import.meta.url), 'utf8')) as Oracle;
const iso = (ms: number): string => new Date(ms).toISOString();

describe('zone data: Node agrees with the tzdata the rows were generated from', () => {
  const cases = Object.entries(oracle.transitions).flatMap(([zone, list]) =>
    list.map(([at, before, after]) => [zone, at, before, after] as const),
  );
  it.each(cases)('%s %s', (zone, at, before, after) => {
    const t = Date.parse(at);
    expect([offsetAt(t - 1000, zone), offsetAt(t, zone)]).toEqual([before * 1000, after * 1000]);
  });
});

describe(`RRULE agrees with python-dateutil ${oracle.dateutil} (RFC 5545 local time)`, () => {
  it('has at least 300 rows over every frequency', () => {
    expect(oracle.rows.length).toBeGreaterThanOrEqual(300);
    const freqs = new Set(oracle.rows.map((r) => /FREQ=(\w+)/.exec(r.spec)?.[1]));
    expect(freqs.size).toBe(7);
  });

  it.each(oracle.rows.map((r, i) => [i, r.spec.replace('\n', ' '), r] as const))(
    '#%i %s',
    (_i, _label, row) => {
      const searchedTo = row.searchedTo === null ? null : Date.parse(row.searchedTo);
      // endAt bounds the search when the oracle's list is complete up to searchedTo.
      const c = compileSpec(row.spec, { now: 0, endAt: searchedTo, validate: false });
      const got: string[] = [];
      let t = -1;
      for (let i = 0; i < row.expected.length; i++) {
        const next = c.nextAfter(t);
        if (next === null) break;
        got.push(iso(next));
        t = next;
      }
      expect(got).toEqual(row.expected);
      if (searchedTo !== null) expect(c.nextAfter(t)).toBeNull();
    },
  );
});
