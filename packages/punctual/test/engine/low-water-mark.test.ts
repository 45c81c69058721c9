// The materializer's low-water mark: after a step that ends caught up, claims start at its first horizon (or
// an earlier next occurrence it wrote), after one cut short where its chains got to; an announced change
// lowers the mark; a failed step, or a step that must look at everything, claims from the first entry, and
// so does one step every fullScanMs, which finds a schedule below the mark that nobody announced (here a
// claim by a crashed instance that lapsed).

import { afterEach, describe, expect, it } from 'vitest';
import { LowWaterMark } from '../../src/engine/low-water-mark.js';
import { harness, type Harness } from '../support/harness.js';

describe('LowWaterMark', () => {
  it('starts unbounded, then claims from the first horizon of the last caught-up step', () => {
    const m = new LowWaterMark(5_000);
    expect(m.begin(0)).toBeUndefined();
    m.horizon(10_000);
    m.horizon(12_000);
    m.end('caughtUp');
    expect(m.begin(1_000)).toBe(10_000);
    m.horizon(11_000);
    m.advanced(9_000); // an advance whose next occurrence is still within the horizon
    m.end('caughtUp');
    expect(m.begin(2_000)).toBe(9_000);
    expect(m.floor).toBe(9_000);
  });

  it('an announced change lowers the next step, also one announced during a step', () => {
    const m = new LowWaterMark(5_000);
    m.begin(0);
    m.horizon(10_000);
    m.lower(4_000); // during the step
    m.end('caughtUp');
    expect(m.floor).toBe(4_000);
    expect(m.begin(1_000)).toBe(4_000);
    m.horizon(11_000);
    m.end('caughtUp');
    expect(m.begin(2_000)).toBe(11_000);
  });

  it('a failed step, a step told to, and one step every fullScanMs claim from the first entry', () => {
    const m = new LowWaterMark(5_000);
    m.begin(0);
    m.horizon(10_000);
    m.end('failed');
    expect(m.begin(1_000)).toBeUndefined(); // after the failure
    m.horizon(11_000);
    m.end('caughtUp');
    expect(m.begin(2_000, true)).toBeUndefined(); // told to (timed pauses resumed)
    m.horizon(12_000);
    m.end('caughtUp');
    expect(m.fullScanAt).toBe(7_000);
    expect(m.begin(6_999)).toBe(12_000);
    m.horizon(17_000);
    m.end('caughtUp');
    expect(m.begin(7_000)).toBeUndefined();
  });

  it('a chain lowers its next claim to an instant announced during the step, once', () => {
    const m = new LowWaterMark(5_000);
    m.begin(0);
    m.horizon(10_000);
    m.end('caughtUp');
    m.begin(1_000);
    expect(m.since(10_000, 0)).toEqual({ since: 10_000, seen: 0 });
    m.lower(12_000); // above where the chain is: nothing to do
    m.lower(7_000);
    const first = m.since(10_000, 0);
    expect(first).toEqual({ since: 7_000, seen: 2 });
    expect(m.since(9_000, first.seen)).toEqual({ since: 9_000, seen: 2 });
    expect(m.since(undefined, 0)).toEqual({ since: undefined, seen: 2 }); // from the first entry already
  });

  it('a step cut short leaves the mark where its chains got to, or at an earlier advance', () => {
    const m = new LowWaterMark(5_000);
    m.begin(0);
    m.horizon(10_000);
    m.end('cut', 3_000);
    expect(m.begin(1_000)).toBe(3_000);
    m.horizon(11_000);
    m.advanced(2_500);
    m.end('cut', 6_000);
    expect(m.begin(2_000)).toBe(2_500);
    m.end('cut', undefined); // a chain claimed from the first entry and found nothing
    expect(m.begin(3_000)).toBeUndefined();
  });
});

describe('the materializer below its low-water mark', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('finds a schedule whose claim by a crashed instance lapsed, within a full-scan period', async () => {
    h = await harness({ lookaheadMs: 10_000 });
    h.s.handle('h', () => {});
    const t0 = h.clock.now();
    // A schedule every second keeps the materializer stepping, and its mark rising with the clock.
    await h.s.put({ key: 'busy', spec: '@every 1000ms', target: { handler: 'h' } });
    const lost = await h.s.put({
      key: 'lost',
      spec: '@every 3600000ms',
      startAt: t0 + 60_000,
      target: { handler: 'h' },
    });
    // Another instance claims it just before this one would, then dies without advancing it.
    await h.clock.set(t0 + 50_000 - 10);
    const claimed = await h.s.store.claimDueSchedules({
      now: h.clock.now(),
      horizon: t0 + 60_000,
      limit: 10,
      leaseMs: 30_000,
      from: t0 + 60_000,
    });
    expect(claimed.map((s) => s.key)).toContain('lost');
    const lapse = h.clock.now() + 30_000;
    let pickedUpAt: number | null = null;
    h.s.on('materializer:advanced', ({ scheduleId }) => {
      if (scheduleId === lost.schedule.id && pickedUpAt === null) pickedUpAt = h.clock.now();
    });
    for (let i = 0; i < 200 && pickedUpAt === null; i++) await h.clock.advance(250);
    expect(pickedUpAt).not.toBeNull();
    expect(pickedUpAt!).toBeGreaterThanOrEqual(lapse);
    expect(pickedUpAt!).toBeLessThanOrEqual(lapse + 5_000 + 250);
  });
});
