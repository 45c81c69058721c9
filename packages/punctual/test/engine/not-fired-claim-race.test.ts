// The not-fired report racing a claim: on PostgreSQL the report marks overdue runs with FOR UPDATE SKIP
// LOCKED, and a claim made while those rows are held skips them. The worker then finds the run still due
// and sleeps until its backstop, so the report must wake it once its rows are free again. Here the store's
// claims find nothing while the report is in flight (the skip-locked case, made deterministic), and the
// run must start without the clock moving.

import { afterEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { harness, type Harness } from '../support/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('a not-fired report racing a claim', () => {
  it('wakes the worker after the report, so a run whose claim skipped it starts at once', async () => {
    const inner = sqliteStore({ path: ':memory:' });
    let reporting = false;
    let skipped = 0;
    const store = new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop === 'takeNotFired') {
          return async (...args: Parameters<Store['takeNotFired']>) => {
            reporting = true;
            try {
              // Let the worker's claim run while the report "holds the rows".
              await new Promise<void>((r) => setImmediate(r));
              return await target.takeNotFired(...args);
            } finally {
              reporting = false;
            }
          };
        }
        if (prop === 'claimRuns' && reporting) {
          skipped++;
          return () => Promise.resolve({ claimed: [], transitions: [] });
        }
        const v: unknown = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    }) as Store;
    // A long worker backstop: without the wake-up, the run would wait for it (the test clock never gets there).
    h = await harness({
      store,
      clockSync: { enabled: false },
      maxSleepMs: 3_600_000,
      notFiredGraceMs: 60_000,
    });
    h.s.handle('once', () => {});
    const succeeded = h.waitFor('run:succeeded');
    // Saved long after its instant: its run is due at once and already past the not-fired grace, so the
    // report and the claim both go for it straight away.
    await h.s.put({ key: 'late', spec: '@at 2025-01-01T00:00:00Z', target: { handler: 'once' } });
    const { run } = await succeeded;
    expect(run.startedAt).toBe(h.clock.now());
    expect(h.of('schedule:notFired').map((e) => e.scheduleKey)).toEqual(['late']);
    expect(skipped).toBeGreaterThan(0);
  });
});
