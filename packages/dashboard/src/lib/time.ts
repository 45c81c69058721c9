// Time and zone formatting for the dashboard, with Intl only: every instant shown names its zone
// ("Mon 2026-03-09 02:30:00 -04:00 America/New_York"), wall times typed in a zone become instants, and
// durations and relative times read the same everywhere. Pure: `now` is always passed in.

const partsCache = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(tz: string): Intl.DateTimeFormat {
  let f = partsCache.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
    });
    partsCache.set(tz, f);
  }
  return f;
}

/** The viewer's own IANA zone (UTC when the browser does not say). */
export function viewerZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** True when `tz` names a zone this browser knows. */
export function isValidZone(tz: string): boolean {
  if (tz.trim() === '') return false;
  try {
    partsFormatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** Every IANA zone the browser knows, UTC first. */
export function zoneNames(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? [];
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
}

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  weekday: string;
}

/** The wall-clock reading of instant `ms` in zone `tz`. */
export function wallTime(ms: number, tz: string): WallTime {
  const parts: Record<string, string> = {};
  for (const p of partsFormatter(tz).formatToParts(new Date(ms))) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: parts.weekday ?? '',
  };
}

/** Offset of zone `tz` from UTC at instant `ms`, in minutes (east positive: Paris in winter is 60). */
export function zoneOffsetMinutes(ms: number, tz: string): number {
  const w = wallTime(ms, tz);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const whole = Math.floor(ms / 1000) * 1000;
  return Math.round((asUtc - whole) / 60_000);
}

/** "+02:00", "-04:00", "+05:30"; "+00:00" for UTC. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

export function toMs(instant: string | number | Date): number {
  if (typeof instant === 'number') return instant;
  if (instant instanceof Date) return instant.getTime();
  return Date.parse(instant);
}

export interface FormatOptions {
  /** Show the weekday first (default true). */
  weekday?: boolean;
  /** Show seconds (default true). */
  seconds?: boolean;
  /** Show the zone name after the offset (default true). */
  zoneName?: boolean;
}

/**
 * An instant as read in zone `tz`, always with its offset and zone:
 * `Mon 2026-03-09 02:30:00 -04:00 America/New_York`. An unknown zone falls back to UTC (and says so).
 */
export function formatInstant(instant: string | number | Date, tz: string, opts: FormatOptions = {}): string {
  const ms = toMs(instant);
  if (!Number.isFinite(ms)) return 'invalid time';
  const zone = isValidZone(tz) ? tz : 'UTC';
  const w = wallTime(ms, zone);
  const date = `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
  const time = `${pad(w.hour)}:${pad(w.minute)}${opts.seconds === false ? '' : `:${pad(w.second)}`}`;
  const offset = formatOffset(zoneOffsetMinutes(ms, zone));
  const head = opts.weekday === false ? '' : `${w.weekday} `;
  return `${head}${date} ${time} ${offset}${opts.zoneName === false ? '' : ` ${zone}`}`;
}

/** "in 5 min", "3 h ago", "just now", "in 2 d". */
export function formatRelative(instant: string | number | Date, now: number): string {
  const ms = toMs(instant);
  if (!Number.isFinite(ms)) return '';
  const diff = ms - now;
  const abs = Math.abs(diff);
  if (abs < 1_000) return 'just now';
  const text = coarseDuration(abs);
  return diff > 0 ? `in ${text}` : `${text} ago`;
}

function coarseDuration(abs: number): string {
  if (abs < 60_000) return `${Math.round(abs / 1000)} s`;
  if (abs < 3_600_000) return `${Math.round(abs / 60_000)} min`;
  if (abs < 86_400_000) return `${Math.round(abs / 3_600_000)} h`;
  return `${Math.round(abs / 86_400_000)} d`;
}

/** A duration for people: "850 ms", "1.25 s", "3 min 5 s", "2 h 3 min", "1 d 2 h". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  if (abs < 1_000) return `${sign}${Math.round(abs)} ms`;
  if (abs < 60_000) return `${sign}${trim(abs / 1000)} s`;
  const s = Math.round(abs / 1000);
  if (s < 3_600) return `${sign}${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const m = Math.round(s / 60);
  if (m < 1_440) return `${sign}${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
  const h = Math.round(m / 60);
  return `${sign}${Math.floor(h / 24)} d${h % 24 ? ` ${h % 24} h` : ''}`;
}

/** A number of seconds (as charts hold them) as a duration for people. */
export function formatSeconds(seconds: number): string {
  return formatDuration(seconds * 1000);
}

function trim(n: number): string {
  return n.toFixed(n < 10 ? 2 : 1).replace(/\.?0+$/, '');
}

const WALL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * The instant at which zone `tz` reads the wall time `wall` ("2026-03-08T02:30", the value of a
 * datetime-local input). A wall time in a spring-forward gap moves forward by the gap (02:30 → 03:30); in a
 * repeated hour the earlier instant is chosen. Null when `wall` or `tz` is not valid.
 */
export function wallTimeToInstant(wall: string, tz: string): number | null {
  const m = WALL.exec(wall.trim());
  if (!m || !isValidZone(tz)) return null;
  const [, y, mo, d, h, mi, s] = m;
  const asUtc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  if (!Number.isFinite(asUtc)) return null;
  // Try the offsets in force a day either side; keep candidates that read back as the wall time.
  const offsets = new Set([
    zoneOffsetMinutes(asUtc - 86_400_000, tz),
    zoneOffsetMinutes(asUtc + 86_400_000, tz),
  ]);
  const exact: number[] = [];
  for (const off of offsets) {
    const t = asUtc - off * 60_000;
    if (zoneOffsetMinutes(t, tz) === off) exact.push(t);
  }
  if (exact.length > 0) return Math.min(...exact);
  // In a gap: no instant reads as `wall`; use the offset before the gap, which lands after it.
  return asUtc - zoneOffsetMinutes(asUtc - 86_400_000, tz) * 60_000;
}

/**
 * The ISO 8601 wall time ("2026-03-08T09:00", with ":SS" only when the seconds are not zero) reading instant
 * `ms` in zone `tz`.
 */
export function instantToWallTime(ms: number, tz: string): string {
  const w = wallTime(ms, isValidZone(tz) ? tz : 'UTC');
  const seconds = w.second === 0 ? '' : `:${pad(w.second)}`;
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}${seconds}`;
}

/**
 * A chart's time-axis label in zone `tz`, as precise as the axis' `spanMs` needs: "14:05", "11-22 14:05",
 * "2026-11-22". The axis title names the zone.
 */
export function axisTimeLabel(ms: number, tz: string, spanMs: number): string {
  const w = wallTime(ms, isValidZone(tz) ? tz : 'UTC');
  const hm = `${pad(w.hour)}:${pad(w.minute)}`;
  if (spanMs <= 86_400_000) return hm;
  if (spanMs <= 7 * 86_400_000) return `${pad(w.month)}-${pad(w.day)} ${hm}`;
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;
}

/** ISO-8601 UTC with milliseconds, as the API writes instants. */
export function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}
