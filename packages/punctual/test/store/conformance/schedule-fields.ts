// Conformance: the schedule fields beside the spec. The user's summary and labels (kept, versioned, and
// filterable in the list), the DST choice, creating a schedule paused, and the execution record: firedCount counts runs
// executed to an outcome (succeeded or dead), not occurrences materialised; lastFiredAt / lastSucceededAt, the
// same in every read, and none kept for a schedule deleted while its run ran.

import { expect, it } from 'vitest';
import { draft, MINUTE, OTHER_TENANT, T0, TENANT } from '../../support/fixtures.js';
import type { Schedule } from '../../../src/domain/schedule.js';
import { addRuns, claim, claimOne, create, settlement, type Ctx } from './helpers.js';

export function scheduleFieldTests(ctx: Ctx): void {
  it('keeps the summary and the labels, and a change of either is a new version', async () => {
    const first = await create(ctx.store, { summary: 'Nightly invoices', labels: { jobType: 'email' } });
    expect(first).toMatchObject({ summary: 'Nightly invoices', labels: { jobType: 'email' }, version: 1 });
    expect(await ctx.store.getSchedule(TENANT, 'report')).toEqual(first);
    const res = await ctx.store.putSchedule({
      draft: draft({ summary: 'Nightly invoices', labels: { jobType: 'sms' } }),
      nextFireAt: T0,
      now: T0 + MINUTE,
    });
    expect(res).toMatchObject({ changed: true, schedule: { version: 2, labels: { jobType: 'sms' } } });
  });

  it('keeps the DST choice (null: the default), and a change of it is a new version', async () => {
    const first = await create(ctx.store, { spec: '30 2 * * *', dst: { gap: 'skip', repeat: 'both' } });
    expect(first.dst).toEqual({ gap: 'skip', repeat: 'both' });
    expect(await ctx.store.getSchedule(TENANT, 'report')).toEqual(first);
    const res = await ctx.store.putSchedule({
      draft: draft({ spec: '30 2 * * *', dst: null }),
      nextFireAt: T0,
      now: T0 + MINUTE,
    });
    expect(res).toMatchObject({ changed: true, schedule: { version: 2, dst: null } });
    expect((await ctx.store.getSchedule(TENANT, 'report'))?.dst).toBeNull();
    const same = await ctx.store.putSchedule({
      draft: draft({ spec: '30 2 * * *', dst: null }),
      nextFireAt: T0,
      now: T0 + 2 * MINUTE,
    });
    expect(same).toMatchObject({ changed: false, schedule: { version: 2 } });
  });

  it('lists only the schedules that carry every label asked for', async () => {
    await create(ctx.store, { key: 'a', labels: { jobType: 'email', team: 'billing' } });
    await create(ctx.store, { key: 'b', labels: { jobType: 'email' } });
    await create(ctx.store, { key: 'c', labels: { jobType: 'sms' } });
    await create(ctx.store, { key: 'd' });
    await create(ctx.store, { tenantId: OTHER_TENANT, key: 'e', labels: { jobType: 'email' } });
    const keys = async (labels: [string, string][]) =>
      (await ctx.store.listSchedules({ tenantId: TENANT, labels, limit: 10 })).items.map((s) => s.key);
    expect(await keys([['jobType', 'email']])).toEqual(['a', 'b']);
    expect(
      await keys([
        ['jobType', 'email'],
        ['team', 'billing'],
      ]),
    ).toEqual(['a']);
    expect(await keys([['jobType', 'fax']])).toEqual([]);
    expect(await keys([])).toEqual(['a', 'b', 'c', 'd']);
    const page = await ctx.store.listSchedules({
      tenantId: TENANT,
      labels: [['jobType', 'email']],
      limit: 1,
    });
    expect(page.items.map((s) => s.key)).toEqual(['a']);
    const next = await ctx.store.listSchedules({
      tenantId: TENANT,
      labels: [['jobType', 'email']],
      limit: 1,
      cursor: page.nextCursor,
    });
    expect(next.items.map((s) => s.key)).toEqual(['b']);
  });

  it('creates a schedule paused when asked, and an update keeps the stored state', async () => {
    const res = await ctx.store.putSchedule({
      draft: draft(),
      nextFireAt: T0 + MINUTE,
      initialState: 'paused',
      now: T0,
    });
    expect(res.schedule).toMatchObject({ state: 'paused', pausedAt: T0, nextFireAt: T0 + MINUTE });
    expect(
      await ctx.store.claimDueSchedules({ now: T0 + MINUTE, horizon: T0 + MINUTE, limit: 10, leaseMs: 1 }),
    ).toEqual([]);
    const active = await create(ctx.store, { key: 'other' });
    const updated = await ctx.store.putSchedule({
      draft: draft({ key: 'other', spec: '*/10 * * * *' }),
      nextFireAt: T0,
      initialState: 'paused',
      now: T0 + MINUTE,
    });
    expect(active.state).toBe('active');
    expect(updated.schedule).toMatchObject({ state: 'active', pausedAt: null, version: 2 });
  });

  it('counts runs executed to an outcome in firedCount, not occurrences materialised', async () => {
    const s = await create(ctx.store);
    await ctx.store.advanceSchedule({
      tenantId: TENANT,
      scheduleId: s.id,
      version: 1,
      expectedNextFireAt: T0,
      nextFireAt: T0 + 15 * MINUTE,
      fired: 3,
      complete: false,
      runs: [],
      now: T0,
    });
    await addRuns(ctx.store, s, [T0, T0 + 5 * MINUTE, T0 + 10 * MINUTE]);
    const fresh = await ctx.store.getSchedule(TENANT, s.key);
    expect(fresh).toMatchObject({
      materializedCount: 3,
      firedCount: 0,
      lastFiredAt: null,
      lastSucceededAt: null,
    });

    // A retry is not an outcome yet: nothing counts.
    const first = await claimOne(ctx.store, T0 + 1000);
    await ctx.store.settleRuns(
      [settlement(first, { state: 'scheduled', reason: 'retry', dueAt: T0 + 2000, error: null }, T0 + 1500)],
      T0 + 1500,
    );
    expect(await ctx.store.getSchedule(TENANT, s.key)).toMatchObject({ firedCount: 0, lastFiredAt: null });

    const again = await claimOne(ctx.store, T0 + 3000);
    await ctx.store.settleRuns(
      [settlement(again, { state: 'succeeded', result: null }, T0 + 3500)],
      T0 + 3500,
    );
    expect(await ctx.store.getSchedule(TENANT, s.key)).toMatchObject({
      firedCount: 1,
      lastFiredAt: again.run.startedAt,
      lastSucceededAt: T0 + 3500,
    });

    const second = await claimOne(ctx.store, T0 + 5 * MINUTE);
    const error = { code: 'HANDLER_FAILED', message: 'boom' };
    await ctx.store.settleRuns(
      [settlement(second, { state: 'dead', error }, T0 + 6 * MINUTE)],
      T0 + 6 * MINUTE,
    );
    expect(await ctx.store.getSchedule(TENANT, s.key)).toMatchObject({
      firedCount: 2,
      lastFiredAt: second.run.startedAt,
      lastSucceededAt: T0 + 3500,
      materializedCount: 3,
    });

    // A cancelled run did not execute to an outcome.
    const third = await claimOne(ctx.store, T0 + 10 * MINUTE);
    await ctx.store.settleRuns(
      [settlement(third, { state: 'cancelled', reason: 'manual' }, T0 + 11 * MINUTE)],
      T0 + 11 * MINUTE,
    );
    expect(await ctx.store.getSchedule(TENANT, s.key)).toMatchObject({ firedCount: 2 });
  });

  it('answers the execution record in every read and every write that returns the schedule', async () => {
    const a = await create(ctx.store, { key: 'a' });
    const b = await create(ctx.store, { key: 'b' });
    await addRuns(ctx.store, a, [T0, T0 + 1]);
    await addRuns(ctx.store, b, [T0 + 2, T0 + 3]);
    const { claimed } = await claim(ctx.store, T0 + 10, 4);
    const [a1, a2, b1, b2] = claimed;
    expect(claimed.map((c) => c.run.scheduleKey)).toEqual(['a', 'a', 'b', 'b']);
    const error = { code: 'HANDLER_FAILED', message: 'boom' };
    // Two runs of one schedule and one of another in one batch.
    await ctx.store.settleRuns(
      [
        settlement(a1!, { state: 'succeeded', result: null }, T0 + 20),
        settlement(a2!, { state: 'dead', error }, T0 + 20),
        settlement(b1!, { state: 'succeeded', result: null }, T0 + 20),
      ],
      T0 + 20,
    );
    const last = settlement(b2!, { state: 'dead', error }, T0 + 30);
    if (ctx.store.settleAndClaim)
      await ctx.store.settleAndClaim([last], { workerId: 'worker-1', now: T0 + 30, limit: 1, leaseMs: 1 });
    else await ctx.store.settleRuns([last], T0 + 30);
    const fired = (c: typeof a1) => c!.run.startedAt;
    const recordA = {
      firedCount: 2,
      lastFiredAt: Math.max(fired(a1)!, fired(a2)!),
      lastSucceededAt: T0 + 20,
    };
    const recordB = {
      firedCount: 2,
      lastFiredAt: Math.max(fired(b1)!, fired(b2)!),
      lastSucceededAt: T0 + 20,
    };
    const pick = (s: Schedule | undefined) => ({
      firedCount: s?.firedCount,
      lastFiredAt: s?.lastFiredAt,
      lastSucceededAt: s?.lastSucceededAt,
    });
    expect(pick(await ctx.store.getSchedule(TENANT, 'a'))).toEqual(recordA);
    expect(pick(await ctx.store.getSchedule(TENANT, 'b'))).toEqual(recordB);
    expect((await ctx.store.getSchedules(TENANT, ['b', 'a'])).map(pick)).toEqual([recordB, recordA]);
    expect((await ctx.store.listSchedules({ tenantId: TENANT, limit: 10 })).items.map(pick)).toEqual([
      recordA,
      recordB,
    ]);
    const same = await ctx.store.putSchedule({ draft: draft({ key: 'a' }), nextFireAt: T0, now: T0 + 40 });
    expect(same.changed).toBe(false);
    expect(pick(same.schedule)).toEqual(recordA);
    const changed = await ctx.store.putSchedule({
      draft: draft({ key: 'a', summary: 'changed' }),
      nextFireAt: T0,
      now: T0 + 41,
    });
    expect(changed.changed).toBe(true);
    expect(pick(changed.schedule)).toEqual(recordA);
    const batch = await ctx.store.putSchedules([
      { draft: draft({ key: 'a', summary: 'again' }), nextFireAt: T0, now: T0 + 42 },
      { draft: draft({ key: 'b' }), nextFireAt: T0, now: T0 + 42 },
    ]);
    expect(batch.map((r) => pick(r.schedule))).toEqual([recordA, recordB]);
    const paused = await ctx.store.pauseSchedule(TENANT, 'a', {
      cancelPending: false,
      note: null,
      now: T0 + 50,
    });
    expect(pick(paused?.schedule)).toEqual(recordA);
    const resumed = await ctx.store.resumeSchedule(TENANT, 'a', {
      nextFireAt: T0,
      skipped: [],
      now: T0 + 60,
    });
    expect(pick(resumed?.schedule)).toEqual(recordA);
  });

  it('keeps no execution record for a schedule deleted while its run ran: a new one of that key starts at 0', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0, T0 + 1]);
    const first = await claimOne(ctx.store, T0 + 10);
    await ctx.store.settleRuns([settlement(first, { state: 'succeeded', result: null }, T0 + 20)], T0 + 20);
    expect(await ctx.store.getSchedule(TENANT, s.key)).toMatchObject({ firedCount: 1 });
    const second = await claimOne(ctx.store, T0 + 30);
    expect((await ctx.store.deleteSchedule(TENANT, s.key, T0 + 35)).deleted).toBe(true);
    const [done] = await ctx.store.settleRuns(
      [settlement(second, { state: 'succeeded', result: null }, T0 + 40)],
      T0 + 40,
    );
    expect(done).toMatchObject({ from: 'running', to: 'succeeded' });
    const again = await create(ctx.store, {}, { now: T0 + 50 });
    expect(again.id).not.toBe(s.id);
    expect(await ctx.store.getSchedule(TENANT, s.key)).toMatchObject({
      firedCount: 0,
      lastFiredAt: null,
      lastSucceededAt: null,
    });
  });
}
