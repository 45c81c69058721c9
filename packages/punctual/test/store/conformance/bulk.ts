// Conformance: a bulk put (TenantApi.putBulk) over the store's putSchedules. Mixed new, changed, unchanged
// and invalid inputs: each invalid one refuses only itself; a change cancels pending runs and records a
// revision with the actor; a re-run of the same inputs is all unchanged; each batch is all or nothing.

import { expect, it } from 'vitest';
import { isPunctualError } from '../../../src/errors.js';
import { createScheduler } from '../../../src/scheduler.js';
import type { TenantApi } from '../../../src/tenant-api.js';
import type { ScheduleInput } from '../../../src/domain/schedule.js';
import { MINUTE, T0, TENANT } from '../../support/fixtures.js';
import { TestClock } from '../../support/test-clock.js';
import { addRuns, type Ctx } from './helpers.js';

export function bulkTests(ctx: Ctx): void {
  /** The tenant's API over the store under test (a scheduler that is never started). */
  function api(now = T0): TenantApi {
    const s = createScheduler({ store: ctx.store, clock: new TestClock(now) });
    s.handle('h', () => {});
    return s.tenant(TENANT);
  }
  const item = (key: string, spec = '0 * * * *') => ({ key, spec, target: { handler: 'h' } });

  it('writes new, changed and unchanged inputs, and refuses each invalid one on its own', async () => {
    const first = await api().putBulk([item('same'), item('changed')], { actor: 'key:1' });
    expect(first.totals).toEqual({ created: 2, updated: 0, unchanged: 0, refused: 0 });
    const [old] = await addRuns(ctx.store, first.items[1]!.schedule!, [T0 + 10 * MINUTE]);

    const res = await api(T0 + MINUTE).putBulk(
      [
        item('fresh'),
        item('changed', '*/30 * * * *'),
        item('same'),
        item('broken', '61 * * * *'),
        item('fresh', '5 * * * *'),
        'not an object',
      ],
      { actor: 'key:2' },
    );
    expect(res.items.map((i) => [i.index, i.key, i.outcome, i.error?.code])).toEqual([
      [0, 'fresh', 'created', undefined],
      [1, 'changed', 'updated', undefined],
      [2, 'same', 'unchanged', undefined],
      [3, 'broken', 'refused', 'SPEC_INVALID'],
      [4, 'fresh', 'refused', 'BULK_KEY_DUPLICATE'],
      [5, null, 'refused', 'SCHEDULE_INVALID'],
    ]);
    expect(res.items[4]!.error?.details).toMatchObject({ key: 'fresh', firstIndex: 0 });
    expect(res.totals).toEqual({ created: 1, updated: 1, unchanged: 1, refused: 3 });

    expect(await ctx.store.getSchedule(TENANT, 'broken')).toBeUndefined();
    expect((await ctx.store.getSchedule(TENANT, 'fresh'))?.spec).toBe('0 * * * *');
    expect(await ctx.store.getSchedule(TENANT, 'changed')).toMatchObject({
      version: 2,
      spec: '*/30 * * * *',
    });
    expect((await ctx.store.getSchedule(TENANT, 'same'))?.version).toBe(1);
    expect((await ctx.store.getRun(TENANT, old!.id))?.run.state).toBe('cancelled');
    const revs = await ctx.store.listScheduleRevisions({ tenantId: TENANT, key: 'changed', limit: 10 });
    expect(revs.items.map((r) => [r.version, r.change, r.actor])).toEqual([
      [2, 'updated', 'key:2'],
      [1, 'created', 'key:1'],
    ]);
  });

  it('creates each schedule as a put would: the answer is the schedule read back, with the same revision', async () => {
    // Every field set, and JSON whose members are out of the database's order (and one left undefined).
    const full = (key: string) => ({
      key,
      spec: '15 9 * * 1-5',
      tz: 'Europe/Paris',
      target: { handler: 'h' },
      payload: { zeta: 1, a: [3, { yy: 'é', x: null, ü: -0 }], skipped: undefined, mid: { b: true, a: 'ß' } },
      policies: { overlap: 'skip' as const, retry: { maxAttempts: 4 } },
      startAt: T0 + 60 * MINUTE,
      endAt: T0 + 365 * 24 * 60 * MINUTE,
      maxRuns: 10,
      jitter: '30s',
      summary: 'Morning report ✓',
      labels: { team: 'billing', a: 'b', 'env.name': 'prod' },
      dst: { gap: 'skip' as const },
      expect: { successWithin: '15m' },
      state: 'paused' as const,
    });
    const bulk = await api().putBulk([full('bulk')], { actor: 'key:1' });
    expect(bulk.items[0]!.outcome).toBe('created');
    const single = await api().put(full('single') as unknown as ScheduleInput, { actor: 'key:1' });
    const answered = bulk.items[0]!.schedule!;
    const stored = (await ctx.store.getSchedule(TENANT, 'bulk'))!;
    expect(answered).toEqual(stored);
    expect(JSON.stringify(answered)).toBe(JSON.stringify(stored));
    const { id: _a, key: _b, ...bulkRest } = stored;
    const storedSingle = (await ctx.store.getSchedule(TENANT, 'single'))!;
    expect(JSON.stringify(single.schedule)).toBe(JSON.stringify(storedSingle));
    const { id: _c, key: _d, ...singleRest } = storedSingle;
    expect(JSON.stringify(bulkRest)).toBe(JSON.stringify(singleRest));
    const revision = async (key: string) => {
      const [r] = (await ctx.store.listScheduleRevisions({ tenantId: TENANT, key, limit: 10 })).items;
      const { seq: _s, scheduleId: _i, key: _k, ...rest } = r!;
      return { ...rest, content: { ...rest.content, key: 'k' } };
    };
    expect(JSON.stringify(await revision('bulk'))).toBe(JSON.stringify(await revision('single')));
    expect(await revision('bulk')).toMatchObject({
      version: 1,
      change: 'created',
      actor: 'key:1',
      state: 'paused',
    });
  });

  it('changes many schedules in one batch as a put of each would', async () => {
    const at23 = Date.UTC(2023, 10, 14, 23); // the first hour after T0
    const at00 = at23 + 60 * MINUTE;
    const first = await api().putBulk([item('a'), item('b'), item('c')], { actor: 'key:1' });
    const [a, b, c] = first.items.map((i) => i.schedule!);
    await api().overrideOccurrence('a', at23, { kind: 'skip' });
    await api().overrideOccurrence('b', at00, { kind: 'skip' });
    await api().overrideOccurrence('c', at23, { kind: 'skip' });
    const [runA] = await addRuns(ctx.store, a!, [T0 + 10 * MINUTE]);
    const [runB] = await addRuns(ctx.store, b!, [T0 + 20 * MINUTE]);

    const res = await api(T0 + MINUTE).putBulk(
      [
        item('a', '30 * * * *'), // 23:00 is no occurrence any more: its override goes
        item('b', '0 */2 * * *'), // 00:00 still is
        { ...item('c'), payload: { v: 2 } },
      ],
      { actor: 'key:2' },
    );
    expect(res.items.map((i) => [i.key, i.outcome, i.schedule?.version])).toEqual([
      ['a', 'updated', 2],
      ['b', 'updated', 2],
      ['c', 'updated', 2],
    ]);
    expect(res.items.map((i) => i.schedule?.id)).toEqual([a!.id, b!.id, c!.id]);
    expect(res.items[2]!.schedule?.payload).toEqual({ v: 2 });
    expect((await ctx.store.getRun(TENANT, runA!.id))?.run).toMatchObject({
      state: 'cancelled',
      reason: 'updated',
    });
    expect((await ctx.store.getRun(TENANT, runB!.id))?.run).toMatchObject({
      state: 'cancelled',
      reason: 'updated',
    });
    const overrides = async (id: string) =>
      (await ctx.store.listOccurrenceOverrides(TENANT, id, { from: T0, limit: 10 })).map((o) => o.instant);
    expect(await overrides(a!.id)).toEqual([]);
    expect(await overrides(b!.id)).toEqual([at00]);
    expect(await overrides(c!.id)).toEqual([at23]);
    for (const key of ['a', 'b', 'c']) {
      const revs = await ctx.store.listScheduleRevisions({ tenantId: TENANT, key, limit: 10 });
      expect(revs.items.map((r) => [r.version, r.change, r.actor])).toEqual([
        [2, 'updated', 'key:2'],
        [1, 'created', 'key:1'],
      ]);
      expect(revs.items[1]!.content.spec).toBe('0 * * * *');
    }
  });

  it('gives all unchanged when the same inputs are put again, writing no revision', async () => {
    const inputs = Array.from({ length: 25 }, (_, i) => item(`k${i}`, `${i} * * * *`));
    const first = await api().putBulk(inputs, { batchSize: 10 });
    expect(first.totals.created).toBe(25);
    const again = await api(T0 + MINUTE).putBulk(inputs, { batchSize: 10 });
    expect(again.totals).toEqual({ created: 0, updated: 0, unchanged: 25, refused: 0 });
    const revs = await ctx.store.listScheduleRevisions({ tenantId: TENANT, key: 'k3', limit: 10 });
    expect(revs.items).toHaveLength(1);
  });

  it('writes each batch whole or not at all: a refusal before the second batch leaves only the first', async () => {
    const inputs = Array.from({ length: 5 }, (_, i) => item(`b${i}`));
    let batches = 0;
    const run = api().putBulk(inputs, {
      batchSize: 2,
      beforeWrite: ({ creating }) => {
        expect(creating).toBe(2);
        if (++batches === 2) throw new Error('quota');
      },
    });
    await expect(run).rejects.toThrow('quota');
    const stored = await ctx.store.getSchedules!(
      TENANT,
      inputs.map((i) => i.key),
    );
    expect(stored.map((s) => s.key)).toEqual(['b0', 'b1']);
  });

  it('on a dry run classifies every input and writes nothing', async () => {
    await api().putBulk([item('same'), item('changed')]);
    const res = await api().putBulk([item('same'), item('changed', '1 * * * *'), item('new'), { key: 'x' }], {
      dryRun: true,
    });
    expect(res.items.map((i) => i.outcome)).toEqual(['unchanged', 'updated', 'created', 'refused']);
    expect(await ctx.store.getSchedule(TENANT, 'new')).toBeUndefined();
    expect((await ctx.store.getSchedule(TENANT, 'changed'))?.spec).toBe('0 * * * *');
  });

  it('refuses a batch size out of range before anything is written', async () => {
    const err = await api()
      .putBulk([item('a')], { batchSize: 0 })
      .catch((e: unknown) => e);
    expect(isPunctualError(err, 'SCHEDULE_INVALID')).toBe(true);
    expect(await ctx.store.getSchedule(TENANT, 'a')).toBeUndefined();
  });
}
