// The settlement pipeline: settlements of one turn share a transaction, at most `parallel` transactions are
// in flight, the event loop turns between one batch and the next, a failed transaction is kept and sent
// again after the back-off (on the engine clock), and a stopping worker can give up on what the store will
// not take.

import { describe, expect, it } from 'vitest';
import { EventBus } from '../../src/events.js';
import { SettlementPipeline, type SettlementHooks } from '../../src/engine/settlement-pipeline.js';
import type { Settlement, Store } from '../../src/store/store.js';
import { runningRun } from '../support/fixtures.js';
import { TestClock, settle } from '../support/test-clock.js';

function settlement(runId: string): Settlement {
  return {
    runId,
    token: `t-${runId}`,
    outcome: { state: 'succeeded', result: null },
    attempt: {
      runId,
      attempt: 1,
      workerId: 'w',
      startedAt: 0,
      finishedAt: 0,
      outcome: 'succeeded',
      error: null,
      result: null,
    },
    run: runningRun({ id: runId }),
  };
}

/** A store whose settleRuns calls wait until the test releases them (or fail while `down`). */
function fakeStore() {
  const calls: { ids: string[]; release: () => void }[] = [];
  let open = 0;
  let maxOpen = 0;
  const state = { down: false };
  const store = {
    settleRuns: (batch: Settlement[]) => {
      if (state.down) return Promise.reject(new Error('store unreachable'));
      open++;
      maxOpen = Math.max(maxOpen, open);
      return new Promise<null[]>((resolve) =>
        calls.push({
          ids: batch.map((s) => s.runId),
          release: () => {
            open--;
            resolve(batch.map(() => null));
          },
        }),
      );
    },
  } as unknown as Store;
  return { store, calls, state, maxOpen: () => maxOpen };
}

function pipeline(store: Store, clock: TestClock, giveUp = () => false, parallel = 2) {
  const bus = new EventBus();
  const errors: unknown[] = [];
  bus.on('error', (e) => errors.push(e));
  const settled: string[] = [];
  const hooks: SettlementHooks = {
    room: () => 0,
    backlog: () => false,
    reserve: () => {},
    claimed: () => {},
    settled: (id) => settled.push(id),
    ended: () => {},
    giveUp,
  };
  const p = new SettlementPipeline(
    store,
    clock,
    bus,
    { workerId: 'w', leaseMs: 30_000, claimAheadMs: 0, batch: 3, parallel, retryMs: 500 },
    hooks,
  );
  return { p, errors, settled };
}

describe('settlement pipeline', () => {
  it('batches one turn, keeps at most `parallel` transactions in flight, and sends the rest after', async () => {
    const clock = new TestClock('2026-01-05T00:00:00.000Z');
    const f = fakeStore();
    const { p, settled } = pipeline(f.store, clock);
    for (let i = 1; i <= 7; i++) p.push(settlement(String(i)));
    await settle();
    // Batches of 3, two in flight: the seventh waits.
    expect(f.calls.map((c) => c.ids)).toEqual([
      ['1', '2', '3'],
      ['4', '5', '6'],
    ]);
    f.calls[0]!.release();
    await settle();
    expect(f.calls.map((c) => c.ids)[2]).toEqual(['7']);
    f.calls[1]!.release();
    f.calls[2]!.release();
    await p.flush();
    expect(settled).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(f.maxOpen()).toBe(2);
  });

  it('sends batch after batch with a turn of the event loop between them, on a store that answers at once', async () => {
    const clock = new TestClock('2026-01-05T00:00:00.000Z');
    let sends = 0;
    // As the SQLite store: the work is done inside the call, the promise is already resolved.
    const store = {
      settleRuns: (batch: Settlement[]) => {
        sends++;
        return Promise.resolve(batch.map(() => null));
      },
    } as unknown as Store;
    const { p, settled } = pipeline(store, clock, () => false, 1);
    for (let i = 1; i <= 9; i++) p.push(settlement(String(i)));
    const turns: number[] = [];
    let watching = true;
    const turn = (): void => {
      turns.push(sends);
      if (watching) setImmediate(turn);
    };
    setImmediate(turn);
    // Not flush(), which sends what is left at once (a stopping worker): the turns alone.
    for (let i = 0; i < 20 && settled.length < 9; i++) await settle(1);
    watching = false;
    expect(sends).toBe(3);
    expect(settled).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    // Some turn of the loop came after the first send and before the last.
    expect(turns.some((n) => n > 0 && n < 3)).toBe(true);
  });

  it('keeps a batch the store failed and sends it again once the back-off has passed', async () => {
    const clock = new TestClock('2026-01-05T00:00:00.000Z');
    const f = fakeStore();
    f.state.down = true;
    const { p, errors, settled } = pipeline(f.store, clock);
    p.push(settlement('a'));
    await settle();
    expect(errors).toHaveLength(1);
    f.state.down = false;
    p.push(settlement('b'));
    await settle();
    // Nothing is sent during the back-off, not even the new settlement.
    expect(f.calls).toHaveLength(0);
    await clock.advance(500);
    await settle();
    expect(f.calls.map((c) => c.ids)).toEqual([['a', 'b']]);
    f.calls[0]!.release();
    await p.flush();
    expect(settled).toEqual(['a', 'b']);
  });

  it('gives up on what the store will not take when the worker says so, and sends again after reset', async () => {
    const clock = new TestClock('2026-01-05T00:00:00.000Z');
    const f = fakeStore();
    f.state.down = true;
    const { p, settled } = pipeline(f.store, clock, () => true);
    p.push(settlement('a'));
    const flushed = p.flush();
    await settle();
    await clock.advance(500);
    await flushed;
    expect(settled).toEqual([]);
    f.state.down = false;
    p.reset();
    p.push(settlement('b'));
    await settle();
    expect(f.calls.map((c) => c.ids)).toEqual([['a', 'b']]);
  });
});
