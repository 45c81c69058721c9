// A cron spec's occurrences under a schedule's DST choice, each with its notes. Vixie cron (what croner
// computes) is the base: a fixed-time job whose time falls in a spring-forward gap runs once right after the
// gap, and in a repeated hour once, on the first pass; wildcard jobs run every real hour. The choice changes
// fixed-time jobs only: `gap: "skip"` drops the run moved out of a gap, `repeat: "both"` adds the second
// pass of each repeated time. Wildcard jobs are unaffected (their times are annotated all the same).
// Pure: no I/O, no clock reads, no timers; every search is bounded by croner's own year cap.

import type { OnDropped } from './compiled-spec.js';
import { expandCronField, type CronSpec } from './cron-spec.js';
import type { DstChoice } from './dst-choice.js';
import type { PreviewNote, PreviewOccurrence } from './preview-note.js';
import { UTC_ZONES, zoneOffsets } from './zone-offsets.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** A gap that skips only dropped runs is searched past at most this many times (croner caps years too). */
const MAX_SKIPS = 10_000;

export type DetailedNext = (after: number, onDropped?: OnDropped) => PreviewOccurrence | null;

/** The detailed search of a compiled cron spec in `tz` under `dst`. */
export function cronWithDst(cron: CronSpec, tz: string, dst: DstChoice): DetailedNext {
  if (UTC_ZONES.has(tz)) {
    return (after) => {
      const t = cron.nextAfter(after);
      return t === null ? null : { at: t, notes: [] };
    };
  }
  const zone = zoneOffsets(tz);
  const fixed = cron.timeClass === 'fixed-time';
  const hours = expandCronField('hour', cron.fields.hour);
  const minutes = expandCronField('minute', cron.fields.minute);
  const seconds = expandCronField('second', cron.fields.second);
  const hourSet = new Set(hours);
  const minuteSet = new Set(minutes);
  const secondSet = new Set(seconds);

  const nearChange = (t: number): boolean => {
    const o = zone.offset(t);
    return zone.offset(t - DAY) !== o || zone.offset(t + DAY) !== o;
  };
  const matchesTime = (wall: number): boolean => {
    const d = new Date(wall);
    return (
      hourSet.has(d.getUTCHours()) && minuteSet.has(d.getUTCMinutes()) && secondSet.has(d.getUTCSeconds())
    );
  };
  /** The first time of the job inside the gap that ends at `end` (the local time it asked for). */
  const askedIn = (end: number): string => {
    const ge = zone.wall(end);
    const gs = ge - (zone.offset(end) - zone.offset(end - 1));
    const base = Math.floor(gs / DAY) * DAY;
    for (let day = base; day < ge; day += DAY) {
      for (const h of hours) {
        if (day + h * HOUR >= ge) break;
        for (const m of minutes) {
          for (const s of seconds) {
            const w = day + h * HOUR + m * 60_000 + s * 1000;
            if (w >= gs && w < ge) return zone.format(w);
          }
        }
      }
    }
    return zone.format(gs);
  };
  /** 1 or 2 when the local time of `t` occurs twice, else null. */
  const passOf = (t: number): 1 | 2 | null => {
    if (!nearChange(t)) return null;
    const all = zone.instantsOf(zone.wall(t));
    return all.length === 2 ? (t === all[0] ? 1 : 2) : null;
  };
  /** A fall-back change `x` of `d` ms such that `t` lies in the repeated span [x - d, x + d). */
  const repeatAround = (t: number): { x: number; d: number } | null => {
    const before = zone.offset(t - DAY);
    const after = zone.offset(t + DAY);
    if (before <= after) return null;
    let lo = t - DAY;
    let hi = t + DAY;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (zone.offset(mid) === before) lo = mid;
      else hi = mid;
    }
    const d = before - after;
    return t >= hi - d && t < hi + d ? { x: hi, d } : null;
  };
  /** Second passes of the job's repeated times in (from, until): croner yields first passes only. */
  const secondPasses = (from: number, until: number | null): number[] => {
    const r = repeatAround(from);
    if (r === null) return [];
    const out: number[] = [];
    for (let f = cron.nextAfter(r.x - r.d - 1); f !== null && f < r.x; f = cron.nextAfter(f)) {
      const s = f + r.d;
      if (s > from && (until === null || s < until)) out.push(s);
    }
    return out;
  };

  return (after, onDropped) => {
    let from = after;
    for (let i = 0; i < MAX_SKIPS; i++) {
      const c = cron.nextAfter(from);
      if (fixed) {
        for (const s of secondPasses(from, c)) {
          if (dst.repeat === 'both') return { at: s, notes: [{ kind: 'dstRepeat', pass: 2 }] };
          onDropped?.({ at: s, reason: 'dstRepeat' });
        }
      }
      if (c === null) return null;
      const notes: PreviewNote[] = [];
      if (fixed && nearChange(c) && !matchesTime(zone.wall(c))) {
        if (dst.gap === 'skip') {
          onDropped?.({ at: c, reason: 'dstGap' });
          from = c;
          continue;
        }
        notes.push({ kind: 'dstShifted', asked: askedIn(c), used: zone.format(zone.wall(c)) });
      }
      const pass = passOf(c);
      if (pass !== null) notes.push({ kind: 'dstRepeat', pass });
      return { at: c, notes };
    }
    return null;
  };
}
