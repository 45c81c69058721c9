// Measures the offset between this process's clock and the PostgreSQL server's, so every instance can
// correct its Clock to one shared time base. This is the one place the store reads the local clock, and only
// to measure it: the result never decides anything inside the store.

import type { PgQueryable } from './postgres-driver.js';

export interface ClockOffset {
  /** Server time minus local time, in milliseconds (add it to local time to get server time). */
  offsetMs: number;
  /** Round trip of the sample the offset was taken from. */
  rttMs: number;
}

/** Longest time spent learning the local clock's fraction of a millisecond. */
const TICK_WAIT_MS = 3;
/** Precision at which that fraction is known: the local clock is then read at most this far ahead. */
const TICK_GAP_MS = 0.05;

/**
 * The local clock read to a fraction of a millisecond. `Date.now()` drops the fraction: a sample read through
 * it is up to 1 ms early, so the offset came out that much too large (0.5 ms on average), and rounded to the
 * millisecond it was 1 half the time on a machine whose clock is the server's own, which started runs a
 * millisecond before their instant by the local clock. So `localNow()` is read in a loop, each reading
 * between two readings of the monotonic clock, until the readings pin the local clock's distance from the
 * monotonic one to TICK_GAP_MS (a change of millisecond seen between two close readings does), or for at
 * most TICK_WAIT_MS (a pause of the process between two readings only loosens that reading's bounds). The
 * upper bound is kept: the local clock is read ahead by at most what is left of the bounds' gap, so the offset
 * errs low and runs start late by as much, never early. A clock that did not change in that time (a test's
 * fixed clock), or moved unlike a millisecond clock, is read as it is.
 */
export function subMillisecondClock(localNow: () => number): () => number {
  const start = performance.now();
  const first = localNow();
  // Bounds on the local clock minus the monotonic one: a reading r taken between monotonic instants b and a
  // says r <= t + d < r + 1 for some t in [b, a].
  let low = -Infinity;
  let high = Infinity;
  let changed = false;
  for (let before = performance.now(); before - start <= TICK_WAIT_MS;) {
    const reading = localNow();
    const after = performance.now();
    changed ||= reading !== first;
    low = Math.max(low, reading - after);
    high = Math.min(high, reading + 1 - before);
    if (high < low) return localNow;
    if (changed && high - low < TICK_GAP_MS) break;
    before = after;
  }
  return changed ? () => performance.now() + high : localNow;
}

/**
 * Samples the server's clock_timestamp() `samples` times and keeps the sample with the shortest round trip,
 * assuming the server read its clock halfway through it. `localNow` is the clock being corrected.
 */
export async function measureClockOffset(
  db: PgQueryable,
  localNow: () => number = Date.now,
  samples = 5,
): Promise<ClockOffset> {
  const local = subMillisecondClock(localNow);
  let best: ClockOffset | undefined;
  for (let i = 0; i < Math.max(1, samples); i++) {
    // The caller's clock for the instant (what the engine reads), the monotonic clock for the round trip,
    // read first: a pause between the two then lengthens the round trip, which makes the offset lower (runs
    // late), not higher (runs early), and the sample less likely to be kept.
    const t0 = performance.now();
    const wall0 = local();
    const { rows } = await db.query<{ ms: string | number }>(
      `SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms`,
    );
    const rttMs = performance.now() - t0;
    const sample = { offsetMs: Number(rows[0]!.ms) - (wall0 + rttMs / 2), rttMs };
    if (best === undefined || sample.rttMs < best.rttMs) best = sample;
  }
  return best!;
}
