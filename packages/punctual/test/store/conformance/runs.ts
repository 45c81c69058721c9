// Conformance: run lookups and housekeeping. Cancelling by hand, one run with its attempts, pages of runs,
// the earliest due instant (overall and per schedule), "not fired" detection, and pruning history by age
// and by count.

import { expect, it } from 'vitest';
import type { PruneRequest } from '../../../src/store/store.js';
import { MINUTE, OTHER_TENANT, runInsert, T0, TENANT } from '../../support/fixtures.js';
import {
  addRuns,
  claim,
  claimOne,
  create,
  ids,
  rejectsWithCode,
  runOf,
  settlement,
  succeed,
  type Ctx,
} from './helpers.js';

const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function runTests(ctx: Ctx): void {
  it('cancels a scheduled or running run by hand; a final run is not cancellable', async () => {
    const s = await create(ctx.store);
    const [running, pending] = await addRuns(ctx.store, s, [T0, T0 + MINUTE]);
    const c = await claimOne(ctx.store, T0);
    const t1 = await ctx.store.cancelRun(TENANT, pending!.id, T0 + 1);
    expect(t1).toMatchObject({ from: 'scheduled', to: 'cancelled' });
    expect(t1!.run).toMatchObject({ state: 'cancelled', reason: 'manual', finishedAt: T0 + 1 });
    const t2 = await ctx.store.cancelRun(TENANT, running!.id, T0 + 2);
    expect(t2).toMatchObject({ from: 'running', to: 'cancelled' });
    expect(t2!.run).toMatchObject({ leaseOwner: null, leaseExpiresAt: null });
    expect(
      await ctx.store.settleRuns([settlement(c, { state: 'succeeded', result: null }, T0 + 3)], T0 + 3),
    ).toEqual([null]);
    const details = await rejectsWithCode(
      ctx.store.cancelRun(TENANT, running!.id, T0 + 4),
      'RUN_NOT_CANCELLABLE',
    );
    expect(details.state).toBe('cancelled');
    expect(await ctx.store.cancelRun(TENANT, '987654', T0)).toBeUndefined();
    expect(await ctx.store.cancelRun(TENANT, 'not-an-id', T0)).toBeUndefined();
    // A run cancelled by hand keeps its occurrence: it is not materialised again.
    expect(await addRuns(ctx.store, s, [T0 + MINUTE])).toEqual([]);
  });

  it('returns a run with its attempts in the order they happened', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0]);
    let now = T0;
    for (let i = 0; i < 2; i++) {
      const c = await claimOne(ctx.store, now);
      const retry = {
        state: 'scheduled',
        reason: 'retry',
        dueAt: now + 1000,
        error: { message: `fail ${i}` },
      } as const;
      await ctx.store.settleRuns([settlement(c, retry, now + 10)], now + 10);
      now += 1000;
    }
    const last = await claimOne(ctx.store, now);
    await succeed(ctx.store, last, now + 10);
    const got = await ctx.store.getRun(TENANT, last.run.id);
    expect(got?.run.state).toBe('succeeded');
    expect(got?.attempts.map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'retry'],
      [2, 'retry'],
      [3, 'succeeded'],
    ]);
    expect(got?.attempts[0]?.error).toEqual({ message: 'fail 0' });
    expect(await ctx.store.getRun(TENANT, '31337')).toBeUndefined();
    expect(await ctx.store.getRun(TENANT, 'x')).toBeUndefined();
  });

  it('lists runs newest first, page by page, through ties in scheduledFor', async () => {
    const s = await create(ctx.store);
    const times = [T0, T0 + MINUTE, T0 + MINUTE, T0 + MINUTE, T0 + 2 * MINUTE];
    const runs = (
      await ctx.store.insertRuns(
        times.map((t) => runInsert({ schedule: s, scheduledFor: t, kind: 'manual', unique: false })),
        T0,
      )
    ).map((t) => t.run);
    const expected = [...runs].sort((a, b) => b.scheduledFor - a.scheduledFor || Number(b.id) - Number(a.id));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await ctx.store.listRuns({ tenantId: TENANT, limit: 2, cursor });
      seen.push(...ids(page.items));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined && pages < 10);
    expect(seen).toEqual(ids(expected));
    expect(pages).toBe(3);
  });

  it('lists running and scheduled runs in their place among the others, page by page, with and without a key', async () => {
    const s = await create(ctx.store);
    const times = [T0, T0 + MINUTE, T0 + MINUTE, T0 + 2 * MINUTE, T0 + 3 * MINUTE, T0 + 3 * MINUTE];
    await ctx.store.insertRuns(
      times.map((t) => runInsert({ schedule: s, scheduledFor: t, kind: 'manual', unique: false })),
      T0,
    );
    // The two earliest start and the first ends: one final run, one running (tied with a scheduled one).
    const started = (await claim(ctx.store, T0 + 3 * MINUTE, 2)).claimed;
    expect(started).toHaveLength(2);
    await ctx.store.settleRuns(
      [settlement(started[0]!, { state: 'succeeded', result: null }, T0 + 3 * MINUTE)],
      T0 + 3 * MINUTE,
    );
    const all = (await ctx.store.listRuns({ tenantId: TENANT, limit: 50 })).items;
    expect(all.map((r) => r.state).sort()).toEqual([
      'running',
      'scheduled',
      'scheduled',
      'scheduled',
      'scheduled',
      'succeeded',
    ]);
    const expected = [...all]
      .sort((a, b) => b.scheduledFor - a.scheduledFor || Number(b.id) - Number(a.id))
      .map((r) => [r.id, r.state]);
    expect(all.map((r) => [r.id, r.state])).toEqual(expected);
    for (const scheduleKey of [undefined, s.key]) {
      const seen: [string, string][] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await ctx.store.listRuns({ tenantId: TENANT, scheduleKey, limit: 2, cursor });
        seen.push(...page.items.map((r): [string, string] => [r.id, r.state]));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined && pages < 10);
      expect(seen).toEqual(expected);
      expect(pages).toBe(3);
    }
    const running = await ctx.store.listRuns({ tenantId: TENANT, state: 'running', limit: 1 });
    expect(running.items.map((r) => r.id)).toEqual([expected.find((r) => r[1] === 'running')![0]]);
    expect(running.nextCursor).toBeUndefined();
    const scheduled: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await ctx.store.listRuns({ tenantId: TENANT, state: 'scheduled', limit: 3, cursor });
      scheduled.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
    } while (cursor !== undefined && scheduled.length < 10);
    expect(scheduled).toEqual(expected.filter((r) => r[1] === 'scheduled').map((r) => r[0]));
  });

  it('rejects a page cursor it did not issue with CURSOR_INVALID', async () => {
    await rejectsWithCode(
      ctx.store.listRuns({ tenantId: TENANT, limit: 5, cursor: 'bogus' }),
      'CURSOR_INVALID',
    );
    await rejectsWithCode(
      ctx.store.listSchedules({ tenantId: TENANT, limit: 5, cursor: 'W10' }),
      'CURSOR_INVALID',
    );
  });

  it('filters runs by schedule key, state and scheduledFor range', async () => {
    const a = await create(ctx.store, { key: 'a' });
    const b = await create(ctx.store, { key: 'b' });
    await addRuns(ctx.store, a, [T0, T0 + MINUTE, T0 + 2 * MINUTE]);
    await addRuns(ctx.store, b, [T0, T0 + MINUTE]);
    await claimOne(ctx.store, T0);
    const list = async (q: object): Promise<[string, number, string][]> =>
      (await ctx.store.listRuns({ tenantId: TENANT, limit: 50, ...q })).items.map((r) => [
        r.scheduleKey,
        r.scheduledFor - T0,
        r.state,
      ]);
    expect(await list({ scheduleKey: 'b' })).toEqual([
      ['b', MINUTE, 'scheduled'],
      ['b', 0, 'scheduled'],
    ]);
    expect(await list({ state: 'running' })).toEqual([['a', 0, 'running']]);
    expect(await list({ scheduleKey: 'a', from: T0 + MINUTE, to: T0 + 2 * MINUTE })).toEqual([
      ['a', MINUTE, 'scheduled'],
    ]);
    expect(await list({ scheduleKey: 'zzz' })).toEqual([]);
  });

  it("reports each schedule's earliest pending due instant in one read, for its tenant only", async () => {
    const a = await create(ctx.store, { key: 'a' });
    const b = await create(ctx.store, { key: 'b' });
    const idle = await create(ctx.store, { key: 'idle' });
    const other = await create(ctx.store, { tenantId: OTHER_TENANT, key: 'a' });
    expect(await ctx.store.pendingDueAt(TENANT, [])).toEqual(new Map());
    // a: one running (started), one pending at +3 min, one skipped at +1 min, one pending at +5 min.
    await addRuns(ctx.store, a, [T0]);
    await claimOne(ctx.store, T0);
    await addRuns(ctx.store, a, [T0 + 5 * MINUTE, T0 + 3 * MINUTE], { priority: 4 });
    await addRuns(ctx.store, a, [T0 + MINUTE], { state: 'skipped', reason: 'misfire' });
    // b: a retry due later than its nominal instant counts by its due instant.
    await addRuns(ctx.store, b, [T0 + 2 * MINUTE]);
    await ctx.store.insertRuns(
      [runInsert({ schedule: b, scheduledFor: T0 + 4 * MINUTE, dueAt: T0 + 7 * MINUTE })],
      T0,
    );
    await addRuns(ctx.store, other, [T0 + MINUTE]);
    const got = await ctx.store.pendingDueAt(TENANT, [a.id, b.id, idle.id, other.id, 'not-an-id']);
    expect(got).toEqual(
      new Map([
        [a.id, T0 + 3 * MINUTE],
        [b.id, T0 + 2 * MINUTE],
      ]),
    );
    expect(await ctx.store.pendingDueAt(OTHER_TENANT, [other.id, a.id])).toEqual(
      new Map([[other.id, T0 + MINUTE]]),
    );
  });

  it('reports the earliest due instant among scheduled runs, whatever their priority', async () => {
    expect(await ctx.store.nextRunDueAt()).toBeNull();
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0 + 5 * MINUTE], { priority: 9 });
    await addRuns(ctx.store, s, [T0 + 2 * MINUTE], { priority: -3 });
    await addRuns(ctx.store, s, [T0 + 3 * MINUTE]);
    await addRuns(ctx.store, s, [T0 + MINUTE], { state: 'skipped', reason: 'misfire' });
    expect(await ctx.store.nextRunDueAt()).toBe(T0 + 2 * MINUTE);
    await addRuns(ctx.store, s, [T0]);
    await claimOne(ctx.store, T0);
    expect(await ctx.store.nextRunDueAt()).toBe(T0 + 2 * MINUTE);
  });

  it('reports each run that did not fire in time, once', async () => {
    const s = await create(ctx.store);
    const [late1, late2, onTime] = await addRuns(ctx.store, s, [T0, T0 + 1000, T0 + 50_000], { priority: 0 });
    const [lateHigh] = await addRuns(ctx.store, s, [T0 + 500], { priority: 4 });
    const grace = 30_000;
    const now = T0 + 1000 + grace + 1;
    const first = await ctx.store.takeNotFired(now, grace, 2);
    expect(ids(first)).toEqual([late1!.id, lateHigh!.id]);
    expect(ids(await ctx.store.takeNotFired(now, grace, 10))).toEqual([late2!.id]);
    expect(await ctx.store.takeNotFired(now, grace, 10)).toEqual([]);
    expect((await runOf(ctx.store, onTime!)).state).toBe('scheduled');
    expect(ids(await ctx.store.takeNotFired(T0 + 50_000 + grace + 1, grace, 10))).toEqual([onTime!.id]);
  });

  it('reports a run again when it is late again after a retry', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0]);
    expect(await ctx.store.takeNotFired(T0 + 10, 5, 10)).toHaveLength(1);
    const c = await claimOne(ctx.store, T0 + 10);
    const retry = { state: 'scheduled', reason: 'retry', dueAt: T0 + 20, error: null } as const;
    await ctx.store.settleRuns([settlement(c, retry, T0 + 11)], T0 + 11);
    expect(ids(await ctx.store.takeNotFired(T0 + 25, 5, 10))).toEqual([]);
    expect(ids(await ctx.store.takeNotFired(T0 + 26, 5, 10))).toEqual([c.run.id]);
    expect(await ctx.store.takeNotFired(T0 + 27, 5, 10)).toEqual([]);
  });

  pruneTests(ctx);
}

