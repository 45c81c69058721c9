// Conformance: claiming runs. Priority then due time, deadlines, every overlap policy, transitions for
// every side effect, and the fencing token that makes a worker's settlement stale once it lost the run.

import { expect, it } from 'vitest';
import type { OverlapPolicy } from '../../../src/domain/policies.js';
import { MINUTE, OTHER_TENANT, policies, runInsert, T0 } from '../../support/fixtures.js';
import {
  addRuns,
  claim,
  claimOne,
  create,
  LEASE_MS,
  runOf,
  settlement,
  succeed,
  type Ctx,
} from './helpers.js';

export function claimTests(ctx: Ctx): void {
  it('claims due runs by priority, then due time, and leaves future runs alone', async () => {
    const low = await create(ctx.store, { key: 'low' });
    const high = await create(ctx.store, { key: 'high', policies: policies({ priority: 5 }) });
    const [l1, l2] = await addRuns(ctx.store, low, [T0 - 2 * MINUTE, T0 - MINUTE]);
    const [h1] = await addRuns(ctx.store, high, [T0 - MINUTE / 2]);
    const [future] = await addRuns(ctx.store, high, [T0 + 1]);
    const [neg] = await addRuns(ctx.store, low, [T0 - 3 * MINUTE], { priority: -2 });
    const first = await claim(ctx.store, T0, 2);
    expect(first.claimed.map((c) => c.run.id)).toEqual([h1!.id, l1!.id]);
    const second = await claim(ctx.store, T0, 10);
    expect(second.claimed.map((c) => c.run.id)).toEqual([l2!.id, neg!.id]);
    expect((await claim(ctx.store, T0, 10)).claimed).toEqual([]);
    expect((await runOf(ctx.store, future!)).state).toBe('scheduled');
    expect((await claim(ctx.store, T0 + 1, 10)).claimed.map((c) => c.run.id)).toEqual([future!.id]);
  });

  it('breaks ties in due time by insertion order', async () => {
    const s = await create(ctx.store);
    const runs = await ctx.store.insertRuns(
      [0, 1, 2].map((i) =>
        runInsert({ schedule: s, kind: 'manual', unique: false, scheduledFor: T0 + i, dueAt: T0 }),
      ),
      T0,
    );
    const { claimed } = await claim(ctx.store, T0, 3);
    expect(claimed.map((c) => c.run.id)).toEqual(runs.map((t) => t.run.id));
  });

  it('leases a claimed run and hands it out with its schedule and a token', async () => {
    const s = await create(ctx.store, { payload: { hello: 'world' } });
    const [r] = await addRuns(ctx.store, s, [T0 - 1000]);
    const { claimed, transitions } = await claim(ctx.store, T0, 5, 'worker-7', 45_000);
    expect(claimed).toHaveLength(1);
    const c = claimed[0]!;
    expect(c.run).toMatchObject({
      id: r!.id,
      state: 'running',
      attempt: 1,
      leaseOwner: 'worker-7',
      leaseExpiresAt: T0 + 45_000,
      startedAt: T0,
      finishedAt: null,
    });
    expect(c.schedule).toEqual(s);
    expect(typeof c.token).toBe('string');
    expect(c.token.length).toBeGreaterThan(8);
    expect(transitions).toEqual([{ run: c.run, from: 'scheduled', to: 'running' }]);
  });

  it('claims runs of every tenant', async () => {
    const a = await create(ctx.store);
    const b = await create(ctx.store, { tenantId: OTHER_TENANT });
    await addRuns(ctx.store, a, [T0]);
    await addRuns(ctx.store, b, [T0]);
    const { claimed } = await claim(ctx.store, T0, 10);
    expect(claimed.map((c) => c.run.tenantId).sort()).toEqual([OTHER_TENANT, a.tenantId].sort());
  });

  it("claims fairly across tenants: one tenant's backlog does not hold back another's runs due at once", async () => {
    const busy = await create(ctx.store, { key: 'busy' });
    const quiet = await create(ctx.store, { key: 'quiet', tenantId: OTHER_TENANT });
    const backlog = Array.from({ length: 50 }, (_, i) => T0 - 1000 + i);
    await addRuns(ctx.store, busy, backlog);
    await addRuns(ctx.store, quiet, [T0, T0 + 1, T0 + 2]);
    const first = await claim(ctx.store, T0 + 10, 10);
    const byTenant = (c: typeof first) => c.claimed.map((x) => x.run.tenantId);
    expect(byTenant(first).filter((t) => t === OTHER_TENANT)).toHaveLength(3);
    expect(first.claimed).toHaveLength(10);
    // The busy tenant's share is still in due order, and it gets the whole batch once the other is served.
    const busyClaimed = first.claimed
      .filter((x) => x.run.tenantId !== OTHER_TENANT)
      .map((x) => x.run.scheduledFor);
    expect(busyClaimed).toEqual(backlog.slice(0, 7));
    const second = await claim(ctx.store, T0 + 10, 10);
    expect(second.claimed.map((x) => x.run.scheduledFor)).toEqual(backlog.slice(7, 17));
  });

  it('expires a run not started within its deadline instead of claiming it', async () => {
    const s = await create(ctx.store);
    const [late, onTime] = await addRuns(ctx.store, s, [T0 - 2 * MINUTE, T0 - MINUTE], {
      expiresAt: T0 - MINUTE,
    });
    const { claimed, transitions } = await claim(ctx.store, T0 - MINUTE + 1, 10);
    expect(claimed).toEqual([]);
    expect(transitions.map((t) => [t.run.id, t.from, t.to, t.run.reason, t.run.finishedAt])).toEqual([
      [late!.id, 'scheduled', 'expired', 'deadline', T0 - MINUTE + 1],
      [onTime!.id, 'scheduled', 'expired', 'deadline', T0 - MINUTE + 1],
    ]);
    const [edge] = await addRuns(ctx.store, s, [T0], { expiresAt: T0 + 10 });
    expect((await claim(ctx.store, T0 + 10, 10)).claimed.map((c) => c.run.id)).toEqual([edge!.id]);
  });

  it('cancels a retried run whose schedule was deleted instead of claiming it', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0]);
    const c = await claimOne(ctx.store, T0);
    await ctx.store.deleteSchedule(s.tenantId, s.key, T0);
    const retry = { state: 'scheduled', reason: 'retry', dueAt: T0 + 1, error: { message: 'boom' } } as const;
    await ctx.store.settleRuns([settlement(c, retry, T0)], T0);
    const res = await claim(ctx.store, T0 + 1, 10);
    expect(res.claimed).toEqual([]);
    expect(res.transitions.map((t) => [t.run.id, t.to, t.run.reason])).toEqual([
      [c.run.id, 'cancelled', 'deleted'],
    ]);
  });

  overlapTests(ctx);
}

