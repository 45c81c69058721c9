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

/**
 * Samples the server's clock_timestamp() `samples` times and keeps the sample with the shortest round trip,
 * assuming the server read its clock halfway through it. `localNow` is the clock being corrected.
 */
export async function measureClockOffset(
  db: PgQueryable,
  localNow: () => number = Date.now,
  samples = 5,
): Promise<ClockOffset> {
  let best: ClockOffset | undefined;
  for (let i = 0; i < Math.max(1, samples); i++) {
    // The caller's clock for the instant (what the engine reads), the monotonic clock for the round trip.
    const wall0 = localNow();
    const t0 = performance.now();
    const { rows } = await db.query<{ ms: string | number }>(
      `SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms`,
    );
    const rttMs = performance.now() - t0;
    const sample = { offsetMs: Number(rows[0]!.ms) - (wall0 + rttMs / 2), rttMs };
    if (best === undefined || sample.rttMs < best.rttMs) best = sample;
  }
  return best!;
}
