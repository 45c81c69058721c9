// Claiming ahead (claimAheadMs): runs of overlap `allow` are claimed up to claimAheadMs before their instant
// and each starts on a timer at its instant, never before; runs of other overlap policies are claimed once
// due. Schedules a few milliseconds apart are served by a few claims instead of one each. A stop hands the
// runs claimed ahead back unstarted. Injected clock; the in-memory store answers within a turn.

import { afterEach, describe, expect, it } from 'vitest';
import { CLAIM_AHEAD_MS } from '../../src/options.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { countingCalls } from '../support/counting-store.js';
import { harness, type Harness } from '../support/harness.js';

const HOUR = 3_600_000;
const SPREAD = 50;

let h: Harness | undefined;
afterEach(async () => h?.close());

/**
 * Counts the worker's own claims and next-due reads, and apart from them its settlements that carry a claim
 * (settleAndClaim) and those that do not (settleRuns).
 */
function countingClaims() {
  const claims = countingCalls(sqliteStore({ path: ':memory:' }), 'claimRuns');
  const next = countingCalls(claims.store, 'nextRunDueAt');
  const both = countingCalls(next.store, 'settleAndClaim');
  const settle = countingCalls(both.store, 'settleRuns');
  return {
    store: settle.store,
    calls: () => claims.calls() + next.calls(),
    claimingSettlements: () => both.calls(),
    settlements: () => settle.calls(),
  };
}

/** Hourly schedules, the i-th first due at `first + 5 i` ms, with this overlap policy. */
async function spread(hh: Harness, first: number, overlap: 'allow' | 'skip', n = SPREAD): Promise<void> {
  const inputs = Array.from({ length: n }, (_, i) => ({
    key: `${overlap}-${i}`,
    spec: `@every ${HOUR}ms`,
    startAt: first + 5 * i,
    target: { handler: 'h' },
    policies: { overlap },
  }));
  expect((await hh.s.putBulk(inputs)).totals.refused).toBe(0);
}

/** Each run's start instant less its due instant, from run:started (the engine's clock at the event). */
function startLags(hh: Harness): number[] {
  const lags: number[] = [];
  hh.s.on('run:started', ({ run }) => lags.push(hh.clock.now() - run.dueAt));
  return lags;
}

describe('claiming ahead', () => {
  it('starts each run at its instant, never before, from a few claims', async () => {
    const counted = countingClaims();
    h = await harness({ store: counted.store });
    h.s.handle('h', () => {});
    const lags = startLags(h);
    const first = h.clock.now() + 20_000;
    await spread(h, first, 'allow');
    await h.clock.set(first - CLAIM_AHEAD_MS - 1);
    const before = counted.calls();
    const claimingBefore = counted.claimingSettlements();
    const settledBefore = counted.settlements();
    for (let t = 0; t < CLAIM_AHEAD_MS + 1_000 && lags.length < SPREAD; t++) await h.clock.advance(1);
    expect(lags).toHaveLength(SPREAD);
    expect(lags.every((lag) => lag === 0)).toBe(true);
    const calls = counted.calls() - before;
    await h.quiesce();
    // Each run settles alone (5 ms apart), and only while the worker's last claim was full does a claim ride on
    // the settlement (the worker's room before its first delivery is twice its concurrency, 20 runs).
    const claiming = counted.claimingSettlements() - claimingBefore;
    expect(counted.settlements() - settledBefore + claiming).toBe(SPREAD);
    expect(claiming).toBeLessThanOrEqual(5);
    // 50 runs over 245 ms, claimed CLAIM_AHEAD_MS ahead by a claim every half of it at most: a few claims and
    // next-due reads (a claim and a read per instant would be 100).
    expect(calls).toBeLessThanOrEqual(16);
    const runs = await h.s.listRuns({ state: 'succeeded', limit: 100 });
    expect(runs.items).toHaveLength(SPREAD);
    for (const r of runs.items) expect(r.startedAt).toBe(r.dueAt);
  });

  it('claims runs of other overlap policies once due', async () => {
    h = await harness();
    h.s.handle('h', () => {});
    const lags = startLags(h);
    const first = h.clock.now() + 20_000;
    await spread(h, first, 'skip', 1);
    await h.clock.set(first - 1);
    expect((await h.s.listRuns({ state: 'running' })).items).toEqual([]);
    await h.clock.advance(1);
    await h.quiesce();
    expect(lags).toEqual([0]);
  });

  it('an allow run is held, leased, from claimAheadMs before its instant', async () => {
    h = await harness();
    h.s.handle('h', () => {});
    const lags = startLags(h);
    const first = h.clock.now() + 20_000;
    await spread(h, first, 'allow', 1);
    await h.clock.set(first - CLAIM_AHEAD_MS);
    const held = (await h.s.listRuns({ state: 'running' })).items;
    expect(held).toHaveLength(1);
    expect(lags).toEqual([]);
    await h.clock.set(first - 1);
    expect(lags).toEqual([]);
    await h.clock.advance(1);
    expect(lags).toEqual([0]);
  });

  it('claimAheadMs 0 claims each run at its instant', async () => {
    const counted = countingClaims();
    h = await harness({ store: counted.store, claimAheadMs: 0 });
    h.s.handle('h', () => {});
    const lags = startLags(h);
    const first = h.clock.now() + 20_000;
    await spread(h, first, 'allow', 10);
    await h.clock.set(first - 1);
    expect((await h.s.listRuns({ state: 'running' })).items).toEqual([]);
    const before = counted.calls();
    for (let t = 0; t < 100 && lags.length < 10; t++) await h.clock.advance(1);
    expect(lags).toEqual(Array.from({ length: 10 }, () => 0));
    expect(counted.calls() - before).toBeGreaterThanOrEqual(10);
  });

  it('a stop hands back a run claimed ahead, unstarted, its attempt not counted, due at its instant', async () => {
    h = await harness();
    h.s.handle('h', () => {});
    const lags = startLags(h);
    const first = h.clock.now() + 20_000;
    await spread(h, first, 'allow', 1);
    await h.clock.set(first - CLAIM_AHEAD_MS / 2);
    expect((await h.s.listRuns({ state: 'running' })).items).toHaveLength(1);
    await h.s.stop();
    const [run] = (await h.s.listRuns({ limit: 10 })).items;
    // Still due at its instant, not at the stop: another instance must not start it early.
    expect(run).toMatchObject({ state: 'scheduled', attempt: 0, startedAt: null, dueAt: first });
    expect(lags).toEqual([]);
  });

  it('refuses a negative claimAheadMs', async () => {
    await expect(harness({ claimAheadMs: -1 })).rejects.toMatchObject({ code: 'SCHEDULE_INVALID' });
  });
});
