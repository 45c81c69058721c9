// A stop that begins while a settlement carrying a claim is on its way to the store: the runs that claim
// brings back arrive after the worker stopped starting deliveries, so they must go back to the queue at once
// (released), never be delivered by a stopping instance whose store is about to close (their settlement would
// be lost and the run delivered again when its lease lapsed).

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

describe('stop while a settle-and-claim is in flight', () => {
  it('hands back the runs the claim returns instead of delivering them', async () => {
    const inner = sqliteStore({ path: ':memory:' });
    gate = deferred();
    const entered = deferred();
    let gated = false;
    let opened = false;
    // The store's settle-and-claim waits at the gate once a claim for a free slot rides on a settlement.
    const store = new Proxy(inner, {
      get(target, prop, receiver) {
        if (prop === 'settleAndClaim') {
          return async (...args: Parameters<NonNullable<Store['settleAndClaim']>>) => {
            if (!gated && args[1].limit > 0) {
              gated = true;
              entered.resolve();
              await gate.promise;
            }
            return target.settleAndClaim!(...args);
          };
        }
        // While the settlement waits, the worker's own claims find nothing: only the gated claim takes runs.
        if (prop === 'claimRuns' && gated && !opened)
          return () => Promise.resolve({ claimed: [], transitions: [] });
        const v: unknown = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    }) as Store;
    h = await harness({ store, concurrency: 1 });
    const delivered: string[] = [];
    h.s.handle('t', (ctx) => {
      delivered.push(ctx.run.id);
    });
    await h.s.put({ key: 'a', spec: '@every 1h', target: { handler: 't' } });
    await h.s.put({ key: 'b', spec: '@every 1h', target: { handler: 't' } });
    // Two runs fill the worker's first claim (room for one delivering and one prefetched): a full claim may have
    // left runs due, so the settlement that follows carries a claim.
    const [first, other] = await Promise.all([h.s.trigger('a'), h.s.trigger('a')]);
    // The runs' settlement waits at the gate holding every free slot, so only its claim can take the next.
    await entered.promise;
    const second = await h.s.trigger('b');
    const stopping = h.s.stop();
    // stop() reaches the worker once the idle materializer's loop has stopped: promise turns only (the
    // in-memory store answers synchronously), all done within one macrotask.
    await new Promise<void>((r) => setImmediate(r));
    opened = true;
    gate.resolve();
    await stopping;
    expect(delivered).toEqual([first.id, other.id]);
    const found = await h.s.getRun(second.id);
    expect(found?.run.state).toBe('scheduled');
    expect(h.of('run:released').map((e) => e.run.id)).toEqual([second.id]);
  });
});
