// Conformance: schedules. Upsert by (tenant, key) with versioning, VERSION_CONFLICT, the cancellation of a
// previous version's pending runs, pages and filters, delete / pause / resume.

import { expect, it } from 'vitest';
import type { TargetKind } from '../../../src/domain/target.js';
import { draft, MINUTE, OTHER_TENANT, policies, runInsert, T0, TENANT } from '../../support/fixtures.js';
import { addRuns, claimOne, complete, create, rejectsWithCode, runOf, succeed, type Ctx } from './helpers.js';

export function scheduleTests(ctx: Ctx): void {
  it('creates a schedule at version 1 with the draft it was given', async () => {
    const d = draft({
      payload: { to: 'ops' },
      policies: policies({ overlap: 'skip', priority: 3 }),
      jitterMs: 500,
    });
    const res = await ctx.store.putSchedule({ draft: d, nextFireAt: T0 + MINUTE, now: T0 });
    expect(res).toMatchObject({ created: true, changed: true, transitions: [] });
    expect(res.schedule).toMatchObject({
      ...d,
      state: 'active',
      version: 1,
      nextFireAt: T0 + MINUTE,
      firedCount: 0,
      pausedAt: null,
      note: null,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(typeof res.schedule.id).toBe('string');
    expect(await ctx.store.getSchedule(TENANT, d.key)).toEqual(res.schedule);
  });

  it('keeps the version when the same draft is saved again, whatever its key order', async () => {
    const first = await create(ctx.store, { payload: { a: 1, b: { c: 2, d: 3 } } });
    const reordered = draft({ payload: { b: { d: 3, c: 2 }, a: 1 } });
    const shuffled = {
      ...reordered,
      policies: { ...Object.fromEntries(Object.entries(reordered.policies).reverse()) },
    };
    const res = await ctx.store.putSchedule({
      draft: shuffled as typeof reordered,
      nextFireAt: T0 + 9 * MINUTE,
      now: T0 + MINUTE,
    });
    expect(res).toMatchObject({ created: false, changed: false, transitions: [] });
    expect(res.schedule).toEqual(first);
  });

  it('bumps the version on a change, keeping createdAt and the materialised count', async () => {
    const s = await create(ctx.store);
    await ctx.store.advanceSchedule({
      tenantId: TENANT,
      scheduleId: s.id,
      version: 1,
      expectedNextFireAt: T0,
      nextFireAt: T0 + 5 * MINUTE,
      fired: 1,
      complete: false,
      runs: [],
      now: T0,
    });
    const res = await ctx.store.putSchedule({
      draft: draft({ spec: '*/10 * * * *' }),
      nextFireAt: T0 + 10 * MINUTE,
      now: T0 + MINUTE,
    });
    expect(res).toMatchObject({ created: false, changed: true });
    expect(res.schedule).toMatchObject({
      id: s.id,
      spec: '*/10 * * * *',
      version: 2,
      nextFireAt: T0 + 10 * MINUTE,
      materializedCount: 1,
      createdAt: T0,
      updatedAt: T0 + MINUTE,
      state: 'active',
    });
  });

  it("cancels the previous version's pending runs and lets the new version materialise the same instant", async () => {
    const s = await create(ctx.store);
    const [running, pending] = await addRuns(ctx.store, s, [T0, T0 + 5 * MINUTE]);
    await claimOne(ctx.store, T0);
    const res = await ctx.store.putSchedule({
      draft: draft({ payload: { v: 2 } }),
      nextFireAt: T0 + 5 * MINUTE,
      now: T0 + MINUTE,
    });
    expect(res.transitions).toHaveLength(1);
    expect(res.transitions[0]).toMatchObject({ from: 'scheduled', to: 'cancelled' });
    expect(res.transitions[0]!.run).toMatchObject({ id: pending!.id, state: 'cancelled', reason: 'updated' });
    expect(res.transitions[0]!.run.finishedAt).toBe(T0 + MINUTE);
    expect((await runOf(ctx.store, running!)).state).toBe('running');

    const again = await ctx.store.advanceSchedule({
      tenantId: TENANT,
      scheduleId: s.id,
      version: 2,
      expectedNextFireAt: T0 + 5 * MINUTE,
      nextFireAt: T0 + 10 * MINUTE,
      fired: 1,
      complete: false,
      runs: [runInsert({ schedule: res.schedule, scheduledFor: T0 + 5 * MINUTE })],
      now: T0 + MINUTE,
    });
    expect(again.transitions).toHaveLength(1);
    const fresh = again.transitions[0]!.run;
    expect(fresh).toMatchObject({ scheduleVersion: 2, state: 'scheduled', scheduledFor: T0 + 5 * MINUTE });
    expect(fresh.occurrenceId).toBe(`${s.id}:${T0 + 5 * MINUTE}`);
    expect((await runOf(ctx.store, pending!)).occurrenceId).toBe(fresh.occurrenceId);
  });

  it('treats expectNew as a hint only: a key that exists after all is updated, and a new one created', async () => {
    const s = await create(ctx.store);
    const res = await ctx.store.putSchedule({
      draft: draft({ spec: '*/10 * * * *' }),
      nextFireAt: T0 + 10 * MINUTE,
      now: T0 + MINUTE,
      expectNew: true,
    });
    expect(res).toMatchObject({ created: false, changed: true });
    expect(res.schedule).toMatchObject({ id: s.id, spec: '*/10 * * * *', version: 2, createdAt: T0 });
    const fresh = await ctx.store.putSchedule({
      draft: draft({ key: 'fresh' }),
      nextFireAt: T0,
      now: T0 + MINUTE,
      expectNew: true,
    });
    expect(fresh).toMatchObject({ created: true, changed: true });
    expect(fresh.schedule).toMatchObject({ key: 'fresh', version: 1 });
    expect((await ctx.store.getSchedule(TENANT, 'fresh'))?.id).toBe(fresh.schedule.id);
  });

  it('reopens a completed schedule on change and keeps a paused one paused', async () => {
    const s = await create(ctx.store);
    await complete(ctx.store, s);
    expect((await ctx.store.getSchedule(TENANT, s.key))?.state).toBe('completed');
    const reopened = await ctx.store.putSchedule({
      draft: draft({ maxRuns: 5 }),
      nextFireAt: T0 + MINUTE,
      now: T0,
    });
    expect(reopened.schedule).toMatchObject({ state: 'active', nextFireAt: T0 + MINUTE, version: 2 });

    await ctx.store.pauseSchedule(TENANT, s.key, { cancelPending: false, note: null, now: T0 });
    const edited = await ctx.store.putSchedule({
      draft: draft({ maxRuns: 6 }),
      nextFireAt: T0 + MINUTE,
      now: T0,
    });
    expect(edited.schedule).toMatchObject({ state: 'paused', version: 3 });
  });

  it('putSchedules saves every schedule of the batch, or none of them', async () => {
    const results = await ctx.store.putSchedules([
      { draft: draft({ key: 'bulk-a' }), nextFireAt: T0, now: T0 },
      { draft: draft({ key: 'bulk-b' }), nextFireAt: T0, now: T0 },
    ]);
    expect(results.map((r) => [r.schedule.key, r.created])).toEqual([
      ['bulk-a', true],
      ['bulk-b', true],
    ]);
    await rejectsWithCode(
      ctx.store.putSchedules([
        { draft: draft({ key: 'bulk-c' }), nextFireAt: T0, now: T0 },
        {
          draft: draft({ key: 'bulk-a', summary: 'changed' }),
          nextFireAt: T0,
          expectedVersion: 7,
          now: T0,
        },
      ]),
      'VERSION_CONFLICT',
    );
    expect(await ctx.store.getSchedule(TENANT, 'bulk-c')).toBeUndefined();
  });

  it('refuses a stale expectedVersion with VERSION_CONFLICT', async () => {
    await create(ctx.store);
    const details = await rejectsWithCode(
      ctx.store.putSchedule({
        draft: draft({ spec: '0 * * * *' }),
        nextFireAt: T0,
        expectedVersion: 7,
        now: T0,
      }),
      'VERSION_CONFLICT',
    );
    expect(details).toMatchObject({ expected: 7, actual: 1 });
    expect((await ctx.store.getSchedule(TENANT, 'report'))?.version).toBe(1);

    await rejectsWithCode(
      ctx.store.putSchedule({
        draft: draft({ key: 'missing' }),
        nextFireAt: T0,
        expectedVersion: 1,
        now: T0,
      }),
      'VERSION_CONFLICT',
    );
    expect(await ctx.store.getSchedule(TENANT, 'missing')).toBeUndefined();

    const ok = await ctx.store.putSchedule({
      draft: draft({ spec: '0 * * * *' }),
      nextFireAt: T0,
      expectedVersion: 1,
      now: T0,
    });
    expect(ok.schedule.version).toBe(2);
  });

  it('expectAbsent creates a missing key, and refuses an existing one even with the same draft', async () => {
    const made = await ctx.store.putSchedule({
      draft: draft(),
      nextFireAt: T0,
      expectAbsent: true,
      expectNew: true,
      now: T0,
    });
    expect(made).toMatchObject({ created: true, changed: true });
    for (const expectNew of [true, false]) {
      const details = await rejectsWithCode(
        ctx.store.putSchedule({ draft: draft(), nextFireAt: T0, expectAbsent: true, expectNew, now: T0 }),
        'VERSION_CONFLICT',
      );
      expect(details).toMatchObject({ key: 'report', expected: null, actual: 1 });
    }
    // In a batch: nothing of the batch is written.
    await rejectsWithCode(
      ctx.store.putSchedules([
        { draft: draft({ key: 'batch-new' }), nextFireAt: T0, expectAbsent: true, now: T0 },
        { draft: draft({ spec: '0 * * * *' }), nextFireAt: T0, expectAbsent: true, now: T0 },
      ]),
      'VERSION_CONFLICT',
    );
    expect(await ctx.store.getSchedule(TENANT, 'batch-new')).toBeUndefined();
    expect(await ctx.store.getSchedule(TENANT, 'report')).toEqual(made.schedule);
  });

  it('expectAbsent puts of one key at once: one creates it, the others are refused', async () => {
    const puts = await Promise.allSettled(
      [1, 2, 3].map(() =>
        ctx.store.putSchedules([
          { draft: draft({ key: 'race' }), nextFireAt: T0, expectAbsent: true, now: T0 },
        ]),
      ),
    );
    const created = puts.filter((p) => p.status === 'fulfilled');
    const refused = puts.filter((p) => p.status === 'rejected');
    expect(created).toHaveLength(1);
    expect(refused.map((p) => (p.reason as { code?: string }).code)).toEqual([
      'VERSION_CONFLICT',
      'VERSION_CONFLICT',
    ]);
    expect((await ctx.store.getSchedule(TENANT, 'race'))?.version).toBe(1);
  });

  it('answers undefined for an unknown key', async () => {
    expect(await ctx.store.getSchedule(TENANT, 'nope')).toBeUndefined();
  });

  it('getSchedules (when offered) reads many keys at once: found ones, once each, in key order', async () => {
    if (!ctx.store.getSchedules) return;
    const a = await create(ctx.store, { key: 'a' });
    const b = await create(ctx.store, { key: 'b' });
    await create(ctx.store, { key: 'a', tenantId: OTHER_TENANT });
    expect(await ctx.store.getSchedules(TENANT, ['b', 'nope', 'a', 'b'])).toEqual([b, a]);
    expect(await ctx.store.getSchedules(TENANT, [])).toEqual([]);
    expect(await ctx.store.getSchedules('no-such-tenant', ['a'])).toEqual([]);
  });

  it('putSchedules applies a batch in order: new and existing keys mixed, a key twice', async () => {
    await create(ctx.store, { key: 'old' });
    const results = await ctx.store.putSchedules([
      { draft: draft({ key: 'new-1' }), nextFireAt: T0, now: T0 + 1 },
      { draft: draft({ key: 'old', summary: 'changed' }), nextFireAt: T0, now: T0 + 1 },
      { draft: draft({ key: 'old' }), nextFireAt: T0, now: T0 + 1 },
      { draft: draft({ key: 'new-2', tenantId: OTHER_TENANT }), nextFireAt: T0, now: T0 + 1 },
      { draft: draft({ key: 'new-1', summary: 'again' }), nextFireAt: T0, now: T0 + 1 },
    ]);
    expect(
      results.map((r) => [r.schedule.key, r.schedule.tenantId, r.created, r.changed, r.schedule.version]),
    ).toEqual([
      ['new-1', TENANT, true, true, 1],
      ['old', TENANT, false, true, 2],
      ['old', TENANT, false, true, 3],
      ['new-2', OTHER_TENANT, true, true, 1],
      ['new-1', TENANT, false, true, 2],
    ]);
    expect(await ctx.store.getSchedule(TENANT, 'new-1')).toEqual(results[4]!.schedule);
    expect(await ctx.store.getSchedule(OTHER_TENANT, 'new-2')).toEqual(results[3]!.schedule);
  });

  it('lists schedules by key, page by page', async () => {
    for (const key of ['d', 'a', 'c', 'e', 'b']) await create(ctx.store, { key });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await ctx.store.listSchedules({ tenantId: TENANT, limit: 2, cursor });
      seen.push(...page.items.map((s) => s.key));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined && pages < 10);
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(pages).toBe(3);
    const all = await ctx.store.listSchedules({ tenantId: TENANT, limit: 5 });
    expect(all.items).toHaveLength(5);
    expect(all.nextCursor).toBeUndefined();
  });

  it('filters schedules by state, target kind and key prefix', async () => {
    await create(ctx.store, { key: 'billing.daily' });
    await create(ctx.store, {
      key: 'billing.monthly',
      target: { webhook: { url: 'https://example.test/h' } },
    });
    await create(ctx.store, { key: 'billingx' });
    await create(ctx.store, { key: 'reports.weekly' });
    await ctx.store.pauseSchedule(TENANT, 'reports.weekly', { cancelPending: false, note: null, now: T0 });
    const keys = async (q: {
      state?: 'paused';
      targetKind?: TargetKind;
      keyPrefix?: string;
    }): Promise<string[]> =>
      (await ctx.store.listSchedules({ tenantId: TENANT, limit: 50, ...q })).items.map((s) => s.key);
    expect(await keys({ state: 'paused' })).toEqual(['reports.weekly']);
    expect(await keys({ targetKind: 'webhook' })).toEqual(['billing.monthly']);
    expect(await keys({ keyPrefix: 'billing.' })).toEqual(['billing.daily', 'billing.monthly']);
    expect(await keys({ keyPrefix: 'billing' })).toEqual(['billing.daily', 'billing.monthly', 'billingx']);
    expect(await keys({ keyPrefix: 'zzz' })).toEqual([]);
  });

  it('deletes a schedule: pending runs cancelled (deleted), history kept', async () => {
    const s = await create(ctx.store);
    const [done, pending] = await addRuns(ctx.store, s, [T0, T0 + 5 * MINUTE]);
    const c = await claimOne(ctx.store, T0);
    await succeed(ctx.store, c, T0);
    const res = await ctx.store.deleteSchedule(TENANT, s.key, T0 + MINUTE);
    expect(res.deleted).toBe(true);
    expect(res.transitions.map((t) => [t.run.id, t.from, t.to, t.run.reason])).toEqual([
      [pending!.id, 'scheduled', 'cancelled', 'deleted'],
    ]);
    expect(await ctx.store.getSchedule(TENANT, s.key)).toBeUndefined();
    expect((await runOf(ctx.store, done!)).state).toBe('succeeded');
    expect(await ctx.store.deleteSchedule(TENANT, s.key, T0 + MINUTE)).toEqual({
      deleted: false,
      transitions: [],
    });

    const again = await create(ctx.store);
    expect(again.id).not.toBe(s.id);
    expect(again.version).toBe(1);
  });

  it('pauses a schedule: its occurrences are skipped (paused), runs made by hand kept or cancelled', async () => {
    const keep = await create(ctx.store, { key: 'keep' });
    const drop = await create(ctx.store, { key: 'drop' });
    const [occurrence] = await addRuns(ctx.store, keep, [T0 + MINUTE]);
    const [kept] = await addRuns(ctx.store, keep, [T0], { kind: 'manual', unique: false });
    const [dropped] = await addRuns(ctx.store, drop, [T0 + MINUTE]);

    const p1 = await ctx.store.pauseSchedule(TENANT, 'keep', {
      cancelPending: false,
      note: 'maintenance',
      now: T0,
    });
    expect(p1?.schedule).toMatchObject({ state: 'paused', pausedAt: T0, note: 'maintenance' });
    expect(p1?.transitions.map((t) => [t.run.id, t.from, t.to, t.run.reason])).toEqual([
      [occurrence!.id, 'scheduled', 'skipped', 'paused'],
    ]);
    expect((await runOf(ctx.store, kept!)).state).toBe('scheduled');
    // The skipped occurrence no longer holds its instant: after a resume it may be materialised again.
    const [again] = await addRuns(ctx.store, keep, [T0 + MINUTE]);
    expect(again?.state).toBe('scheduled');

    const p2 = await ctx.store.pauseSchedule(TENANT, 'drop', { cancelPending: true, note: null, now: T0 });
    expect(p2?.transitions.map((t) => [t.run.id, t.from, t.to, t.run.reason])).toEqual([
      [dropped!.id, 'scheduled', 'cancelled', 'pausedCancel'],
    ]);
    expect(
      await ctx.store.claimDueSchedules({ now: T0, horizon: T0 + MINUTE, limit: 10, leaseMs: 1000 }),
    ).toEqual([]);
    expect(
      await ctx.store.pauseSchedule(TENANT, 'nope', { cancelPending: true, note: null, now: T0 }),
    ).toBeUndefined();
  });

  it('resumes a paused schedule at nextFireAt, recording the occurrences missed as skipped', async () => {
    const s = await create(ctx.store);
    await addRuns(ctx.store, s, [T0 + 5 * MINUTE]);
    await ctx.store.pauseSchedule(TENANT, s.key, { cancelPending: true, note: 'hold', now: T0 });
    const res = await ctx.store.resumeSchedule(TENANT, s.key, {
      nextFireAt: T0 + 5 * MINUTE,
      skipped: [runInsert({ schedule: s, scheduledFor: T0, state: 'skipped', reason: 'paused' })],
      now: T0 + 2 * MINUTE,
    });
    expect(res?.schedule).toMatchObject({
      state: 'active',
      pausedAt: null,
      nextFireAt: T0 + 5 * MINUTE,
      version: 1,
    });
    expect(res?.transitions).toHaveLength(1);
    expect(res?.transitions[0]).toMatchObject({ from: null, to: 'skipped' });
    expect(res?.transitions[0]!.run).toMatchObject({
      state: 'skipped',
      reason: 'paused',
      finishedAt: T0 + 2 * MINUTE,
    });

    // The run cancelled by the pause released its occurrence: the same instant materialises again.
    const again = await addRuns(ctx.store, res!.schedule, [T0 + 5 * MINUTE]);
    expect(again).toHaveLength(1);

    const twice = await ctx.store.resumeSchedule(TENANT, s.key, { nextFireAt: T0, skipped: [], now: T0 });
    expect(twice?.schedule.nextFireAt).toBe(T0 + 5 * MINUTE);
    expect(twice?.transitions).toEqual([]);
    expect(
      await ctx.store.resumeSchedule(TENANT, 'nope', { nextFireAt: T0, skipped: [], now: T0 }),
    ).toBeUndefined();
  });

  it('is migrated idempotently and declares its capabilities', async () => {
    await ctx.store.migrate();
    await ctx.store.migrate();
    expect(typeof ctx.store.capabilities.multiInstance).toBe('boolean');
    expect(typeof ctx.store.capabilities.concurrentStatements).toBe('boolean');
    expect(typeof ctx.store.capabilities.wakeups).toBe('boolean');
    if (ctx.store.capabilities.wakeups) expect(typeof ctx.store.onWake).toBe('function');
    expect(await ctx.store.insertRuns([], T0)).toEqual([]);
  });
}
