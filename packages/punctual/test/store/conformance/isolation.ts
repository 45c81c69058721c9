// Conformance: tenant isolation (one tenant never reads or changes another's schedules and runs) and time
// (the store never reads a clock: the same operations in 2099 and in 1970 follow the `now` they are given).

import { expect, it } from 'vitest';
import { draft, MINUTE, OTHER_TENANT, runInsert, TENANT } from '../../support/fixtures.js';
import { addRuns, claimOne, create, LEASE_MS, runOf, settlement, type Ctx } from './helpers.js';

export function tenancyTests(ctx: Ctx): void {
  it('keeps the same key in two tenants as two schedules', async () => {
    const a = await create(ctx.store, { key: 'same', payload: 'a' });
    const b = await create(ctx.store, { key: 'same', tenantId: OTHER_TENANT, payload: 'b' });
    expect(a.id).not.toBe(b.id);
    expect((await ctx.store.getSchedule(TENANT, 'same'))?.payload).toBe('a');
    expect((await ctx.store.getSchedule(OTHER_TENANT, 'same'))?.payload).toBe('b');
    const changed = await ctx.store.putSchedule({
      draft: draft({ key: 'same', payload: 'a2' }),
      nextFireAt: 0,
      now: 0,
    });
    expect(changed.schedule.version).toBe(2);
    expect((await ctx.store.getSchedule(OTHER_TENANT, 'same'))?.version).toBe(1);
  });

  it("does not let a tenant see or change another tenant's schedules", async () => {
    const a = await create(ctx.store, { key: 'private' });
    expect(await ctx.store.getSchedule(OTHER_TENANT, 'private')).toBeUndefined();
    expect((await ctx.store.listSchedules({ tenantId: OTHER_TENANT, limit: 10 })).items).toEqual([]);
    expect(await ctx.store.deleteSchedule(OTHER_TENANT, 'private', 0)).toEqual({
      deleted: false,
      transitions: [],
    });
    expect(
      await ctx.store.pauseSchedule(OTHER_TENANT, 'private', { cancelPending: true, note: null, now: 0 }),
    ).toBeUndefined();
    expect(
      await ctx.store.resumeSchedule(OTHER_TENANT, 'private', { nextFireAt: 0, skipped: [], now: 0 }),
    ).toBeUndefined();
    expect(await ctx.store.getSchedule(TENANT, 'private')).toEqual(a);
  });

  it("does not let a tenant see or cancel another tenant's runs", async () => {
    const a = await create(ctx.store);
    const [r] = await addRuns(ctx.store, a, [a.nextFireAt! + MINUTE]);
    expect(await ctx.store.getRun(OTHER_TENANT, r!.id)).toBeUndefined();
    expect(await ctx.store.cancelRun(OTHER_TENANT, r!.id, 0)).toBeUndefined();
    expect((await ctx.store.listRuns({ tenantId: OTHER_TENANT, limit: 10 })).items).toEqual([]);
    expect(
      (await ctx.store.listRuns({ tenantId: OTHER_TENANT, scheduleKey: a.key, limit: 10 })).items,
    ).toEqual([]);
    expect((await runOf(ctx.store, r!)).state).toBe('scheduled');
  });
}

export function clockTests(ctx: Ctx): void {
  /** A whole cycle relative to `base`; every instant the store reports must derive from it. */
  async function cycle(base: number): Promise<void> {
    const s = await create(ctx.store, {}, { nextFireAt: base, now: base });
    expect(s).toMatchObject({ createdAt: base, updatedAt: base, nextFireAt: base });
    expect(await ctx.store.nextScheduleAt()).toBe(base);
    const due = await ctx.store.claimDueSchedules({ now: base, horizon: base, limit: 5, leaseMs: 1000 });
    expect(due.map((x) => x.id)).toEqual([s.id]);
    const adv = await ctx.store.advanceSchedule({
      tenantId: TENANT,
      scheduleId: s.id,
      version: 1,
      expectedNextFireAt: base,
      nextFireAt: base + MINUTE,
      fired: 2,
      complete: false,
      runs: [
        runInsert({ schedule: s, scheduledFor: base }),
        runInsert({ schedule: s, scheduledFor: base + MINUTE }),
      ],
      now: base,
    });
    expect(adv.transitions.map((t) => t.run.createdAt)).toEqual([base, base]);
    expect(await ctx.store.nextRunDueAt()).toBe(base);

    const c = await claimOne(ctx.store, base);
    expect(c.run).toMatchObject({ startedAt: base, leaseExpiresAt: base + LEASE_MS });
    expect(await ctx.store.reclaimExpiredLeases(base + LEASE_MS, 10)).toEqual([]);
    const reclaimed = await ctx.store.reclaimExpiredLeases(base + LEASE_MS + 1, 10);
    expect(reclaimed.map((t) => t.run.dueAt)).toEqual([base + LEASE_MS + 1]);

    const again = await claimOne(ctx.store, base + LEASE_MS + 1);
    const [t] = await ctx.store.settleRuns(
      [settlement(again, { state: 'succeeded', result: null }, base + LEASE_MS + 2)],
      base + LEASE_MS + 2,
    );
    expect(t?.run.finishedAt).toBe(base + LEASE_MS + 2);
    expect(await ctx.store.takeNotFired(base + MINUTE, 0, 10)).toEqual([]);
    expect((await ctx.store.takeNotFired(base + MINUTE + 1, 0, 10)).map((r) => r.scheduledFor)).toEqual([
      base + MINUTE,
    ]);
    const prune = { retentionMs: MINUTE, failedRetentionMs: MINUTE, keepPerSchedule: 10, limit: 10 };
    expect(await ctx.store.pruneHistory({ ...prune, now: base + LEASE_MS + 2 + MINUTE })).toBe(0);
    expect(await ctx.store.pruneHistory({ ...prune, now: base + LEASE_MS + 3 + MINUTE })).toBe(1);
  }

  it('follows `now` in 2099, never the clock', async () => {
    await cycle(Date.UTC(2099, 5, 1, 12, 0, 0));
  });

  it('follows `now` in 1970, never the clock', async () => {
    await cycle(Date.UTC(1970, 0, 2, 0, 0, 0));
  });
}
