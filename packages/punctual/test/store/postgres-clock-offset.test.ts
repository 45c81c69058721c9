// The clock offset's measurement (postgres-clock-offset.ts) against a server that reads the same clock as the
// process: the offset must come out 0 to a fraction of a millisecond, whatever fraction of its millisecond the
// local clock's whole-millisecond reading dropped. No database: the server is a fake that reads a clock.

import { describe, expect, it } from 'vitest';
import type { PgQueryable } from '../../src/store/postgres/postgres-driver.js';
import { measureClockOffset, subMillisecondClock } from '../../src/store/postgres/postgres-clock-offset.js';

/** A clock to the microsecond, `shift` ms ahead of the monotonic one (the fraction a ms reading drops). */
const exactClock = (shift: number) => (): number => performance.timeOrigin + performance.now() + shift;

/** A server whose clock_timestamp() is `clock` plus `aheadMs`. */
function serverReading(clock: () => number, aheadMs: number): PgQueryable {
  return {
    query: async () => ({ rows: [{ ms: clock() + aheadMs }], rowCount: 1 }),
  } as unknown as PgQueryable;
}

describe('measureClockOffset', () => {
  for (const aheadMs of [0, 250.25, -3_600_000]) {
    it(`finds a server ${aheadMs} ms ahead to a fraction of a millisecond, never above it, though the local clock reads whole milliseconds`, async () => {
      // Fractions of a millisecond spread over [0, 1): a local reading drops each of them in turn. Read in
      // whole milliseconds, the error was that fraction: up to 1 ms above, 0.5 on average.
      const errors: number[] = [];
      for (let i = 0; i < 20; i++) {
        const exact = exactClock(i / 20);
        const local = (): number => Math.floor(exact());
        const { offsetMs } = await measureClockOffset(serverReading(exact, aheadMs), local);
        errors.push(offsetMs - aheadMs);
      }
      // Above the true offset, a run would start before its instant by the local clock.
      expect(Math.max(...errors)).toBeLessThan(0.1);
      expect(errors.map(Math.abs).sort((a, b) => a - b)[10]).toBeLessThan(0.1);
    });
  }
});

describe('subMillisecondClock', () => {
  it('reads a whole-millisecond clock to a fraction of a millisecond', () => {
    const exact = exactClock(0.5);
    const local = subMillisecondClock(() => Math.floor(exact()));
    const ahead: number[] = [];
    for (let i = 0; i < 100; i++) {
      const before = exact();
      const reading = local();
      const after = exact();
      // Never behind the exact clock (the offset would come out high, and runs start early).
      expect(reading).toBeGreaterThanOrEqual(before - 0.001);
      ahead.push(reading - after);
    }
    expect(ahead.sort((a, b) => a - b)[50]).toBeLessThan(0.1);
  });

  it('reads a clock that does not move as it is (a test clock)', () => {
    const local = subMillisecondClock(() => 1_000);
    expect(local()).toBe(1_000);
  });
});
