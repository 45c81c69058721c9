// A zone's UTC offsets, fast enough to ask for every occurrence: the offset at an instant, the local time of
// an instant, the instants of a local time (none in a DST gap, two in a repeated hour) and where a gap ends.
// Local times are "wall milliseconds": the local date-time read as if it were UTC. Pure: no I/O, no clock.

import { offsetAt } from './at-spec.js';

const DAY = 86_400_000;

/** Zones that are UTC itself: no offset, no transitions. */
export const UTC_ZONES = new Set([
  'UTC',
  'Etc/UTC',
  'Etc/UCT',
  'Etc/Universal',
  'Etc/Zulu',
  'Etc/GMT',
  'GMT',
]);

export interface ZoneOffsets {
  /** Local minus UTC at an instant, in ms. */
  offset(t: number): number;
  /** The local time of an instant, as wall milliseconds. */
  wall(t: number): number;
  /** The instants whose local time is `wall`, earliest first: none in a gap, two in a repeated hour. */
  instantsOf(wall: number): number[];
  /** For a local time in a gap: the instant the gap ends (the first local time after it). */
  gapEnd(wall: number): number;
  /** Wall milliseconds as 'YYYY-MM-DDTHH:mm:ss'. */
  format(wall: number): string;
}

/**
 * The offsets of `tz`, remembered per UTC day: the offsets at both ends of the day and the instant of the
 * change between them, found by bisection (no zone changes twice within one day). A series maps thousands
 * of local times; Intl is asked a few times per day instead of per time.
 */
export function zoneOffsets(tz: string): ZoneOffsets {
  const utc = UTC_ZONES.has(tz);
  const days = new Map<number, { start: number; change: number; after: number }>();
  const offset = (t: number): number => {
    if (utc) return 0;
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
  const instantsOf = (wall: number): number[] => {
    if (utc) return [wall];
    const found: number[] = [];
    for (const d of [-DAY, -DAY / 2, 0, DAY / 2, DAY]) {
      const o = offset(wall + d);
      const t = wall - o;
      if (offset(t) === o && !found.includes(t)) found.push(t);
    }
    return found.sort((a, b) => a - b);
  };
  const gapEnd = (wall: number): number => {
    const before = offset(wall - DAY);
    const after = offset(wall + DAY);
    // wall - after still has the offset before the gap; wall - before already the one after it.
    let lo = wall - Math.max(before, after);
    let hi = wall - Math.min(before, after);
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offset(mid) === offset(lo)) lo = mid;
      else hi = mid;
    }
    return hi;
  };
  return {
    offset,
    wall: (t) => t + offset(t),
    instantsOf,
    gapEnd,
    format: formatWallMs,
  };
}

/** Wall milliseconds as 'YYYY-MM-DDTHH:mm:ss' (the local wall-clock form of preview notes). */
export function formatWallMs(wall: number): string {
  return new Date(wall).toISOString().slice(0, 19);
}
