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

  it('does not measure a store without a clock of its own', async () => {
    h = await harness({ noStart: true });
    const offsets = collect(h.s, 'clock:offset');
    await h.s.start();
    expect(offsets).toEqual([]);
    expect(h.s.clockOffsetMs).toBe(0);
  });
});
