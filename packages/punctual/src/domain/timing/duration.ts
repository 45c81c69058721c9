// Durations: parses the text forms users write ("90s", "1h30m", "PT15M") into milliseconds and formats
// milliseconds back into words for descriptions. Pure string arithmetic: no I/O, no clock, no timers.
// Calendar units (years, months) are refused because they have no fixed length in milliseconds.

import { PunctualError } from '../../errors.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

/** The longest duration accepted anywhere: 366 days. */
export const MAX_DURATION_MS = 366 * DAY;

const GO_UNITS: Record<string, number> = { ms: 1, s: SECOND, m: MINUTE, h: HOUR, d: DAY, w: WEEK };
const GO_PART = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)(?![A-Za-z])\s*/gy;
const ISO =
  /^P(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/;

function invalid(text: string, why: string): PunctualError {
  return new PunctualError('DURATION_INVALID', `duration "${text}" ${why}`, { value: text });
}

function checkRange(text: string, ms: number): number {
  const rounded = Math.round(ms);
  if (!Number.isFinite(ms) || rounded <= 0) throw invalid(text, 'must be greater than zero');
  if (rounded > MAX_DURATION_MS) throw invalid(text, 'must not be longer than 366 days');
  return rounded;
}

function parseIso(text: string): number {
  const upper = text.toUpperCase();
  const datePart = upper.split('T')[0] ?? '';
  if (/[YM]/.test(datePart.slice(1))) {
    throw invalid(text, 'uses years or months, which have no fixed length; use weeks (W) or days (D)');
  }
  const m = ISO.exec(upper);
  if (m === null || upper === 'P' || upper.endsWith('T')) {
    throw invalid(text, 'is not an ISO-8601 duration such as PT15M, P1DT2H or PT0.5S');
  }
  const num = (s: string | undefined): number => (s === undefined ? 0 : Number(s.replace(',', '.')));
  return num(m[1]) * WEEK + num(m[2]) * DAY + num(m[3]) * HOUR + num(m[4]) * MINUTE + num(m[5]) * SECOND;
}

function parseGo(text: string): number {
  GO_PART.lastIndex = 0;
  let total = 0;
  let end = 0;
  const seen = new Set<string>();
  for (let m = GO_PART.exec(text); m !== null; m = GO_PART.exec(text)) {
    const [, amount, unit] = m as unknown as [string, string, string];
    if (seen.has(unit)) throw invalid(text, `gives the unit "${unit}" twice`);
    seen.add(unit);
    total += Number(amount) * (GO_UNITS[unit] as number);
    end = GO_PART.lastIndex;
  }
  if (end !== text.length || seen.size === 0) {
    const rest = text.slice(end);
    const unit = /^\d+(?:\.\d+)?\s*([A-Za-z]+)/.exec(rest)?.[1];
    throw invalid(
      text,
      unit !== undefined
        ? `has an unknown unit "${unit}" (use ms, s, m, h, d, w)`
        : `is not understood near "${rest}" (examples: 90s, 1h30m, 500ms, PT15M)`,
    );
  }
  return total;
}

/**
 * Parses a duration into milliseconds: `90s`, `1h30m`, `1d2h`, `500ms`, `2w` (also `1h 30m`, and decimals
 * such as `1.5h`) or ISO-8601 `PT15M`, `P1DT2H`, `PT0.5S`, `P2W`. Must be positive and at most 366 days.
 */
export function parseDuration(text: string): number {
  if (typeof text !== 'string') throw invalid(String(text), 'must be a string');
  const t = text.trim();
  if (t === '') throw invalid(text, 'is empty');
  if (t.startsWith('-')) throw invalid(text, 'must not be negative');
  const ms = /^p/i.test(t) ? parseIso(t) : parseGo(t);
  return checkRange(text, ms);
}

/** Formats milliseconds for descriptions: "1h 30m", "2d 4h", "1m 30s", "500ms" (parts d, h, m, s, ms). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '0s';
  let rest = Math.round(ms);
  const parts: string[] = [];
  for (const [unit, size] of [
    ['d', DAY],
    ['h', HOUR],
    ['m', MINUTE],
    ['s', SECOND],
    ['ms', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    if (n > 0) parts.push(`${n}${unit}`);
    rest -= n * size;
  }
  return parts.join(' ');
}
