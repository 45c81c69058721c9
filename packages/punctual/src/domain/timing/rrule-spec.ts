// RFC 5545 recurrence specs: validates the DTSTART/RRULE text part by part, normalises it (DTSTART always
// written out) and describes it; the occurrences come from rrule-series.ts, in local wall-clock time of
// DTSTART's zone, by a bounded search (never an endless loop).
// Pure: no I/O, no clock reads, no timers; the default DTSTART instant comes from the caller.

import { RRuleTemporal } from 'rrule-temporal';
import { toText } from 'rrule-temporal/totext';
import { PunctualError } from '../../errors.js';
import { instantsOfWallTime, wallTimeOf, type WallTime } from './at-spec.js';
import type { OnDropped } from './compiled-spec.js';
import { DST_DEFAULTS, type DstChoice } from './dst-choice.js';
import type { PreviewOccurrence } from './preview-note.js';
import { isRruleDateLine, parseRruleDateLine, type RruleDateValue } from './rrule-dates.js';
import { rruleSeries, UNIT_MS, type RruleSeries, type SearchEnd } from './rrule-series.js';
import { resolveTimeZone } from './time-zone.js';

export interface RruleSpec {
  kind: 'rrule';
  /** Normalised `DTSTART...\nRRULE:...` (DTSTART always present, so the series never moves). */
  source: string;
  tz: string;
  nextAfter(after: number): number | null;
  /** The same search with each occurrence's notes and the dropped candidates (see CompiledSpec). */
  nextDetailedAfter(after: number, onDropped?: OnDropped): PreviewOccurrence | null;
  description: string;
  /**
   * How the last search ended: 'ended' (COUNT or UNTIL used up: exact), 'horizon' (nothing within
   * `horizonYears`), 'limit' (the library gave up on part of the search), or 'found'.
   */
  lastSearchEnd(): SearchEnd;
  /** The search horizon in years: no occurrence within it after the query counts as none. */
  horizonYears: number;
}

export const MAX_RRULE_COUNT = 10_000;
const DAY_MS = 86_400_000;

const int =
  (lo: number, hi: number, nonZero = false) =>
  (v: string) =>
    /^[+-]?\d+$/.test(v) && Math.abs(Number(v)) >= (nonZero ? 1 : 0) && Number(v) >= lo && Number(v) <= hi;
const DAY_RE = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/;
const PARTS: Record<string, { list: boolean; ok: (v: string) => boolean; expect: string }> = {
  FREQ: { list: false, ok: (v) => Object.hasOwn(UNIT_MS, v), expect: Object.keys(UNIT_MS).join(', ') },
  INTERVAL: { list: false, ok: int(1, 100_000), expect: 'a whole number of at least 1' },
  COUNT: {
    list: false,
    ok: int(1, MAX_RRULE_COUNT),
    expect: `1-${MAX_RRULE_COUNT} (use UNTIL, endAt or maxRuns)`,
  },
  UNTIL: { list: false, ok: (v) => /^\d{8}(T\d{6}Z?)?$/.test(v), expect: 'YYYYMMDD or YYYYMMDDTHHMMSSZ' },
  BYSECOND: { list: true, ok: int(0, 60), expect: '0-60' },
  BYMINUTE: { list: true, ok: int(0, 59), expect: '0-59' },
  BYHOUR: { list: true, ok: int(0, 23), expect: '0-23' },
  BYMONTHDAY: { list: true, ok: int(-31, 31, true), expect: '1-31 or -31 to -1' },
  BYYEARDAY: { list: true, ok: int(-366, 366, true), expect: '1-366 or -366 to -1' },
  BYWEEKNO: { list: true, ok: int(-53, 53, true), expect: '1-53 or -53 to -1' },
  BYMONTH: { list: true, ok: int(1, 12), expect: '1-12' },
  BYSETPOS: { list: true, ok: int(-366, 366, true), expect: '1-366 or -366 to -1' },
  BYDAY: {
    list: true,
    ok: (v) => DAY_RE.test(v) && int(-53, 53, true)(DAY_RE.exec(v)?.[1] ?? '1'),
    expect: 'MO..SU, optionally with an ordinal such as 2FR or -1SU',
  },
  WKST: { list: false, ok: (v) => /^(MO|TU|WE|TH|FR|SA|SU)$/.test(v), expect: 'MO..SU' },
};

