// The pace probe: a first delivery that ends slow, or is still running `waitMs` after it began, hands back the
// buffered runs beyond what the slots get through in `waitMs` (those that would start last); a fast first
// delivery disarms the probe's timer and hands back nothing; a stopping worker's probe does nothing.

import { describe, expect, it } from 'vitest';
import type { InFlight } from '../../src/engine/in-flight.js';
import { claimedFlight } from '../../src/engine/in-flight.js';
import { PaceProbe } from '../../src/engine/pace-probe.js';
import { PrefetchBuffer } from '../../src/engine/prefetch-buffer.js';
import { PrefetchSizer } from '../../src/engine/prefetch-sizer.js';
import type { ClaimedRun } from '../../src/store/store.js';
import { runningRun, T0 } from '../support/fixtures.js';
import { TestClock } from '../support/test-clock.js';

const WAIT_MS = 100;

function probe(held: number): {
  pace: PaceProbe;
  clock: TestClock;
  buffer: PrefetchBuffer;
  handedBack: string[];
  stopping: { now: boolean };
} {
  const clock = new TestClock(T0);
  const buffer = new PrefetchBuffer(clock, () => {});
  // One slot: in 100 ms at 200 ms a delivery, the slot gets through the floor of 2 runs.
  const sizer = new PrefetchSizer({ concurrency: 1, min: 2, max: 1000, waitMs: WAIT_MS, aheadMs: 2000 });
  sizer.claimed(true);
  for (let i = 0; i < held; i++) {
    // All due (none ahead), so the buffer arms no timer of its own.
    const dueAt = T0 - held + i;
    const claimed = { run: runningRun({ id: String(i), dueAt, scheduledFor: dueAt }) };
    buffer.push(claimedFlight(claimed as ClaimedRun, T0, 30_000));
  }
  const handedBack: string[] = [];
  const stopping = { now: false };
  const pace = new PaceProbe(clock, sizer, buffer, WAIT_MS, {
    stopping: () => stopping.now,
    handBack: (f: InFlight) => handedBack.push(f.claimed.run.id),
  });
  return { pace, clock, buffer, handedBack, stopping };
}

describe('PaceProbe', () => {
  it('a first delivery still running after waitMs hands back the runs that would start last', async () => {
    const { pace, clock, buffer, handedBack } = probe(10);
    pace.started(clock.now());
    await clock.advance(WAIT_MS - 1);
    expect(handedBack).toEqual([]);
    await clock.advance(1);
    expect(handedBack.sort()).toEqual(['2', '3', '4', '5', '6', '7', '8', '9']);
    expect(buffer.length).toBe(2);
    // The pace is known: the delivery ending later hands back nothing more, and no new probe is armed.
    pace.ended(250, clock.now());
    pace.started(clock.now());
    expect(clock.pending).toBe(0);
    expect(handedBack).toHaveLength(8);
  });

  it('a first delivery that ends slow before the timer hands back at once and disarms it', async () => {
    const { pace, clock, handedBack } = probe(6);
    pace.started(clock.now());
    pace.ended(150, clock.now()); // a delivery timed by another clock (the engine's is whole ms)
    expect(handedBack).toHaveLength(4);
    expect(clock.pending).toBe(0);
  });

  it('a fast first delivery hands back nothing and disarms the timer', async () => {
    const { pace, clock, handedBack } = probe(6);
    pace.started(clock.now());
    expect(clock.pending).toBe(1);
    await clock.advance(3);
    pace.ended(3, clock.now());
    expect(clock.pending).toBe(0);
    await clock.advance(WAIT_MS);
    expect(handedBack).toEqual([]);
  });

  it('a stopping worker cancels the probe, and a timer firing while it stops does nothing', async () => {
    const cancelled = probe(6);
    cancelled.pace.started(cancelled.clock.now());
    cancelled.pace.cancel();
    expect(cancelled.clock.pending).toBe(0);

    const { pace, clock, handedBack, stopping } = probe(6);
    pace.started(clock.now());
    stopping.now = true;
    await clock.advance(WAIT_MS);
    expect(handedBack).toEqual([]);
  });
});
