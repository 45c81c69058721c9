// The engine's clock follows a shared store's clock: an instance whose own clock is behind still fires
// runs at the store's time, and a large offset is reported.

import { afterEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { harness, iso, type Harness } from '../support/harness.js';
import { collect } from '../support/events.js';

let h: Harness;
afterEach(async () => h?.close());

describe('clock offset to the store', () => {
  it('corrects the engine clock by the measured offset and fires at the store time', async () => {
    const store = sqliteStore({ path: ':memory:' });
    // This instance's clock is 5 s behind the store's server.
    const skewed = Object.assign(store, { measureClockOffset: async () => 5000 });
    h = await harness({ store: skewed, noStart: true });
    const offsets = collect(h.s, 'clock:offset');
    await h.s.start();
    expect(offsets).toEqual([{ offsetMs: 5000, skewed: true }]);
    expect(h.s.clock.now()).toBe(h.clock.now() + 5000);
    const fired: string[] = [];
    h.s.handle('t', () => {
      fired.push(iso(h.s.clock.now()));
    });
    await h.s.put({ key: 'at', spec: '@at 2026-01-05T00:01:00Z', target: { handler: 't' } });
    await h.clock.advance(55_000); // local 00:00:55 = store 00:01:00
    expect(fired).toEqual(['2026-01-05T00:01:00.000Z']);
  });

  it('measures again every intervalMs in the background, rounded to the millisecond, and stops with the scheduler', async () => {
    const store = sqliteStore({ path: ':memory:' });
    const measured = [1500.4, 250.6, -0.4];
    const asked: number[] = [];
    const shared = Object.assign(store, {
      measureClockOffset: async (localNow: () => number) => {
        asked.push(localNow());
        return measured[asked.length - 1] ?? 0;
      },
    });
    h = await harness({ store: shared, noStart: true, clockSync: { intervalMs: 10_000 } });
    const offsets = collect(h.s, 'clock:offset');
    const startedAt = h.clock.now();
    await h.s.start();
    expect(offsets).toEqual([{ offsetMs: 1500, skewed: true }]);
    expect(h.s.clockOffsetMs).toBe(1500);
    await h.clock.advance(9_999);
    expect(asked).toHaveLength(1);
    await h.clock.advance(1);
    expect(offsets.at(-1)).toEqual({ offsetMs: 251, skewed: false });
    expect(h.s.clock.now()).toBe(h.clock.now() + 251);
    await h.clock.advance(10_000);
    // -0.4 rounds to nothing: the engine's clock reads the machine's.
    expect(h.s.clock.now()).toBe(h.clock.now());
    // Each measurement read the uncorrected clock.
    expect(asked).toEqual([startedAt, startedAt + 10_000, startedAt + 20_000]);
    await h.s.stop();
    await h.clock.advance(60_000);
    expect(asked).toHaveLength(3);
  });

  it('does not measure when clock sync is off', async () => {
    const store = sqliteStore({ path: ':memory:' });
    let asked = 0;
    const shared = Object.assign(store, {
      measureClockOffset: async () => {
        asked++;
        return 5000;
      },
    });
    h = await harness({ store: shared, noStart: true, clockSync: { enabled: false } });
    await h.s.start();
    await h.clock.advance(120_000);
    expect(asked).toBe(0);
    expect(h.s.clockOffsetMs).toBe(0);
  });

  it('does not measure a store without a clock of its own', async () => {
    h = await harness({ noStart: true });
    const offsets = collect(h.s, 'clock:offset');
    await h.s.start();
    expect(offsets).toEqual([]);
    expect(h.s.clockOffsetMs).toBe(0);
  });
});
