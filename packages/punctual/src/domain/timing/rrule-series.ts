// The occurrences of one validated RRULE, in local wall-clock time of DTSTART's zone (RFC 5545 3.3.10):
// every frequency, HOURLY with an INTERVAL, MINUTELY and SECONDLY included, steps through local date-times;
// each local time is then mapped to an instant. A local time in a DST gap does not exist and is skipped
// without using up COUNT; a repeated local time takes its first pass. The rule library computes the local
// grid with DTSTART read as UTC (where no DST can bend it); COUNT, a UTC UNTIL and EXDATE are applied here,
// on instants. Every search is bounded. Pure: no I/O, no clock reads, no timers.

import { RRuleTemporal } from 'rrule-temporal';
import { instantOfWallTime, offsetAt, wallAsUtc, wallTimeOf, type WallTime } from './at-spec.js';

const DAY = 86_400_000;
const YEAR = 366 * DAY;
export const UNIT_MS: Record<string, number> = {
  SECONDLY: 1_000,
  MINUTELY: 60_000,
  HOURLY: 3_600_000,
  DAILY: DAY,
  WEEKLY: 7 * DAY,
  MONTHLY: 31 * DAY,
  YEARLY: YEAR,
};
/**
 * No occurrence within this many years after the query means "none". YEARLY and MONTHLY rules search a
 * whole Gregorian cycle (400 years: the calendar repeats after it), which costs milliseconds for them;
 * finer rules search 10 years (or 3 periods, if longer).
 */
export function horizonYearsOf(freq: string): number {
  return freq === 'YEARLY' || freq === 'MONTHLY' ? 400 : 10;
}
const MAX_CALLS = 48;
/** Local times beyond this are never searched (DTSTART stamps have four-digit years). */
const LAST_WALL = Date.UTC(9999, 11, 31, 23, 59, 59);
/** Largest UTC offset of any zone, with margin: a local time is at most this far from its instant. */
const MAX_OFFSET = 15 * 3_600_000;
const UTC_ZONES = new Set(['UTC', 'Etc/UTC', 'Etc/UCT', 'Etc/Universal', 'Etc/Zulu', 'Etc/GMT', 'GMT']);

export interface RruleSeriesInput {
  /** DTSTART's local date-time and zone (the local time exists: the caller refuses one in a gap). */
  dtstart: WallTime;
  tz: string;
  freq: string;
  interval: number;
  /** Validated, upper-case parts other than DTSTART (FREQ, INTERVAL, COUNT, UNTIL, BY..., WKST). */
  parts: ReadonlyMap<string, string>;
  /** EXDATE lines as written (`EXDATE;TZID=Zone:...`, `EXDATE:...Z`, floating = DTSTART's zone). */
  exdates: readonly string[];
  /** The schedule's endAt, if any: nothing after it is searched. */
  endAt?: number | null | undefined;
}

/** Why the last search answered null: the series ended (exact), or nothing within the horizon. */
export type SearchEnd = 'found' | 'ended' | 'horizon' | 'limit';

export interface RruleSeries {
  /** First occurrence strictly after `after` (epoch ms), or null: none before the horizon. */
  nextAfter(after: number): number | null;
  /** How the last `nextAfter` ended; 'limit' when the library gave up on part of the search. */
  lastSearchEnd(): SearchEnd;
  horizonYears: number;
}

const toWallMs = (w: WallTime): number => wallAsUtc({ ...w, millisecond: 0 });
function wallOfMs(ms: number): WallTime {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: 0,
  };
}
const stampOf = (ms: number): string => new Date(ms).toISOString().replace(/[-:]|\.\d{3}/g, '');

/** `YYYYMMDDTHHMMSS` (or a date) as a local time read as UTC ms. */
function stampMs(s: string): number {
  const n = (a: number, b: number): number => Number(s.slice(a, b));
  return s.length < 15
    ? Date.UTC(n(0, 4), n(4, 6) - 1, n(6, 8))
    : Date.UTC(n(0, 4), n(4, 6) - 1, n(6, 8), n(9, 11), n(11, 13), n(13, 15));
}

/** The instants an EXDATE line names. A local time takes its first pass ("compatible" in a gap). */
function exdateInstants(line: string, tz: string): number[] {
  const m = /^EXDATE(?:;TZID=([^:;]+))?:(.*)$/i.exec(line);
  if (m === null) return [];
  const zone = m[1] ?? tz;
  return (m[2] ?? '').split(',').map((v) => {
    if (/Z$/i.test(v)) return stampMs(v);
    return instantOfWallTime(wallOfMs(stampMs(v)), zone);
  });
}

/**
 * UTC offset of `tz` at an instant (ms), remembered per UTC day: the offsets at both ends of the day, and
 * the instant of the change between them, found by bisection (no zone changes twice within one day).
 * A series maps thousands of local times; Intl is asked a few times per day instead of per time.
 */
function offsetTable(tz: string): (t: number) => number {
  const days = new Map<number, { start: number; change: number; after: number }>();
  return (t) => {
    const k = Math.floor(t / DAY);
    let d = days.get(k);
    if (d === undefined) {
      const start = offsetAt(k * DAY, tz);
      const after = offsetAt((k + 1) * DAY, tz);
      let change = Infinity;
      if (after !== start) {
        let lo = k * DAY; // offset `start` here
        let hi = (k + 1) * DAY; // offset `after` here
        while (hi - lo > 1) {
          const mid = Math.floor((lo + hi) / 2);
          if (offsetAt(mid, tz) === start) lo = mid;
          else hi = mid;
        }
        change = hi;
      }
      if (days.size >= 4096) days.clear();
      d = { start, change, after };
      days.set(k, d);
    }
    return t < d.change ? d.start : d.after;
  };
}

