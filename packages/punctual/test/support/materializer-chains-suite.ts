// The materializer-chains suite, run on each store by its own test file (materializer-chains.test.ts on
// SQLite, materializer-chains-postgres.test.ts on PostgreSQL): a step that claims a full batch starts a second
// claim-and-advance chain beside the first (up to `parallel`), their claims disjoint, so every due schedule
// becomes exactly one run; a step with less than a batch due makes one claim, as with one chain; the event
// loop turns between batches, even on a store that works synchronously inside (SQLite). The clock
// is frozen: the step runs on the loop's start and nothing waits for a timer. Test support only.

import { afterEach, describe, expect, it } from 'vitest';
import { Materializer } from '../../src/engine/materializer.js';
import { SpecCache } from '../../src/engine/spec-cache.js';
import { EventBus } from '../../src/events.js';
import { createScheduler } from '../../src/scheduler.js';
import type { Store } from '../../src/store/store.js';
import { TestClock } from './test-clock.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-01-05T00:00:00.000Z');
const BATCH = 200;

/** The store with its claims counted, and the most claims and advances in flight at once (chains overlapping). */
function counted(store: Store): {
  store: Store;
  claims: { calls: number; most: number; from: (number | undefined)[] };
} {
  const claims = { calls: 0, most: 0, from: [] as (number | undefined)[] };
  let inFlight = 0;
  const wrapped = new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      if (prop !== 'claimDueSchedules' && prop !== 'advanceSchedules')
        return (v as () => unknown).bind(target);
      return async (...args: unknown[]) => {
        if (prop === 'claimDueSchedules') {
          claims.calls++;
          claims.from.push((args[0] as { from?: number }).from);
        }
        claims.most = Math.max(claims.most, ++inFlight);
        try {
          return await (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          inFlight--;
        }
      };
    },
  });
  return { store: wrapped, claims };
}

/** `n` hourly schedules, the i-th first due i ms into the hour after T0; returns what a step then does. */
async function materializeDue(
  store: Store,
  n: number,
  stopAtOnce = false,
): Promise<{
  runsBySchedule: Map<string, number>;
  claims: { calls: number; most: number; from: (number | undefined)[] };
  /** The claims made so far, read on each turn of the event loop while the step ran. */
  turns: number[];
}> {
  const clock = new TestClock(T0);
  const s = createScheduler({ store, clock, clockSync: { enabled: false } });
  s.handle('h', () => {});
  await s.migrate();
  const inputs = Array.from({ length: n }, (_, i) => ({
    key: `k${i}`,
    spec: `@every ${HOUR}ms`,
    startAt: T0 + 1 + i,
    target: { handler: 'h' },
  }));
  expect((await s.putBulk(inputs)).totals.refused).toBe(0);
  clock.set(T0 + n + 1);
  const bus = new EventBus();
  const runsBySchedule = new Map<string, number>();
  let allWritten = (): void => {};
  const written = new Promise<void>((r) => (allWritten = r));
  bus.on('run:scheduled', ({ run }) => {
    runsBySchedule.set(run.scheduleId, (runsBySchedule.get(run.scheduleId) ?? 0) + 1);
    if (runsBySchedule.size === n) allWritten();
  });
  let failure: unknown;
  bus.on('error', (e) => (failure ??= e.error));
  const c = counted(store);
  const m = new Materializer(
    c.store,
    clock,
    bus,
    new SpecCache(),
    {
      lookaheadMs: 0,
      misfireThresholdMs: 2 * HOUR,
      batchSize: BATCH,
      parallel: 2,
      maxRunsPerStep: 100,
      claimLeaseMs: 30_000,
      maxSleepMs: HOUR,
      minStepMs: 0,
      behindLagMs: HOUR,
      giveWayMs: 1_000,
      fullScanMs: 5_000,
    },
    () => {},
  );
  const turns: number[] = [];
  let watching = true;
  const turn = (): void => {
    turns.push(c.claims.calls);
    if (watching) setImmediate(turn);
  };
  setImmediate(turn);
  m.loop.start();
  // A stop cuts a step short after its current batch: the step is let finish first, unless `stopAtOnce`.
  if (!stopAtOnce) await written;
  watching = false;
  await m.loop.stop();
  expect(failure).toBeUndefined();
  if (!stopAtOnce) expect(await store.nextScheduleAt()).toBeGreaterThan(clock.now());
  return { runsBySchedule, claims: c.claims, turns };
}

/**
 * The suite on one store: `open` gives a fresh store and how to close it (after each test). `overlaps`: the
 * store's calls run their statements at once, so the two chains' calls are seen in flight together.
 */
export function materializerChainsSuite(
  name: string,
  open: () => Promise<{ store: Store; close: () => Promise<void> }>,
  overlaps: boolean,
): void {
  describe(`materializer chains (${name})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const c of cleanups.splice(0).reverse()) await c();
    });
    const fresh = async (): Promise<Store> => {
      const { store, close } = await open();
      cleanups.push(close);
      return store;
    };

    it('a backlog of several batches runs two chains, and every due schedule becomes exactly one run', async () => {
      const { runsBySchedule, claims } = await materializeDue(await fresh(), 2 * BATCH + 50);
      expect(runsBySchedule.size).toBe(2 * BATCH + 50);
      expect([...runsBySchedule.values()].every((count) => count === 1)).toBe(true);
      if (overlaps) expect(claims.most).toBe(2);
      expect(claims.calls).toBeGreaterThanOrEqual(3);
      // A fresh materializer's first claims start at the first entry; each chain's next claim starts at the
      // earliest schedule of its previous one.
      expect(claims.from.slice(0, 2)).toEqual([undefined, undefined]);
      expect(claims.from.slice(2).every((f) => f !== undefined && f > T0)).toBe(true);
    });

    it('a stop cuts a backlog short after the batches in hand: the rest stays due', async () => {
      const store = await fresh();
      const { runsBySchedule } = await materializeDue(store, 5 * BATCH, true);
      expect(runsBySchedule.size).toBeGreaterThanOrEqual(BATCH);
      expect(runsBySchedule.size).toBeLessThanOrEqual(3 * BATCH);
      expect([...runsBySchedule.values()].every((count) => count === 1)).toBe(true);
      expect(await store.nextScheduleAt()).toBeLessThan(T0 + HOUR);
    });

    it('a step of several batches lets the event loop turn between them (timers and I/O are not held up)', async () => {
      const { runsBySchedule, claims, turns } = await materializeDue(await fresh(), 5 * BATCH);
      expect(runsBySchedule.size).toBe(5 * BATCH);
      // Some turn of the loop came after the first claim and before the last.
      expect(turns.some((n) => n > 0 && n < claims.calls)).toBe(true);
    });

    it('less than a batch due: one claim', async () => {
      const { runsBySchedule, claims } = await materializeDue(await fresh(), BATCH - 1);
      expect(runsBySchedule.size).toBe(BATCH - 1);
      expect(claims.calls).toBe(1);
    });
  });
}
