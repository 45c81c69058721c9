// One-off specs: `@at <instant>` and `@in <duration>` (resolved to `@at` against the caller's `now`), and
// the wall-clock arithmetic they need (instant <-> local time in an IANA zone, via Intl only). Pure: it
// never reads a clock, performs no I/O and sets no timers; `now` always comes from the caller.

import { PunctualError } from '../../errors.js';
import { parseDuration } from './duration.js';

/** A local date and time in some zone; month 1-12. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The local wall time of an instant in `tz`. */
export function wallTimeOf(ms: number, tz: string): WallTime {
  const w: WallTime = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, millisecond: 0 };
  for (const p of formatter(tz).formatToParts(new Date(ms))) {
    if (p.type === 'year' || p.type === 'month' || p.type === 'day' || p.type === 'hour')
      w[p.type] = Number(p.value);
    else if (p.type === 'minute' || p.type === 'second') w[p.type] = Number(p.value);
  }
  w.millisecond = ((ms % 1000) + 1000) % 1000;
  return w;
}

/** The wall time read as if it were UTC, in epoch milliseconds. */
export function wallAsUtc(w: WallTime): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second, w.millisecond);
}

/** UTC offset of `tz` at an instant, in milliseconds (local minus UTC). */
export function offsetAt(ms: number, tz: string): number {
  return wallAsUtc(wallTimeOf(ms, tz)) - ms;
}

/**
 * Every instant whose local time in `tz` is `w`: none in a spring-forward gap, two in a repeated hour
 * (earlier first), one otherwise.
 */
export function instantsOfWallTime(w: WallTime, tz: string): number[] {
  const local = wallAsUtc(w);
  const offsets = new Set([-DAY_MS, -DAY_MS / 2, 0, DAY_MS / 2, DAY_MS].map((d) => offsetAt(local + d, tz)));
  const found = new Set<number>();
  for (const o of offsets) if (offsetAt(local - o, tz) === o) found.add(local - o);
  return [...found].sort((a, b) => a - b);
}

/**
 * The instant of a local time in `tz`, "compatible" style: a repeated time gives its first pass, a time in
 * a gap is read with the offset in force before the gap (02:30 in a 02:00->03:00 gap gives 03:30).
 */
export function instantOfWallTime(w: WallTime, tz: string): number {
  const all = instantsOfWallTime(w, tz);
  if (all[0] !== undefined) return all[0];
  const local = wallAsUtc(w);
  return local - offsetAt(local - DAY_MS, tz);
}

const pad = (n: number, size = 2): string => String(n).padStart(size, '0');

/** "2026-03-08 03:00" (seconds and milliseconds only when not zero). */
export function formatWallTime(w: WallTime): string {
  let s = `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}`;
  if (w.second !== 0 || w.millisecond !== 0) s += `:${pad(w.second)}`;
  if (w.millisecond !== 0) s += `.${pad(w.millisecond, 3)}`;
  return s;
}

export interface AtSpec {
  kind: 'at';
  /** `@at <ISO UTC with milliseconds>` */
  source: string;
  instant: number;
  description: string;
}

const ISO_RE =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const EPOCH_RE = /^\d{1,12}(?:\.\d{1,3})?$/;
const MAX_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function invalid(text: string, why: string): PunctualError {
  return new PunctualError('SPEC_INVALID', `@at "${text}" ${why}`, {
    field: 'spec',
    part: 'at',
    value: text,
  });
}

function parseIsoInstant(text: string, tz: string): number {
  const m = ISO_RE.exec(text);
  if (m === null) {
    throw invalid(
      text,
      'is not an ISO-8601 date-time (2026-03-08T09:00:00Z, 2026-03-08T09:00+01:00) or epoch seconds',
    );
  }
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = m
    .slice(1, 7)
    .map((v) => Number(v ?? 0));
  const millisecond = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (year < 1970) throw invalid(text, 'is before 1970');
  if (month < 1 || month > 12) throw invalid(text, `has month ${month} (1-12)`);
  if (day < 1 || day > daysInMonth)
    throw invalid(text, `has day ${day}, but that month has ${daysInMonth} days`);
  if (hour > 23 || minute > 59 || second > 59) throw invalid(text, 'has a time of day out of range');
  const w: WallTime = { year, month, day, hour, minute, second, millisecond };
  const zone = m[8];
  if (zone === undefined) return instantOfWallTime(w, tz);
  if (zone.toUpperCase() === 'Z') return wallAsUtc(w);
  const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone) as RegExpExecArray;
  const offset = (Number(z[2]) * 60 + Number(z[3] ?? 0)) * 60_000 * (z[1] === '-' ? -1 : 1);
  if (Math.abs(offset) > 18 * 3_600_000) throw invalid(text, `has an offset ${zone} beyond ±18:00`);
  return wallAsUtc(w) - offset;
}

/**
 * Compiles `@at <ISO-8601 | epoch seconds>` or `@in <duration>`. An ISO text without offset is local time
 * in `tz`. `@in d` becomes `@at <now + d>`. The source is normalised to `@at <UTC ISO with ms>`.
 */
export function compileAtSpec(spec: string, opts: { tz: string; now: number }): AtSpec {
  const m = /^@(at|in)\s+(.+)$/is.exec(spec.trim());
  if (m === null) throw invalid(spec, 'needs an instant after @at (or a duration after @in)');
  const form = (m[1] as string).toLowerCase();
  const arg = (m[2] as string).trim();
  let instant: number;
  if (form === 'in') {
    try {
      instant = opts.now + parseDuration(arg);
    } catch (e) {
      if (e instanceof PunctualError) {
        throw new PunctualError(e.code, `@in: ${e.message}`, { field: 'spec', part: 'in', value: arg });
      }
      throw e;
    }
  } else if (EPOCH_RE.test(arg)) {
    instant = Math.round(Number(arg) * 1000);
  } else {
    instant = parseIsoInstant(arg, opts.tz);
  }
  if (!Number.isFinite(instant) || instant < 0 || instant > MAX_INSTANT) {
    throw invalid(arg, 'is outside the years 1970-9999');
  }
  return {
    kind: 'at',
    source: `@at ${new Date(instant).toISOString()}`,
    instant,
    description: `Once at ${formatWallTime(wallTimeOf(instant, opts.tz))}, ${opts.tz}`,
  };
}
