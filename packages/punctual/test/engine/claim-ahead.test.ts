// Claiming ahead (claimAheadMs): runs of overlap `allow` are claimed up to claimAheadMs before their instant
// and each starts on a timer at its instant, never before; runs of other overlap policies are claimed once
// due. Schedules a few milliseconds apart are served by a few claims instead of one each. A stop hands the
// runs claimed ahead back unstarted. A worker that has delivered nothing yet claims a boundary ahead beyond
// its slots, and hands that guess back once its first delivery shows the handlers are slow; the event loop
// turns between the claims of one boundary. Injected clock; the in-memory store answers within a turn.

import { afterEach, describe, expect, it } from 'vitest';
import { CLAIM_AHEAD_MS } from '../../src/options.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { countingCalls } from '../support/counting-store.js';
import { harness, type Harness } from '../support/harness.js';

const HOUR = 3_600_000;
const SPREAD = 50;
/** Runs of one boundary, far beyond the slots (the harness's concurrency 10) and the prefetch floor (10). */
const BOUNDARY = 300;
/** The prefetch buffer's waitMs (scheduler.ts). */
const WAIT_MS = 100;

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

/** `n` hourly schedules of overlap allow, all first due at `at`. */
async function boundary(hh: Harness, at: number, n: number): Promise<void> {
  const inputs = Array.from({ length: n }, (_, i) => ({
    key: `b-${i}`,
    spec: `@every ${HOUR}ms`,
    startAt: at,
    target: { handler: 'h' },
  }));
  expect((await hh.s.putBulk(inputs)).totals.refused).toBe(0);
}

/** Resolves at the `n`-th `event`. */
function nth(hh: Harness, event: 'run:released' | 'run:succeeded', n: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    hh.s.on(event, () => {
      if (++seen === n) resolve();
    });
  });
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
    // the settlement (before its first delivery the worker's room is its slots and its prefetch floor, 20 runs,
    // until a claim finds only runs ahead of their instant).
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

  it('a worker that has delivered nothing yet claims a whole boundary ahead, beyond its slots', async () => {
    h = await harness();
    h.s.handle('h', () => {});
    const lags = startLags(h);
    const at = h.clock.now() + 20_000;
    await boundary(h, at, BOUNDARY);
    await h.clock.set(at - 1);
    // Not the floor's 20 (slots and prefetch floor): runs ahead of their instant block nothing that is due.
    expect(h.s.heldAhead).toBe(BOUNDARY);
    expect(lags).toEqual([]);
    await h.clock.advance(1);
    await h.quiesce();
    expect(lags).toEqual(Array.from({ length: BOUNDARY }, () => 0));
  });

  it('a boundary of several claims lets the event loop turn between them (timers and I/O are not held up)', async () => {
    const claims = countingCalls(sqliteStore({ path: ':memory:' }), 'claimRuns');
    h = await harness({ store: claims.store });
    h.s.handle('h', () => {});
    const n = 500; // three claims of at most 200
    const at = h.clock.now() + 20_000;
    await boundary(h, at, n);
    const before = claims.calls();
    const turns: number[] = [];
    let watching = true;
    const turn = (): void => {
      turns.push(claims.calls() - before);
      if (watching) setImmediate(turn);
    };
    setImmediate(turn);
    await h.clock.set(at - 1);
    watching = false;
    expect(h.s.heldAhead).toBe(n);
    const made = claims.calls() - before;
    expect(made).toBeGreaterThanOrEqual(3);
    expect(turns.some((c) => c > 0 && c < made)).toBe(true);
  });

  it('hands that guess back, due at once, when the first delivery outlasts waitMs', async () => {
    h = await harness();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    h.s.handle('h', () => gate);
    const started: string[] = [];
    h.s.on('run:started', ({ run }) => started.push(run.id));
    // The ten slots busy, the floor's ten kept, the rest handed back.
    const handedBack = BOUNDARY - 20;
    const released = nth(h, 'run:released', handedBack);
    const succeeded = nth(h, 'run:succeeded', BOUNDARY);
    const at = h.clock.now() + 20_000;
    await boundary(h, at, BOUNDARY);
    await h.clock.set(at);
    expect(started).toHaveLength(10);
    expect(h.s.heldAhead).toBe(0);
    await h.clock.advance(WAIT_MS - 1);
    expect((await h.s.listRuns({ state: 'scheduled', limit: 500 })).items).toEqual([]);
    await h.clock.advance(1);
    await released;
    const back = (await h.s.listRuns({ state: 'scheduled', limit: 500 })).items;
    expect(back).toHaveLength(handedBack);
    // Their instant has passed: due at once, for this or another instance, their attempt not counted.
    for (const r of back)
      expect(r).toMatchObject({ attempt: 0, startedAt: null, scheduledFor: at, dueAt: at + WAIT_MS });
    open();
    await h.drive(succeeded);
    await h.quiesce();
    expect((await h.s.listRuns({ state: 'succeeded', limit: 500 })).items).toHaveLength(BOUNDARY);
    expect(new Set(started).size).toBe(BOUNDARY);
    expect(started).toHaveLength(BOUNDARY);
  });
});
