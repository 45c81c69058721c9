// A settlement that takes longer than the lease to be written (a slow or unreachable store): the worker keeps
// renewing the lease of a run whose settlement is on its way, so the reaper never hands the run out again
// and its delivery is not repeated. The store's settlements wait at a gate while the clock moves past
// several leases.

import { afterEach, describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { deferred, harness, type Harness } from '../support/harness.js';

let h: Harness | undefined;
let gate = deferred();
afterEach(async () => {
  gate.resolve();
  await h?.close();
  h = undefined;
});

describe('a settlement slower than the lease', () => {
  it('keeps the lease while the settlement waits: delivered once, never reclaimed', async () => {
    const inner = sqliteStore({ path: ':memory:' });
    gate = deferred();
    const waiting = deferred();
    const hold = async <T>(write: () => Promise<T>): Promise<T> => {
      waiting.resolve();
      await gate.promise;
      return write();
    };
    const store = new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop === 'settleRuns')
          return (...a: Parameters<Store['settleRuns']>) => hold(() => target.settleRuns(...a));
        if (prop === 'settleAndClaim')
          return (...a: Parameters<NonNullable<Store['settleAndClaim']>>) =>
            hold(() => target.settleAndClaim!(...a));
        const v: unknown = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? (v as (...x: unknown[]) => unknown).bind(target) : v;
      },
    }) as Store;
    h = await harness({ store, leaseMs: 10_000, reapIntervalMs: 1_000 });
    let deliveries = 0;
    h.s.handle('t', () => {
      deliveries++;
    });
    await h.s.put({ key: 'a', spec: '@every 1h', target: { handler: 't' } });
    await h.s.trigger('a');
    await waiting.promise;
    // Five leases' worth of time while the settlement waits; the heartbeat and the reaper both run.
    for (let i = 0; i < 50; i++) await h.clock.advance(1_000);
    expect(h.of('lease:reclaimed')).toEqual([]);
    expect(h.of('lease:lost')).toEqual([]);
    const succeeded = h.waitFor('run:succeeded');
    gate.resolve();
    await succeeded;
    expect(deliveries).toBe(1);
    expect(h.of('lease:reclaimed')).toEqual([]);
  });
});
