// The schedule form's text conversions, free of React: durations as typed ("1h30m", "250ms", a bare number of
// milliseconds) to and from milliseconds, and webhook headers as "Name: value" lines. Pure.

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  min: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * Milliseconds from "1500", "30s", "5m", "1h30m", "2d", "250ms"; null when the text is not a duration.
 * A bare number is milliseconds.
 */
export function parseDurationText(text: string): number | null {
  const t = text.trim().toLowerCase().replace(/\s+/g, '');
  if (t === '') return null;
  if (/^\d+$/.test(t)) return Number(t);
  const re = /(\d+(?:\.\d+)?)(ms|min|s|m|h|d)/y;
  let total = 0;
  let pos = 0;
  while (pos < t.length) {
    re.lastIndex = pos;
    const m = re.exec(t);
    if (!m) return null;
    total += Number(m[1]) * (UNITS[m[2] as string] as number);
    pos = re.lastIndex;
  }
  return Math.round(total);
}

/** The shortest exact form of `ms` in units: 5400000 → "1h30m", 1500 → "1s500ms", 0 → "0". */
export function formatDurationText(ms: number): string {
  if (ms === 0) return '0';
  let rest = ms;
  let out = '';
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
    ['ms', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) {
      out += `${n}${unit}`;
      rest -= n * size;
    }
  }
  return out;
}

export function headersText(h: Record<string, string> | undefined): string {
  return h
    ? Object.entries(h)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n')
    : '';
}

/** `Name: value` lines to a record, or a message naming the first line that is not one. */
export function parseHeaders(text: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) return `line ${i + 1} must read "Name: value"`;
    out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}

/** A command's variables as `NAME=value` lines. */
export function envText(env: Record<string, string> | undefined): string {
  return env
    ? Object.entries(env)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n')
    : '';
}

/** `NAME=value` lines to a record (the value as typed), or a message naming the first line that is not one. */
export function parseEnv(text: string): Record<string, string> | string {
  const out: Record<string, string> = {};
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const eq = line.indexOf('=');
    if (eq <= 0) return `line ${i + 1} must read "NAME=value"`;
    out[line.slice(0, eq).trim()] = line.slice(eq + 1);
  }
  return out;
}
