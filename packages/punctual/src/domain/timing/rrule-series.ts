// The occurrences of one validated RRULE, in local wall-clock time of DTSTART's zone (RFC 5545 3.3.10):
// every frequency, HOURLY with an INTERVAL, MINUTELY and SECONDLY included, steps through local date-times;
// each local time is then mapped to instants by the schedule's DST choice (by default, RFC 5545: a local
// time in a gap does not exist and is skipped without using up COUNT; a repeated one takes its first pass).
// The rule library computes the local grid with DTSTART read as UTC (where no DST can bend it); COUNT, a
// UTC UNTIL, EXDATE and RDATE are applied here. Each instance carries its notes, and each candidate dropped
// on the way is told, from this one search. Every search is bounded. Pure: no I/O, no clock reads, no timers.

import { RRuleTemporal } from 'rrule-temporal';
import { wallAsUtc, type WallTime } from './at-spec.js';
import type { OnDropped } from './compiled-spec.js';
import type { DstChoice } from './dst-choice.js';
import type { PreviewDropped, PreviewNote, PreviewOccurrence } from './preview-note.js';
import type { RruleDateValue } from './rrule-dates.js';
import { UTC_ZONES, zoneOffsets } from './zone-offsets.js';

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

export interface RruleSeriesInput {
  /** DTSTART's local date-time and zone (the local time exists: the caller refuses one in a gap). */
  dtstart: WallTime;
  tz: string;
  freq: string;
  interval: number;
  /** Validated, upper-case parts other than DTSTART (FREQ, INTERVAL, COUNT, UNTIL, BY..., WKST). */
  parts: ReadonlyMap<string, string>;
  /** EXDATE values: an instant, a local time (floating = DTSTART's zone) or a whole local date. */
  exdates: readonly RruleDateValue[];
  /** RDATE values, added to the rule's instances (not counted by COUNT, not bounded by UNTIL). */
  rdates: readonly RruleDateValue[];
  /** What a local time in a gap or a repeated hour gives. */
  dst: DstChoice;
  /** The schedule's endAt, if any: nothing after it is searched. */
  endAt?: number | null | undefined;
}

/** Why the last search answered null: the series ended (exact), or nothing within the horizon. */
export type SearchEnd = 'found' | 'ended' | 'horizon' | 'limit';

export interface RruleSeries {
  /** First occurrence strictly after `after` (epoch ms) with its notes, or null: none before the horizon. */
  nextDetailedAfter(after: number, onDropped?: OnDropped): PreviewOccurrence | null;
  /** How the last `nextAfter` ended; 'limit' when the library gave up on part of the search. */
  lastSearchEnd(): SearchEnd;
  horizonYears: number;
}

const toWallMs = (w: WallTime): number => wallAsUtc({ ...w, millisecond: 0 });
const stampOf = (ms: number): string => new Date(ms).toISOString().replace(/[-:]|\.\d{3}/g, '');

/** `YYYYMMDDTHHMMSS` (or a date) as a local time read as UTC ms. */
function stampMs(s: string): number {
  const n = (a: number, b: number): number => Number(s.slice(a, b));
  return s.length < 15
    ? Date.UTC(n(0, 4), n(4, 6) - 1, n(6, 8))
    : Date.UTC(n(0, 4), n(4, 6) - 1, n(6, 8), n(9, 11), n(11, 13), n(13, 15));
}

/** A candidate instance: its instant, the local time that asked for it (wall ms) and its notes. */
interface Candidate {
  at: number;
  wall: number;
  notes: PreviewNote[];
}

/** Inserts into a list sorted by `at`, keeping the first of equal instants; false when one was there. */
function insertSorted<T extends { at: number }>(list: T[], item: T): boolean {
  let lo = 0;
  for (let hi = list.length; lo < hi;) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as T).at < item.at) lo = mid + 1;
    else hi = mid;
  }
  if (list[lo]?.at === item.at) return false;
  list.splice(lo, 0, item);
  return true;
}

