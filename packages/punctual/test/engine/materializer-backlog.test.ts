// A materializer that picks up schedules late is behind until a step ends caught up, and a bulk put in the
// same process waits before each batch meanwhile (a second at most), so a load does not make due runs late.
// A schedule put with its first occurrence inside the look-ahead is not late. Injected clock; the in-memory
// store's advances are held by a gate where a test needs a step in progress.

import { afterEach, describe, expect, it } from 'vitest';
import { MaterializerBacklog } from '../../src/engine/materializer-backlog.js';
import { EventBus } from '../../src/events.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { collect } from '../support/events.js';
import { harness, type Harness } from '../support/harness.js';
import { TestClock, settle } from '../support/test-clock.js';

const HOUR = 3_600_000;
const LOOKAHEAD = 10_000;

/** Tracks whether `p` has settled. */
function tracked<T>(p: Promise<T>): { done: () => boolean; p: Promise<T> } {
  let done = false;
  const q = p.finally(() => (done = true));
  return { done: () => done, p: q };
}

describe('the materializer backlog', () => {
  const make = (): { clock: TestClock; bus: EventBus; b: MaterializerBacklog } => {
    const clock = new TestClock('2026-01-05T00:00:00.000Z');
    const bus = new EventBus();
    return { clock, bus, b: new MaterializerBacklog(clock, bus, { behindLagMs: 2_500, maxWaitMs: 1_000 }) };
  };

  it('is not behind after a claim within the lag: a caller goes on at once', async () => {
    const { clock, bus, b } = make();
    const behind = collect(bus, 'materializer:behind');
    b.claimed(2_500, clock.now());
    expect(b.behind).toBe(false);
    const wait = tracked(b.caughtUp());
    await settle();
    expect(wait.done()).toBe(true);
    expect(behind).toEqual([]);
  });

  it('a late claim holds callers until a step ends caught up, and says so once', async () => {
    const { clock, bus, b } = make();
    const behind = collect(bus, 'materializer:behind');
    const caught = collect(bus, 'materializer:caughtUp');
    b.claimed(4_000, clock.now());
    b.claimed(9_000, clock.now());
    expect(b.behind).toBe(true);
    expect(behind).toEqual([{ lagMs: 4_000 }]);
    const first = tracked(b.caughtUp());
    const second = tracked(b.caughtUp());
    await clock.advance(600);
    expect(first.done() || second.done()).toBe(false);
    b.stepEnded(clock.now(), true);
    await settle();
    expect(first.done() && second.done()).toBe(true);
    expect(caught).toEqual([{ behindMs: 600 }]);
    expect(b.behind).toBe(false);
  });

  it('a failed step lets its waiters go but stays behind: the next caller waits again', async () => {
    const { clock, bus, b } = make();
    const caught = collect(bus, 'materializer:caughtUp');
    b.claimed(60_000, clock.now());
    const first = tracked(b.caughtUp());
    b.stepEnded(clock.now(), false);
    await settle();
    expect(first.done()).toBe(true);
    expect(b.behind).toBe(true);
    expect(caught).toEqual([]);
    const next = tracked(b.caughtUp());
    await settle();
    expect(next.done()).toBe(false);
    b.stepEnded(clock.now(), true);
    await settle();
    expect(next.done()).toBe(true);
  });

  it('a caller waits maxWaitMs at most while the materializer stays behind', async () => {
    const { clock, b } = make();
    b.claimed(60_000, clock.now());
    const wait = tracked(b.caughtUp());
    await clock.advance(999);
    expect(wait.done()).toBe(false);
    await clock.advance(1);
    expect(wait.done()).toBe(true);
    expect(b.behind).toBe(true);
  });
});

describe('a bulk put beside a materializer that is behind', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  /** The store with its advances held while `hold` is set, and its schedule writes counted. */
  function gated(store: Store): {
    store: Store;
    hold: () => void;
    release: () => void;
    held: Promise<void>;
    puts: () => number;
  } {
    let gate: Promise<void> | null = null;
    let open = (): void => {};
    let reached = (): void => {};
    const held = new Promise<void>((r) => (reached = r));
    let puts = 0;
    const wrapped = new Proxy(store, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (typeof v !== 'function') return v;
        const fn = (v as (...a: unknown[]) => Promise<unknown>).bind(target);
        if (prop === 'putSchedules')
          return (...args: unknown[]) => {
            puts++;
            return fn(...args);
          };
        if (prop !== 'advanceSchedules') return fn;
        return async (...args: unknown[]) => {
          if (gate !== null) {
            reached();
            await gate;
          }
          return fn(...args);
        };
      },
    });
    return {
      store: wrapped,
      hold: () => (gate = new Promise<void>((r) => (open = r))),
      release: () => {
        gate = null;
        open();
      },
      held,
      puts: () => puts,
    };
  }

  const inputs = (prefix: string, n: number, startAt: number): unknown[] =>
    Array.from({ length: n }, (_, i) => ({
      key: `${prefix}${i}`,
      spec: `@every ${HOUR}ms`,
      startAt: startAt + i,
      target: { handler: 'h' },
    }));

  it('waits before its batches until the step that picked up late schedules ends', async () => {
    const g = gated(sqliteStore({ path: ':memory:' }));
    h = await harness({ store: g.store, lookaheadMs: LOOKAHEAD, noStart: true });
    h.s.handle('h', () => {});
    await h.s.migrate();
    const t0 = h.clock.now();
    expect((await h.s.putBulk(inputs('late', 5, t0 + 20_000))).totals.created).toBe(5);
    // The scheduler was down while they came within the look-ahead: picked up 10 s after they could have been.
    await h.clock.set(t0 + 20_000);
    const behind = h.waitFor('materializer:behind');
    g.hold();
    await h.s.start();
    await g.held;
    expect((await behind).lagMs).toBe(10_000);
    const putsBefore = g.puts();
    const load = tracked(h.s.putBulk(inputs('new', 3, t0 + HOUR / 2)));
    await settle(10);
    expect(load.done()).toBe(false);
    expect(g.puts()).toBe(putsBefore);
    const caught = h.waitFor('materializer:caughtUp');
    g.release();
    await caught;
    expect((await load.p).totals.created).toBe(3);
    expect(g.puts()).toBe(putsBefore + 1);
  });

  it('a schedule put with its first occurrence inside the look-ahead is not late', async () => {
    h = await harness({ lookaheadMs: LOOKAHEAD });
    h.s.handle('h', () => {});
    const behind = collect(h.s, 'materializer:behind');
    const advanced = h.waitFor('materializer:advanced');
    // Inside the look-ahead, beyond the claim-ahead window (a run held ahead keeps the engine busy).
    expect((await h.s.putBulk(inputs('soon', 3, h.clock.now() + 3_000))).totals.created).toBe(3);
    expect((await advanced).lagMs).toBe(0);
    await h.quiesce();
    expect(behind).toEqual([]);
  });
});
