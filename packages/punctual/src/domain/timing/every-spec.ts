// Fixed-interval specs: `@every <duration>`. Occurrences are anchor + k * interval in absolute
// milliseconds, so time zones and DST never move them, and nextAfter is O(1) arithmetic (no loops).
// Pure: no I/O, no clock reads, no timers; the anchor is always given by the caller.

import { PunctualError } from '../../errors.js';
import { formatDuration, parseDuration } from './duration.js';

export const MIN_EVERY_MS = 1_000;

export interface EverySpec {
  kind: 'every';
  source: string;
  intervalMs: number;
  anchor: number;
  /** k of the first occurrence: 0 when the anchor itself is an occurrence (startAt given), else 1. */
  firstK: 0 | 1;
  nextAfter(after: number): number | null;
  description: string;
}

/**
 * Compiles `@every <duration>`. With `includeAnchor` (the anchor is the schedule's startAt) the first
 * occurrence is the anchor itself; otherwise (the anchor is the creation instant) it is anchor + interval.
 */
export function compileEverySpec(spec: string, opts: { anchor: number; includeAnchor: boolean }): EverySpec {
  const m = /^@every(?:\s+(.*))?$/is.exec(spec.trim());
  const arg = (m?.[1] ?? '').trim();
  if (arg === '') {
    throw new PunctualError('SPEC_INVALID', '@every needs a duration, e.g. "@every 15m"', {
      field: 'spec',
      part: 'every',
      value: spec,
    });
  }
  let intervalMs: number;
  try {
    intervalMs = parseDuration(arg);
  } catch (e) {
    if (e instanceof PunctualError) {
      throw new PunctualError(e.code, `@every: ${e.message}`, { field: 'spec', part: 'every', value: arg });
    }
    throw e;
  }
  if (intervalMs < MIN_EVERY_MS) {
    throw new PunctualError('DURATION_INVALID', `@every: the interval must be at least 1s (got "${arg}")`, {
      field: 'spec',
      part: 'every',
      value: arg,
    });
  }
  const anchor = opts.anchor;
  const firstK = opts.includeAnchor ? 0 : 1;
  const first = anchor + firstK * intervalMs;
  return {
    kind: 'every',
    source: `@every ${arg}`,
    intervalMs,
    anchor,
    firstK,
    nextAfter(after: number): number | null {
      if (Number.isNaN(after)) return null;
      if (after < first) return first;
      const k = Math.floor((after - anchor) / intervalMs) + 1;
      const next = anchor + k * intervalMs;
      return Number.isFinite(next) ? next : null;
    },
    description: `Every ${formatDuration(intervalMs)}`,
  };
}