function pruneTests(ctx: Ctx): void {
  const prune = (over: Partial<PruneRequest>): PruneRequest => ({
    now: T0 + 10 * DAY,
    retentionMs: 7 * DAY,
    failedRetentionMs: 30 * DAY,
    keepPerSchedule: 1000,
    limit: 1000,
    ...over,
  });

  /** Inserts a run at `at` and settles it at `at` with the given final state. */
  async function finished(
    key: string,
    at: number,
    state: 'succeeded' | 'dead' | 'cancelled',
  ): Promise<string> {
    const s = (await ctx.store.getSchedule(TENANT, key)) ?? (await create(ctx.store, { key }));
    await addRuns(ctx.store, s, [at], {}, at);
    const c = await claimOne(ctx.store, at);
    const outcome =
      state === 'succeeded'
        ? ({ state, result: null } as const)
        : state === 'dead'
          ? ({ state, error: { message: 'x' } } as const)
          : ({ state, reason: 'manual' } as const);
    await ctx.store.settleRuns([settlement(c, outcome, at)], at);
    return c.run.id;
  }

  it('prunes final runs older than the retention, failures after their own retention', async () => {
    const oldOk = await finished('a', T0, 'succeeded');
    const oldCancelled = await finished('a', T0 + 1, 'cancelled');
    const oldDead = await finished('a', T0 + 2, 'dead');
    const recentOk = await finished('a', T0 + 5 * DAY, 'succeeded');
    const s = (await ctx.store.getSchedule(TENANT, 'a'))!;
    const [pending] = await addRuns(ctx.store, s, [T0 - DAY], {}, T0 - DAY);

    expect(await ctx.store.pruneHistory(prune({}))).toBe(2);
    expect(await ctx.store.getRun(TENANT, oldOk)).toBeUndefined();
    expect(await ctx.store.getRun(TENANT, oldCancelled)).toBeUndefined();
    expect((await ctx.store.getRun(TENANT, oldDead))?.attempts).toHaveLength(1);
    expect(await ctx.store.getRun(TENANT, recentOk)).toBeDefined();
    expect((await runOf(ctx.store, pending!)).state).toBe('scheduled');

    expect(await ctx.store.pruneHistory(prune({ now: T0 + 31 * DAY }))).toBe(2);
    expect(await ctx.store.getRun(TENANT, oldDead)).toBeUndefined();
    expect(await ctx.store.getRun(TENANT, pending!.id)).toBeDefined();
  });

  it('keeps only the newest final runs of each schedule', async () => {
    const a = [];
    for (let i = 0; i < 4; i++) a.push(await finished('a', T0 + 9 * DAY + i, 'succeeded'));
    const b = await finished('b', T0 + 9 * DAY, 'succeeded');
    expect(await ctx.store.pruneHistory(prune({ keepPerSchedule: 2 }))).toBe(2);
    const left = ids((await ctx.store.listRuns({ tenantId: TENANT, limit: 50 })).items).sort();
    expect(left).toEqual([a[2]!, a[3]!, b].sort());
  });

  it('trims schedules whose runs finished since the last prune, and resumes a trim cut short by `limit`', async () => {
    const at = T0 + 9 * DAY;
    const a = [await finished('a', at, 'succeeded'), await finished('a', at + 1, 'succeeded')];
    const b = [await finished('b', at + 2, 'succeeded')];
    expect(await ctx.store.pruneHistory(prune({ keepPerSchedule: 2 }))).toBe(0);
    // Later runs: 'a' goes to 5 final runs, 'b' to 4; keep 2 leaves 3 + 2 to trim, 2 per call.
    for (let i = 0; i < 3; i++) a.push(await finished('a', at + 10 + i, 'succeeded'));
    for (let i = 0; i < 3; i++) b.push(await finished('b', at + 20 + i, 'succeeded'));
    const trim = () => ctx.store.pruneHistory(prune({ keepPerSchedule: 2, limit: 2 }));
    expect([await trim(), await trim(), await trim(), await trim()]).toEqual([2, 2, 1, 0]);
    const left = ids((await ctx.store.listRuns({ tenantId: TENANT, limit: 50 })).items).sort();
    expect(left).toEqual([a[3]!, a[4]!, b[2]!, b[3]!].sort());
  });

  it('prunes at most `limit` runs per call', async () => {
    for (let i = 0; i < 5; i++) await finished('a', T0 + i, 'succeeded');
    expect(await ctx.store.pruneHistory(prune({ limit: 3 }))).toBe(3);
    expect(await ctx.store.pruneHistory(prune({ limit: 3 }))).toBe(2);
    expect(await ctx.store.pruneHistory(prune({ limit: 3 }))).toBe(0);
  });
}