export function rruleSeries(input: RruleSeriesInput): RruleSeries {
  const { tz, freq } = input;
  const utc = UTC_ZONES.has(tz);
  const dtWall = toWallMs(input.dtstart);
  const count = input.parts.has('COUNT') ? Number(input.parts.get('COUNT')) : null;
  const untilText = input.parts.get('UNTIL');
  // A UTC UNTIL bounds instants (applied here); a date or floating UNTIL is local and stays in the rule.
  const untilMs = untilText !== undefined && untilText.endsWith('Z') ? stampMs(untilText) : Infinity;
  const ruleParts = [...input.parts].filter(([k, v]) => k !== 'COUNT' && !(k === 'UNTIL' && v.endsWith('Z')));
  const grid = new RRuleTemporal({
    rruleString: `DTSTART:${stampOf(dtWall)}Z\nRRULE:${ruleParts.map(([k, v]) => `${k}=${v}`).join(';')}`,
  });
  const localUntil = untilText === undefined || untilText.endsWith('Z') ? Infinity : stampMs(untilText) + DAY;
  const endAt = input.endAt ?? Infinity;
  const lastWall = Math.min(LAST_WALL, localUntil, untilMs + MAX_OFFSET, endAt + MAX_OFFSET);
  const excluded = new Set(input.exdates.flatMap((l) => exdateInstants(l, tz)));
  const unit = (UNIT_MS[freq] as number) * input.interval;
  const horizonYears = horizonYearsOf(freq);
  const horizon = Math.max(horizonYears * YEAR, 3 * unit);

  const offset = utc ? (): number => 0 : offsetTable(tz);
  /** The instant of a local time: none in a gap, the first pass of a repeated one. */
  const instantOf = (wall: number): number | null => {
    if (utc) return wall;
    let best: number | null = null;
    for (const d of [-DAY, -DAY / 2, 0, DAY / 2, DAY]) {
      const o = offset(wall + d);
      const t = wall - o;
      if (offset(t) === o && (best === null || t < best)) best = t;
    }
    return best;
  };
  const wallOf = (instant: number): number => (utc ? instant : toWallMs(wallTimeOf(instant, tz)));

  /**
   * Visits the local grid's times in (from, end], in order, in windows of 2, 8, 32... periods, until
   * `visit` answers true. Returns how it ended: 'found', 'horizon' (reached end) or 'limit' (the library
   * gave up on a window, which was narrowed and then skipped).
   */
  function scan(from: number, end: number, visit: (wall: number) => boolean): SearchEnd {
    let lo = from;
    let width = 2 * unit;
    let gaveUp = false;
    for (let calls = 0; lo < end && calls < MAX_CALLS; calls++) {
      const hi = Math.min(lo + width, end);
      let hits: { epochMilliseconds: number }[];
      try {
        hits = grid.between(new Date(lo), new Date(hi), true);
      } catch {
        // "Maximum iterations exceeded": try a narrower window, then give up on this one.
        gaveUp = true;
        if (width > 2 * unit) width = Math.max(2 * unit, Math.floor(width / 16));
        else lo = hi;
        continue;
      }
      for (const z of hits) if (z.epochMilliseconds > lo && visit(z.epochMilliseconds)) return 'found';
      lo = hi;
      width *= 4;
    }
    return gaveUp || lo < end ? 'limit' : 'horizon';
  }

  // COUNT counts the existing local times from DTSTART (RFC 5545: a time in a gap is not counted), so a
  // COUNT rule is read from DTSTART on; what was read is kept (at most COUNT instants), and extended
  // only as far as a query needs.
  const counted: number[] = [];
  let countedTo = dtWall - 1;
  let countGaveUp = false;
  const countedAfter = (after: number, last: number): number | null => {
    const limit = Math.min(untilMs, endAt);
    for (;;) {
      let lo = 0;
      for (let hi = counted.length; lo < hi;) {
        const mid = (lo + hi) >> 1;
        if ((counted[mid] as number) > after) hi = mid;
        else lo = mid + 1;
      }
      for (const t of counted.slice(lo)) if (!excluded.has(t)) return t > limit ? null : t;
      if (count === null || counted.length >= count || countedTo >= last) return null;
      const how = scan(countedTo, last, (wall) => {
        countedTo = wall;
        const t = instantOf(wall);
        if (t === null) return false;
        counted.push(t);
        return counted.length >= count || (t > after && !excluded.has(t));
      });
      if (how !== 'found') {
        countedTo = last;
        if (how === 'limit') countGaveUp = true;
      }
    }
  };

  let end: SearchEnd = 'found';
  const nextAfter = (after: number): number | null => {
    if (Number.isNaN(after)) return null;
    // Every local time at or before the local time of `after` maps to an instant at or before `after`.
    const from = Math.max(after < dtWall - MAX_OFFSET * 2 ? dtWall - 1 : wallOf(after), dtWall - 1);
    const last = Math.min(lastWall, from + horizon);
    if (count !== null) {
      const found = countedAfter(after, last);
      if (found !== null) end = 'found';
      else if (counted.length >= count || last < from + horizon) end = 'ended';
      else end = countGaveUp ? 'limit' : 'horizon';
      return found;
    }
    const limit = Math.min(untilMs, endAt);
    let found: number | null = null;
    let ended = false;
    const how = scan(from, last, (wall) => {
      const t = instantOf(wall);
      if (t === null || t <= after) return false;
      if (t > limit) return (ended = true);
      if (excluded.has(t)) return false;
      found = t;
      return true;
    });
    if (found !== null) end = 'found';
    else if (ended) end = 'ended';
    else end = how === 'limit' || last >= from + horizon ? how : 'ended';
    return found;
  };

  return { nextAfter, lastSearchEnd: () => end, horizonYears };
}