function overlapTests(ctx: Ctx): void {
  const withOverlap = (overlap: OverlapPolicy, key = 'job') =>
    create(ctx.store, { key, policies: policies({ overlap }) });

  it('overlap allow: runs of one schedule run side by side', async () => {
    const s = await withOverlap('allow');
    await addRuns(ctx.store, s, [T0 - MINUTE, T0]);
    expect((await claim(ctx.store, T0, 10)).claimed).toHaveLength(2);
    await addRuns(ctx.store, s, [T0 + MINUTE]);
    expect((await claim(ctx.store, T0 + MINUTE, 10)).claimed).toHaveLength(1);
  });

  it('overlap skip: a run due while another runs is skipped, in one batch or across batches', async () => {
    const s = await withOverlap('skip');
    const [a, b] = await addRuns(ctx.store, s, [T0 - MINUTE, T0]);
    const first = await claim(ctx.store, T0, 10);
    expect(first.claimed.map((c) => c.run.id)).toEqual([a!.id]);
    expect(first.transitions.map((t) => [t.run.id, t.to, t.run.reason])).toEqual([
      [a!.id, 'running', null],
      [b!.id, 'skipped', 'overlap'],
    ]);
    const [c] = await addRuns(ctx.store, s, [T0 + MINUTE]);
    const second = await claim(ctx.store, T0 + MINUTE, 10);
    expect(second.claimed).toEqual([]);
    expect(second.transitions.map((t) => [t.run.id, t.to, t.run.reason])).toEqual([
      [c!.id, 'skipped', 'overlap'],
    ]);
  });

  it('overlap bufferOne: one run waits; when it is claimed the other due runs are skipped', async () => {
    const s = await withOverlap('bufferOne');
    await addRuns(ctx.store, s, [T0]);
    const running = await claimOne(ctx.store, T0);
    const [w1, w2, w3] = await addRuns(ctx.store, s, [T0 + MINUTE, T0 + 2 * MINUTE, T0 + 10 * MINUTE]);
    const waiting = await claim(ctx.store, T0 + 2 * MINUTE, 10);
    expect(waiting).toEqual({ claimed: [], transitions: [] });
    expect((await runOf(ctx.store, w1!)).state).toBe('scheduled');

    await succeed(ctx.store, running, T0 + 3 * MINUTE);
    const next = await claim(ctx.store, T0 + 3 * MINUTE, 10);
    expect(next.claimed.map((c) => c.run.id)).toEqual([w1!.id]);
    expect(next.transitions.map((t) => [t.run.id, t.to, t.run.reason])).toEqual([
      [w1!.id, 'running', null],
      [w2!.id, 'skipped', 'overlap'],
    ]);
    expect((await runOf(ctx.store, w3!)).state).toBe('scheduled');
  });

  it('overlap bufferOne: a backlog claimed in one batch keeps only the first', async () => {
    const s = await withOverlap('bufferOne');
    const [a, b, c] = await addRuns(ctx.store, s, [T0 - 2 * MINUTE, T0 - MINUTE, T0]);
    const res = await claim(ctx.store, T0, 10);
    expect(res.claimed.map((x) => x.run.id)).toEqual([a!.id]);
    expect(res.transitions.filter((t) => t.to === 'skipped').map((t) => t.run.id)).toEqual([b!.id, c!.id]);
  });

  it('overlap bufferAll: runs wait and then go one at a time, in order', async () => {
    const s = await withOverlap('bufferAll');
    const runs = await addRuns(ctx.store, s, [T0 - 2 * MINUTE, T0 - MINUTE, T0]);
    const order: string[] = [];
    let now = T0;
    for (let i = 0; i < 3; i++) {
      const res = await claim(ctx.store, now, 10);
      expect(res.claimed).toHaveLength(1);
      expect(res.transitions.every((t) => t.to === 'running')).toBe(true);
      expect((await claim(ctx.store, now, 10)).claimed).toEqual([]);
      order.push(res.claimed[0]!.run.id);
      now += 1000;
      await succeed(ctx.store, res.claimed[0]!, now);
    }
    expect(order).toEqual(runs.map((r) => r.id));
  });

  it('overlap cancelPrevious: the running run is cancelled and its worker loses the run', async () => {
    const s = await withOverlap('cancelPrevious');
    await addRuns(ctx.store, s, [T0]);
    const old = await claimOne(ctx.store, T0, 'worker-old');
    const [fresh] = await addRuns(ctx.store, s, [T0 + MINUTE]);
    const res = await claim(ctx.store, T0 + MINUTE, 10, 'worker-new');
    expect(res.claimed.map((c) => c.run.id)).toEqual([fresh!.id]);
    expect(res.transitions.map((t) => [t.run.id, t.from, t.to, t.run.reason])).toEqual([
      [old.run.id, 'running', 'cancelled', 'overlap'],
      [fresh!.id, 'scheduled', 'running', null],
    ]);
    const cancelled = res.transitions[0]!.run;
    expect(cancelled).toMatchObject({ leaseOwner: null, leaseExpiresAt: null, finishedAt: T0 + MINUTE });
    const stale = await ctx.store.settleRuns(
      [settlement(old, { state: 'succeeded', result: null }, T0 + MINUTE)],
      T0,
    );
    expect(stale).toEqual([null]);
    expect(
      await ctx.store.extendLeases([{ runId: old.run.id, token: old.token }], T0 + LEASE_MS, T0),
    ).toEqual([]);
    expect((await runOf(ctx.store, old.run)).state).toBe('cancelled');
  });

  it('waiting runs never hold up other work', async () => {
    const busy = await withOverlap('bufferAll', 'busy');
    await addRuns(ctx.store, busy, [T0 - 60 * MINUTE]);
    await claimOne(ctx.store, T0);
    const backlog = Array.from({ length: 30 }, (_, i) => T0 - 59 * MINUTE + i * 1000);
    await addRuns(ctx.store, busy, backlog);
    const other = await create(ctx.store, { key: 'other' });
    const [r] = await addRuns(ctx.store, other, [T0]);
    const res = await claim(ctx.store, T0, 1);
    expect(res.claimed.map((c) => c.run.id)).toEqual([r!.id]);
  });
}
