// The materializer's own timer wakes it at most once per minimum step (a tenth of the look-ahead, 250 ms at
// most): schedules spread a few milliseconds apart are written in a few steps instead of a step each, and
// every run is still written at least the look-ahead less one step before its instant. A schedule changed
// still wakes it at once; a wake-up (runs due, from this process or another) does not. Injected clock; the in-memory store answers within a turn, so each step completes
// before the clock moves on.

import { afterEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { countingCalls } from '../support/counting-store.js';
import { harness, type Harness } from '../support/harness.js';

const HOUR = 3_600_000;
const LOOKAHEAD = 10_000;
const SPREAD = 100;

let h: Harness;
afterEach(async () => h?.close());

/** `SPREAD` hourly schedules, the i-th first due at `first + 5 i` ms; the runs written, by id, with their lead. */
async function spread(first: number): Promise<Map<string, number>> {
  h.s.handle('h', () => {});
  const leads = new Map<string, number>();
  h.s.on('run:scheduled', ({ run }) => leads.set(run.id, run.scheduledFor - h.clock.now()));
  const inputs = Array.from({ length: SPREAD }, (_, i) => ({
    key: `k${i}`,
    spec: `@every ${HOUR}ms`,
    startAt: first + 5 * i,
    target: { handler: 'h' },
  }));
  expect((await h.s.putBulk(inputs)).totals.refused).toBe(0);
  return leads;
}

describe('materializer minimum step', () => {
  it('writes schedules due 5 ms apart in a few steps, each run at least the look-ahead less 250 ms ahead', async () => {
    const counted = countingCalls(sqliteStore({ path: ':memory:' }), 'claimDueSchedules');
    h = await harness({ store: counted.store, lookaheadMs: LOOKAHEAD });
    const first = h.clock.now() + 20_000;
    const leads = await spread(first);
    expect(leads.size).toBe(0);
    await h.clock.set(first - LOOKAHEAD - 1);
    const before = counted.calls();
    // 1 ms at a time across the 500 ms the look-ahead's edge takes to pass the hundred instants.
    for (let t = 0; t < 1_000 && leads.size < SPREAD; t++) await h.clock.advance(1);
    expect(leads.size).toBe(SPREAD);
    // A step at the first instant's edge, then one every 250 ms: 3 (a step per schedule would be 100).
    expect(counted.calls() - before).toBeLessThanOrEqual(4);
    for (const lead of leads.values()) {
      expect(lead).toBeLessThanOrEqual(LOOKAHEAD);
      expect(lead).toBeGreaterThanOrEqual(LOOKAHEAD - 250);
    }
  });

  it('a short look-ahead keeps a step a tenth of it', async () => {
    const counted = countingCalls(sqliteStore({ path: ':memory:' }), 'claimDueSchedules');
    h = await harness({ store: counted.store, lookaheadMs: 1_000 });
    const first = h.clock.now() + 20_000;
    const leads = await spread(first);
    await h.clock.set(first - 1_000 - 1);
    for (let t = 0; t < 1_000 && leads.size < SPREAD; t++) await h.clock.advance(1);
    expect(leads.size).toBe(SPREAD);
    for (const lead of leads.values()) expect(lead).toBeGreaterThanOrEqual(1_000 - 100);
  });

  it('a schedule put between two steps is written at once', async () => {
    h = await harness({ lookaheadMs: LOOKAHEAD });
    const first = h.clock.now() + 20_000;
    const leads = await spread(first);
    await h.clock.set(first - LOOKAHEAD);
    const written = leads.size;
    expect(written).toBeGreaterThan(0);
    const at = h.clock.now() + 2_000;
    await h.s.put({ key: 'soon', spec: `@at ${new Date(at).toISOString()}`, target: { handler: 'h' } });
    await h.clock.advance(0);
    const runs = await h.s.listRuns({ scheduleKey: 'soon' });
    expect(runs.items.map((r) => r.scheduledFor)).toEqual([at]);
  });

  it('a wake-up about runs does not start a materializer step', async () => {
    const counted = countingCalls(sqliteStore({ path: ':memory:' }), 'claimDueSchedules');
    let wake: ((dueAt: number) => void) | undefined;
    // A store that delivers wake-ups, as PostgreSQL's LISTEN does (its own advances' included).
    const store = new Proxy(counted.store, {
      get(target, prop, receiver) {
        if (prop === 'capabilities') return { ...target.capabilities, wakeups: true };
        if (prop === 'onWake')
          return (listener: (dueAt: number) => void) => {
            wake = listener;
            return () => {};
          };
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    h = await harness({ store, lookaheadMs: LOOKAHEAD });
    const first = h.clock.now() + 20_000;
    await spread(first);
    await h.clock.advance(1);
    const before = counted.calls();
    expect(wake).toBeDefined();
    for (let i = 0; i < 10; i++) {
      wake!(first);
      await h.clock.advance(0);
    }
    expect(counted.calls()).toBe(before);
  });
});
