// How a bulk put sends its batches to a store that runs statements at once: two writes in flight at most,
// one when a quota check (beforeWrite) must count what the writes before it created, answers in input order
// whichever write ends first, and a failed write ends the call only once the write in flight beside it has
// ended. The store is SQLite in memory behind a proxy that says it runs statements at once and holds each
// putSchedules until the test lets it go.

import { describe, expect, it } from 'vitest';
import { createScheduler } from '../../src/scheduler.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { T0, TENANT } from '../support/fixtures.js';
import { TestClock } from '../support/test-clock.js';

interface Held {
  /** Lets the write go to the store (or fails it with `error`). */
  release(error?: Error): void;
  /** Settles when the write has ended, either way. */
  ended: Promise<void>;
  keys: string[];
}

/** A store whose putSchedules calls wait in `held` until released; `inFlight` counts them. */
async function gatedStore(): Promise<{
  store: Store;
  held: Held[];
  waiting: () => Promise<Held>;
  maxInFlight: () => number;
}> {
  const inner = sqliteStore({ path: ':memory:' });
  await inner.migrate();
  const held: Held[] = [];
  const arrivals: ((h: Held) => void)[] = [];
  let inFlight = 0;
  let most = 0;
  const putSchedules: Store['putSchedules'] = (reqs) => {
    inFlight++;
    most = Math.max(most, inFlight);
    let release!: (error?: Error) => void;
    const gate = new Promise<void>((resolve, reject) => {
      release = (error) => (error ? reject(error) : resolve());
    });
    const result = gate.then(() => inner.putSchedules(reqs));
    const ended = result.then(
      () => undefined,
      () => undefined,
    );
    void ended.then(() => inFlight--);
    const h: Held = { release, ended, keys: reqs.map((r) => r.draft.key) };
    held.push(h);
    arrivals.shift()?.(h);
    return result;
  };
  const store = new Proxy(inner, {
    get(target, prop) {
      if (prop === 'capabilities') return { ...target.capabilities, concurrentStatements: true };
      if (prop === 'putSchedules') return putSchedules;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const seen = new Set<Held>();
  const waiting = (): Promise<Held> => {
    const next = held.find((h) => !seen.has(h));
    if (next) {
      seen.add(next);
      return Promise.resolve(next);
    }
    return new Promise((resolve) =>
      arrivals.push((h) => {
        seen.add(h);
        resolve(h);
      }),
    );
  };
  return { store, held, waiting, maxInFlight: () => most };
}

const item = (key: string) => ({ key, spec: '0 * * * *', target: { handler: 'h' } });
const inputs = (n: number) => Array.from({ length: n }, (_, i) => item(`k${i}`));

function apiOf(store: Store) {
  const s = createScheduler({ store, clock: new TestClock(T0) });
  s.handle('h', () => {});
  return s.tenant(TENANT);
}

describe('bulk put writes', () => {
  it('keeps two writes in flight and answers in input order when the later one ends first', async () => {
    const g = await gatedStore();
    const run = apiOf(g.store).putBulk(inputs(7), { batchSize: 2 });
    const first = await g.waiting();
    const second = await g.waiting();
    expect([first.keys, second.keys]).toEqual([
      ['k0', 'k1'],
      ['k2', 'k3'],
    ]);
    second.release();
    await second.ended;
    first.release();
    const third = await g.waiting();
    third.release();
    (await g.waiting()).release();
    const res = await run;
    expect(g.maxInFlight()).toBe(2);
    expect(res.items.map((i) => [i.index, i.key, i.outcome])).toEqual(
      inputs(7).map((x, i) => [i, x.key, 'created']),
    );
    expect((await g.store.getSchedules!(TENANT, ['k0', 'k6'])).map((s) => s.key).sort()).toEqual([
      'k0',
      'k6',
    ]);
  });

  it('writes one batch at a time when a quota check must count what the writes before it created', async () => {
    const g = await gatedStore();
    const creating: number[] = [];
    const run = apiOf(g.store).putBulk(inputs(5), {
      batchSize: 2,
      beforeWrite: ({ creating: n }) => void creating.push(n),
    });
    for (let i = 0; i < 3; i++) (await g.waiting()).release();
    expect((await run).totals.created).toBe(5);
    expect(g.maxInFlight()).toBe(1);
    expect(creating).toEqual([2, 2, 1]);
  });

  it('fails only after the write in flight beside the failed one has ended', async () => {
    const g = await gatedStore();
    let settled = false;
    const run = apiOf(g.store)
      .putBulk(inputs(6), { batchSize: 2 })
      .finally(() => (settled = true));
    const first = await g.waiting();
    const second = await g.waiting();
    first.release(new Error('store down'));
    await first.ended;
    // The failure is known, but the second write is still held: the call has not ended (two turns of the
    // event loop let a rejection that did not wait reach the caller).
    for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    second.release();
    await expect(run).rejects.toThrow('store down');
    // No third write was started after the failure.
    expect(g.held).toHaveLength(2);
    const stored = await g.store.getSchedules!(
      TENANT,
      inputs(6).map((x) => x.key),
    );
    expect(stored.map((s) => s.key).sort()).toEqual(['k2', 'k3']);
  });
});