function invalid(part: string, value: string, why: string): PunctualError {
  return new PunctualError('SPEC_INVALID', `RRULE ${part} "${value}": ${why}`, {
    field: 'spec',
    part,
    value,
  });
}

function normaliseRule(rule: string): {
  line: string;
  freq: string;
  interval: number;
  parts: Map<string, string>;
} {
  const seen = new Map<string, string>();
  for (const piece of rule.split(';')) {
    const eq = piece.indexOf('=');
    const key = piece.slice(0, eq).toUpperCase();
    const value = piece.slice(eq + 1).toUpperCase();
    const def = Object.hasOwn(PARTS, key) ? PARTS[key] : undefined;
    if (eq <= 0 || def === undefined)
      throw invalid(eq <= 0 ? 'rule' : key, piece, 'is not a known RRULE part');
    if (seen.has(key)) throw invalid(key, value, 'is given twice');
    const values = def.list ? value.split(',') : [value];
    const bad = values.find((v) => !def.ok(v));
    if (bad !== undefined) throw invalid(key, value, `"${bad}" is out of range (${def.expect})`);
    seen.set(key, value);
  }
  const freq = seen.get('FREQ');
  if (freq === undefined) throw invalid('FREQ', rule, 'is required');
  if (seen.has('COUNT') && seen.has('UNTIL'))
    throw invalid('COUNT', rule, 'COUNT and UNTIL cannot both be given');
  const line = `RRULE:${[...seen].map(([k, v]) => `${k}=${v}`).join(';')}`;
  return { line, freq, interval: Number(seen.get('INTERVAL') ?? 1), parts: seen };
}

const stamp = (w: WallTime): string =>
  `${String(w.year).padStart(4, '0')}${[w.month, w.day].map((n) => String(n).padStart(2, '0')).join('')}T` +
  [w.hour, w.minute, w.second].map((n) => String(n).padStart(2, '0')).join('');