/** The first index of a list sorted by `at` whose instant is after `after`. */
function firstAfter(list: readonly { at: number }[], after: number): number {
  let lo = 0;
  for (let hi = list.length; lo < hi;) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] as { at: number }).at > after) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function rruleSeries(input: RruleSeriesInput): RruleSeries {
  const { tz, freq, dst } = input;
  const utc = UTC_ZONES.has(tz);
  const zone = zoneOffsets(tz);
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
  const unit = (UNIT_MS[freq] as number) * input.interval;
  const horizonYears = horizonYearsOf(freq);
  const horizon = Math.max(horizonYears * YEAR, 3 * unit);
  const both = dst.repeat === 'both';

  /** The instances a local time of the series' zone gives under the DST choice; dropped ones to `drops`. */
  const candidatesOf = (wall: number, drops: PreviewDropped[]): Candidate[] => {
    if (utc) return [{ at: wall, wall, notes: [] }];
    const all = zone.instantsOf(wall);
    if (all.length === 0) {
      const end = zone.gapEnd(wall);
      if (dst.gap === 'skip') {
        drops.push({ at: end, reason: 'dstGap' });
        return [];
      }
      const used = zone.format(zone.wall(end));
      return [{ at: end, wall, notes: [{ kind: 'dstShifted', asked: zone.format(wall), used }] }];
    }
    const [first, second] = all as [number, number | undefined];
    if (second === undefined) return [{ at: first, wall, notes: [] }];
    const pass1: Candidate = { at: first, wall, notes: [{ kind: 'dstRepeat', pass: 1 }] };
    if (!both) {
      drops.push({ at: second, reason: 'dstRepeat' });
      return [pass1];
    }
    return [pass1, { at: second, wall, notes: [{ kind: 'dstRepeat', pass: 2 }] }];
  };
  /** The first instance of a local time in another zone (its own first pass, or the end of its gap). */
  const foreignInstant = (wall: number, other: string): number => {
    const z = zoneOffsets(other);
    return z.instantsOf(wall)[0] ?? z.gapEnd(wall);
  };

  // EXDATE: an instant removes that instant; a local time of the series' zone removes every instance it
  // asked for (both passes of a repeated time, the run moved out of a gap); a date removes that local day.
  const exInstants = new Set<number>();
  const exWalls = new Set<number>();
  const exDays = new Set<number>();
  for (const v of input.exdates) {
    if (v.form === 'utc') exInstants.add(v.at);
    else if (v.form === 'date') exDays.add(v.day);
    else if (v.zone === null || v.zone === tz) exWalls.add(v.wall);
    else exInstants.add(foreignInstant(v.wall, v.zone));
  }
  const excluded = (c: Candidate): boolean =>
    exInstants.has(c.at) || exWalls.has(c.wall) || exDays.has(Math.floor(c.wall / DAY) * DAY);

  // RDATE: computed once (a finite list), sorted by instant, duplicates collapsed; EXDATE applies to them.
  const timeOfDay = dtWall - Math.floor(dtWall / DAY) * DAY;
  const rdates: Candidate[] = [];
  const rdateDrops: PreviewDropped[] = [];
  for (const v of input.rdates) {
    let found: Candidate[];
    if (v.form === 'utc') found = [{ at: v.at, wall: zone.wall(v.at), notes: [] }];
    else if (v.form === 'date') found = candidatesOf(v.day + timeOfDay, rdateDrops);
    else if (v.zone === null || v.zone === tz) found = candidatesOf(v.wall, rdateDrops);
    else {
      const at = foreignInstant(v.wall, v.zone);
      found = [{ at, wall: zone.wall(at), notes: [] }];
    }
    for (const c of found) {
      if (excluded(c)) rdateDrops.push({ at: c.at, reason: 'exdate' });
      else insertSorted(rdates, c);
    }
  }

  /** Local times from this far before the local time of `t` can still give instances after `t`. */
  const repeatSpan = (t: number): number => Math.max(0, zone.offset(t - DAY) - zone.offset(t + DAY));
  /** No local time at or after `wall` gives an instant before this. */
  const earliestOf = (wall: number): number =>
    wall - Math.max(zone.offset(wall - DAY), zone.offset(wall), zone.offset(wall + DAY));

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

  // COUNT counts the instances of the rule from DTSTART (RFC 5545: a time in a gap that is skipped is not
  // counted; EXDATE removes instances after counting), so a COUNT rule is read from DTSTART on; what was
  // read is kept (at most COUNT instances, with the DST drops met on the way), and extended only as far as
  // a query needs.
  const counted: Candidate[] = [];
  const countedDrops: PreviewDropped[] = [];
  let countedTo = dtWall - 1;
  let countGaveUp = false;
  const countedAfter = (after: number, last: number, drops: PreviewDropped[]): Candidate | null => {
    const limit = Math.min(untilMs, endAt);
    // With both passes of a repeated time, a later local time can give an earlier instant: read on until
    // no later local time can (`bounded`).
    let bounded = !both;
    for (;;) {
      let pending: number | null = null;
      for (const c of counted.slice(firstAfter(counted, after))) {
        if (excluded(c)) continue;
        pending = c.at;
        break;
      }
      const done = count === null || counted.length >= count || countedTo >= last;
      if (pending !== null && (done || bounded || countedTo - MAX_OFFSET >= pending)) {
        for (const c of counted.slice(firstAfter(counted, after))) {
          if (c.at > limit) {
            if (c.at > endAt && c.at <= untilMs) drops.push({ at: c.at, reason: 'afterEnd' });
            return null;
          }
          if (!excluded(c)) return c;
          drops.push({ at: c.at, reason: 'exdate' });
        }
      }
      if (done) {
        for (const c of counted.slice(firstAfter(counted, after)))
          if (excluded(c)) drops.push({ at: c.at, reason: 'exdate' });
        return null;
      }
      const how = scan(countedTo, last, (wall) => {
        if (pending !== null && earliestOf(wall) >= pending) return (bounded = true);
        countedTo = wall;
        for (const c of candidatesOf(wall, countedDrops)) {
          if (counted.length >= (count as number) || !insertSorted(counted, c)) continue;
          if (c.at > after && !excluded(c) && (pending === null || c.at < pending)) pending = c.at;
        }
        return counted.length >= (count as number) || (pending !== null && !both);
      });
      if (how !== 'found') {
        countedTo = last;
        if (how === 'limit') countGaveUp = true;
      }
    }
  };

  let end: SearchEnd = 'found';
  const ruleNext = (after: number, drops: PreviewDropped[]): Candidate | null => {
    // Local times before the local time of `after` give instants at or before it, except in a repeated
    // hour, whose second passes come after the first passes of later local times.
    const from = Math.max(
      after < dtWall - MAX_OFFSET * 2 ? dtWall - 1 : zone.wall(after) - repeatSpan(after) - 1,
      dtWall - 1,
    );
    const last = Math.min(lastWall, from + horizon);
    if (count !== null) {
      const found = countedAfter(after, last, drops);
      for (const d of countedDrops) drops.push(d);
      if (found !== null) end = 'found';
      else if (counted.length >= count || last < from + horizon) end = 'ended';
      else end = countGaveUp ? 'limit' : 'horizon';
      return found;
    }
    const limit = Math.min(untilMs, endAt);
    let best: Candidate | null = null;
    let ended = false;
    const how = scan(from, last, (wall) => {
      if (best !== null && earliestOf(wall) >= best.at) return true;
      for (const c of candidatesOf(wall, drops)) {
        if (c.at <= after) continue;
        if (c.at > limit) {
          if (c.at > endAt && c.at <= untilMs) drops.push({ at: c.at, reason: 'afterEnd' });
          ended = true;
          break;
        }
        if (excluded(c)) drops.push({ at: c.at, reason: 'exdate' });
        else if (best === null || c.at < best.at) best = c;
      }
      return ended || (best !== null && !both);
    });
    if (best !== null) end = 'found';
    else if (ended) end = 'ended';
    else end = how === 'limit' || last >= from + horizon ? how : 'ended';
    return best;
  };

  const nextDetailedAfter = (after: number, onDropped?: OnDropped): PreviewOccurrence | null => {
    if (Number.isNaN(after)) return null;
    const drops: PreviewDropped[] = [];
    const fromRule = ruleNext(after, drops);
    const r = rdates[firstAfter(rdates, after)];
    const fromRdate = r !== undefined && r.at <= endAt ? r : null;
    if (r !== undefined && fromRdate === null) drops.push({ at: r.at, reason: 'afterEnd' });
    const pick =
      fromRule === null || (fromRdate !== null && fromRdate.at < fromRule.at) ? fromRdate : fromRule;
    if (pick !== null) end = 'found';
    if (onDropped !== undefined) {
      const until = pick === null ? Infinity : pick.at;
      const seen = new Set<string>();
      const inRange = [...drops, ...rdateDrops]
        .filter((d) => d.at > after && d.at < until)
        .sort((a, b) => a.at - b.at);
      for (const d of inRange) {
        const k = `${d.at}:${d.reason}`;
        if (seen.has(k)) continue;
        seen.add(k);
        onDropped(d);
      }
    }
    return pick === null ? null : { at: pick.at, notes: pick.notes };
  };

  return { nextDetailedAfter, lastSearchEnd: () => end, horizonYears };
}
