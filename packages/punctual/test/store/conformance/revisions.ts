// Conformance: schedule revisions. Each change (create, update, pause, resume, delete, and a put marked as a
// rollback) writes one revision with the schedule write, with its actor, instant, diff and full content; an
// unchanged put writes none; pages newest first; the newest revisions are kept up to REVISIONS_KEPT.

import { expect, it } from 'vitest';
import { DEFAULT_POLICIES, resolvePolicies } from '../../../src/domain/policies.js';
import { REVISIONS_KEPT } from '../../../src/domain/schedule-revision.js';
import { draft, MINUTE, OTHER_TENANT, T0, TENANT } from '../../support/fixtures.js';
import { addRuns, type Ctx } from './helpers.js';

export function revisionTests(ctx: Ctx): void {
  const put = (overrides: Parameters<typeof draft>[0], now: number, actor = 'key:1', fromVersion?: number) =>
    ctx.store.putSchedule({
      draft: draft(overrides),
      nextFireAt: now,
      now,
      revision: { actor, fromVersion },
    });

  it('writes a created revision with the full content and a diff from nothing', async () => {
    const { schedule } = await put({ payload: { a: 1 }, labels: { team: 'ops' } }, T0);
    const page = await ctx.store.listScheduleRevisions({ tenantId: TENANT, key: 'report', limit: 10 });
    expect(page.items).toHaveLength(1);
    const [rev] = page.items;
    expect(rev).toMatchObject({
      scheduleId: schedule.id,
      tenantId: TENANT,
      key: 'report',
      version: 1,
      at: T0,
      actor: 'key:1',
      change: 'created',
      fromVersion: null,
      state: 'active',
    });
    expect(rev!.content).toEqual(draft({ payload: { a: 1 }, labels: { team: 'ops' } }));
    expect(rev!.diff.spec).toEqual({ from: null, to: schedule.spec });
    expect(rev!.diff.payload).toEqual({ from: null, to: { a: 1 } });
  });

  it('writes an updated revision with only the changed fields, and none for an unchanged put', async () => {
    await put({}, T0);
    await put({ spec: '*/10 * * * *', payload: { b: 2 } }, T0 + MINUTE, 'key:2');
    const same = await put({ spec: '*/10 * * * *', payload: { b: 2 } }, T0 + 2 * MINUTE, 'key:3');
    expect(same.changed).toBe(false);
    const page = await ctx.store.listScheduleRevisions({ tenantId: TENANT, key: 'report', limit: 10 });
    expect(page.items.map((r) => [r.version, r.change, r.actor])).toEqual([
      [2, 'updated', 'key:2'],
      [1, 'created', 'key:1'],
    ]);
    expect(page.items[0]!.diff).toEqual({
      spec: { from: draft().spec, to: '*/10 * * * *' },
      description: { from: 'Every 5 minutes, UTC', to: 'Every 10 minutes, UTC' },
      payload: { from: null, to: { b: 2 } },
    });
    expect(page.items[0]!.content.spec).toBe('*/10 * * * *');
  });

  it('records pause, resume, delete and a rollback, and reads one version back', async () => {
    const { schedule } = await put({}, T0);
    await put({ spec: '*/10 * * * *' }, T0 + MINUTE);
    await ctx.store.pauseSchedule(TENANT, 'report', {
      cancelPending: false,
      note: null,
      now: T0 + 2 * MINUTE,
      actor: 'key:p',
    });
    // Pausing a paused schedule changes nothing worth a revision.
    await ctx.store.pauseSchedule(TENANT, 'report', {
      cancelPending: false,
      note: 'x',
      now: T0 + 3 * MINUTE,
    });
    await ctx.store.resumeSchedule(TENANT, 'report', {
      nextFireAt: T0 + 10 * MINUTE,
      skipped: [],
      now: T0 + 4 * MINUTE,
      actor: 'key:r',
    });
    await put({}, T0 + 5 * MINUTE, 'key:b', 1);
    await ctx.store.deleteSchedule(TENANT, 'report', T0 + 6 * MINUTE, { actor: 'key:d' });
    const page = await ctx.store.listScheduleRevisions({ tenantId: TENANT, key: 'report', limit: 10 });
    expect(page.items.map((r) => [r.version, r.change, r.at, r.state])).toEqual([
      [3, 'deleted', T0 + 6 * MINUTE, 'deleted'],
      [3, 'rolledBack', T0 + 5 * MINUTE, 'active'],
      [2, 'resumed', T0 + 4 * MINUTE, 'active'],
      [2, 'paused', T0 + 2 * MINUTE, 'paused'],
      [2, 'updated', T0 + MINUTE, 'active'],
      [1, 'created', T0, 'active'],
    ]);
    expect(page.items[1]).toMatchObject({ fromVersion: 1, diff: { spec: { from: '*/10 * * * *' } } });
    expect(page.items[3]!.diff).toEqual({ state: { from: 'active', to: 'paused' } });
    expect(page.items.every((r) => r.scheduleId === schedule.id)).toBe(true);
    // A version's newest revision: version 2's content is the updated spec.
    const v2 = await ctx.store.getScheduleRevision(TENANT, 'report', 2);
    expect(v2?.content).toEqual(draft({ spec: '*/10 * * * *' }));
    expect(await ctx.store.getScheduleRevision(TENANT, 'report', 9)).toBeUndefined();
    expect(await ctx.store.getScheduleRevision(OTHER_TENANT, 'report', 1)).toBeUndefined();
  });

  it('writes the revision in the transaction of the write: a refused put writes none', async () => {
    await put({}, T0);
    await expect(
      ctx.store.putSchedule({
        draft: draft({ spec: '@hourly' }),
        nextFireAt: T0,
        now: T0,
        expectedVersion: 7,
      }),
    ).rejects.toMatchObject({ code: 'VERSION_CONFLICT' });
    const page = await ctx.store.listScheduleRevisions({ tenantId: TENANT, key: 'report', limit: 10 });
    expect(page.items).toHaveLength(1);
  });

  it('writes the revisions of a bulk put and records the cancelled runs of an update', async () => {
    const [a] = await ctx.store.putSchedules([
      { draft: draft({ key: 'a' }), nextFireAt: T0, now: T0, revision: { actor: 'bulk' } },
      { draft: draft({ key: 'b' }), nextFireAt: T0, now: T0, revision: { actor: 'bulk' } },
    ]);
    await addRuns(ctx.store, a!.schedule, [T0 + MINUTE]);
    const res = await ctx.store.putSchedules([
      { draft: draft({ key: 'a', spec: '@hourly' }), nextFireAt: T0, now: T0 + 1, revision: { actor: 'x' } },
    ]);
    expect(res[0]!.transitions).toHaveLength(1);
    for (const key of ['a', 'b']) {
      const page = await ctx.store.listScheduleRevisions({ tenantId: TENANT, key, limit: 10 });
      expect(page.items.at(-1)).toMatchObject({ change: 'created', actor: 'bulk', version: 1 });
    }
    const a2 = await ctx.store.getScheduleRevision(TENANT, 'a', 2);
    expect(a2).toMatchObject({ change: 'updated', actor: 'x', diff: { spec: { to: '@hourly' } } });
  });

  it('reads every version back whole after later puts, a delete and a new schedule under the key', async () => {
    // Stored compactly (store/stored-revision.ts): the current version's content comes from the schedule
    // row until a put replaces it or a delete removes it. Policies off the defaults make the content differ.
    const v1 = draft({ policies: resolvePolicies({ overlap: 'skip', retry: { maxAttempts: 5 } }) });
    const first = await put(v1, T0);
    expect(first.schedule.policies).toEqual(v1.policies);
    const before = await ctx.store.listScheduleRevisions({ tenantId: TENANT, key: 'report', limit: 10 });
    await ctx.store.pauseSchedule(TENANT, 'report', { cancelPending: false, note: null, now: T0 + 1 });
    await put({ spec: '@hourly' }, T0 + 2);
    await ctx.store.deleteSchedule(TENANT, 'report', T0 + 3);
    const again = await put({ spec: '@daily' }, T0 + 4);
    const page = await ctx.store.listScheduleRevisions({ tenantId: TENANT, key: 'report', limit: 10 });
    expect(page.items.map((r) => [r.scheduleId, r.version, r.change, r.content.spec])).toEqual([
      [again.schedule.id, 1, 'created', '@daily'],
      [first.schedule.id, 2, 'deleted', '@hourly'],
      [first.schedule.id, 2, 'updated', '@hourly'],
      [first.schedule.id, 1, 'paused', '*/5 * * * *'],
      [first.schedule.id, 1, 'created', '*/5 * * * *'],
    ]);
    // The first version reads the same as when it was current, diff included.
    expect(page.items.at(-1)).toEqual(before.items[0]);
    expect(page.items.at(-1)!.content).toEqual(v1);
    expect(page.items[3]!.content).toEqual(v1);
    expect(page.items[2]!.content).toEqual(draft({ spec: '@hourly' }));
    expect(page.items[0]!.diff).toEqual({
      spec: { from: null, to: '@daily' },
      specKind: { from: null, to: 'cron' },
      tz: { from: null, to: 'UTC' },
      target: { from: null, to: { handler: 'job' } },
      policies: { from: null, to: DEFAULT_POLICIES },
      jitterMs: { from: null, to: 0 },
      description: { from: null, to: 'At 00:00, every day, UTC' },
      labels: { from: null, to: {} },
    });
    expect((await ctx.store.getScheduleRevision(TENANT, 'report', 1))?.content.spec).toBe('@daily');
  });

  it('pages newest first and keeps the newest REVISIONS_KEPT of a key', async () => {
    await put({ payload: 0 }, T0);
    for (let i = 1; i <= REVISIONS_KEPT + 4; i++) await put({ payload: i }, T0 + i);
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await ctx.store.listScheduleRevisions({
        tenantId: TENANT,
        key: 'report',
        cursor,
        limit: 30,
      });
      seen.push(...page.items.map((r) => r.version));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    const newest = REVISIONS_KEPT + 5;
    expect(seen).toEqual(Array.from({ length: REVISIONS_KEPT }, (_, i) => newest - i));
    expect(await ctx.store.getScheduleRevision(TENANT, 'report', 1)).toBeUndefined();
    await expect(
      ctx.store.listScheduleRevisions({ tenantId: TENANT, key: 'report', cursor: 'nope', limit: 5 }),
    ).rejects.toMatchObject({ code: 'CURSOR_INVALID' });
  });
}