/** Parses a DTSTART line into its normalised form and zone. A floating DTSTART is local time in `tz`. */
function parseDtstart(token: string, tz: string): { line: string; tz: string; wall: WallTime } {
  const m =
    /^DTSTART(?:;VALUE=DATE-TIME)?(?:;TZID=([^:;]+))?:(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/i.exec(
      token,
    );
  if (m === null)
    throw invalid('DTSTART', token, 'expected DTSTART;TZID=Zone:YYYYMMDDTHHMMSS or DTSTART:YYYYMMDDTHHMMSSZ');
  const [year, month, day, hour, minute, second] = m.slice(2, 8).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const w: WallTime = { year, month, day, hour, minute, second, millisecond: 0 };
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (
    year < 1970 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > days ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    throw invalid('DTSTART', token, 'is not a valid date and time');
  }
  if (m[1] !== undefined && m[8] !== '') throw invalid('DTSTART', token, 'has both TZID and a Z suffix');
  if (m[8] !== '') return { line: `DTSTART:${stamp(w)}Z`, tz: 'UTC', wall: w };
  const zone = m[1] === undefined ? tz : resolveTimeZone(m[1], { field: 'spec', part: 'TZID' });
  if (instantsOfWallTime(w, zone).length === 0) {
    throw invalid('DTSTART', token, `${stamp(w)} does not exist in ${zone} (it falls in a DST gap)`);
  }
  return { line: `DTSTART;TZID=${zone}:${stamp(w)}`, tz: zone, wall: w };
}

/**
 * `t`, or when `t` is in the second pass of a repeated local time (whose local time would stand for its
 * first pass, before `t`), the end of that repeat: the first instant whose local time is new, on the grain.
 */
function afterRepeatedTime(t: number, tz: string, grain: number): number {
  const inSecondPass = (x: number): boolean => (instantsOfWallTime(wallTimeOf(x, tz), tz)[0] ?? x) < x;
  if (!inSecondPass(t)) return t;
  let lo = t; // in the second pass
  let hi = t + 2 * DAY_MS; // past it (no repeat lasts a day)
  while (hi - lo > grain) {
    const mid = lo + Math.floor((hi - lo) / 2 / grain) * grain;
    if (inSecondPass(mid)) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * Compiles `RRULE:...`, bare `FREQ=...`, or DTSTART + RRULE (+ EXDATE and RDATE) lines. Without DTSTART the series
 * starts at `dtstart` in `tz`, rounded down to the second when `exact` (an explicit startAt) or the rule is
 * SECONDLY, else to the minute: parts the rule leaves out (BYSECOND) are taken from DTSTART (RFC 5545),
 * so `FREQ=DAILY;BYHOUR=9;BYMINUTE=0` saved at 14:13:45 fires at 09:00:00, not 09:00:45.
 * With `DTSTART;TZID=` the zone is the TZID.
 */
export function compileRruleSpec(
  text: string,
  opts: { tz: string; dtstart: number; exact?: boolean; endAt?: number | null; dst?: DstChoice },
): RruleSpec {
  let dtstart: { line: string; tz: string; wall: WallTime } | undefined;
  let rule: string | undefined;
  const dateLines: string[] = [];
  const exdates: RruleDateValue[] = [];
  const rdates: RruleDateValue[] = [];
  for (const token of text.trim().split(/\s+/)) {
    const upper = token.toUpperCase();
    if (upper.startsWith('DTSTART')) {
      if (dtstart !== undefined) throw invalid('DTSTART', token, 'is given twice');
      dtstart = parseDtstart(token, opts.tz);
    } else if (upper.startsWith('RRULE:') || upper.startsWith('FREQ=')) {
      if (rule !== undefined) throw invalid('RRULE', token, 'only one RRULE is supported');
      rule = upper.startsWith('RRULE:') ? token.slice(6) : token;
    } else if (isRruleDateLine(token)) {
      const parsed = parseRruleDateLine(token);
      (parsed.name === 'EXDATE' ? exdates : rdates).push(...parsed.values);
      dateLines.push(parsed.line);
    } else {
      throw invalid('line', token, 'expected DTSTART, RRULE (or FREQ=...), EXDATE or RDATE');
    }
  }
  if (rule === undefined) throw invalid('RRULE', text.trim(), 'an RRULE line (or FREQ=...) is required');
  const { line, freq, interval, parts } = normaliseRule(rule);
  if (dtstart === undefined) {
    // The save instant, to the grain. With COUNT it is rounded up, so that the first of the COUNT
    // occurrences is not before the save (rounded down it would be lost, and the series one short).
    const grain = opts.exact === true || freq === 'SECONDLY' ? 1_000 : 60_000;
    const counted = parts.has('COUNT');
    const start = counted
      ? afterRepeatedTime(Math.ceil(opts.dtstart / grain) * grain, opts.tz, grain)
      : Math.floor(opts.dtstart / grain) * grain;
    const wall = wallTimeOf(start, opts.tz);
    dtstart = { line: `DTSTART;TZID=${opts.tz}:${stamp(wall)}`, tz: opts.tz, wall };
  }
  const source = [dtstart.line, line, ...dateLines].join('\n');
  let rrule: RRuleTemporal;
  let series: RruleSeries;
  try {
    rrule = new RRuleTemporal({ rruleString: source });
    series = rruleSeries({
      dtstart: dtstart.wall,
      tz: dtstart.tz,
      freq,
      interval,
      parts,
      exdates,
      rdates,
      dst: opts.dst ?? DST_DEFAULTS.rrule,
      endAt: opts.endAt,
    });
  } catch (e) {
    throw invalid('rule', source, e instanceof Error ? e.message : String(e));
  }

  let words: string;
  try {
    const t = toText(rrule, 'en', { excludeTzAbbreviation: true }).trim();
    words = t === '' ? line : t.charAt(0).toUpperCase() + t.slice(1);
  } catch {
    words = line;
  }
  return {
    kind: 'rrule',
    source,
    tz: dtstart.tz,
    nextAfter: (after) => series.nextDetailedAfter(after)?.at ?? null,
    nextDetailedAfter: series.nextDetailedAfter,
    description: `${words}, ${dtstart.tz}`,
    lastSearchEnd: series.lastSearchEnd,
    horizonYears: series.horizonYears,
  };
}
