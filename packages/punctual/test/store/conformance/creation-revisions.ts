// Conformance: a schedule's `created` revision reads the same before and after the schedule's first change
// (a store may keep it in the schedule row until then): the same sequence number, place in the pages, actor,
// instant, state at creation and content, whichever change comes first and whatever the materializer did
// to the schedule meanwhile.

import { expect, it } from 'vitest';
import type { ScheduleRevision } from '../../../src/domain/schedule-revision.js';
import { draft, MINUTE, T0, TENANT } from '../../support/fixtures.js';
import { complete, type Ctx } from './helpers.js';

export function creationRevisionTests(ctx: Ctx): void {
  const list = async (key = 'report', limit = 10): Promise<ScheduleRevision[]> =>
    (await ctx.store.listScheduleRevisions({ tenantId: TENANT, key, limit })).items;
  const create = (key: string, initialState?: 'paused') =>
    ctx.store.putSchedule({
      draft: draft({ key }),
      nextFireAt: T0,
      now: T0,
      revision: { actor: 'key:c' },
      ...(initialState === undefined ? {} : { initialState }),
    });
  const change = (key: string, now: number) =>
    ctx.store.putSchedule({ draft: draft({ key, spec: '@hourly' }), nextFireAt: now, now });

  it('answers the same created revision before and after each kind of first change', async () => {
    const firsts: [string, () => Promise<unknown>][] = [
      ['updated', () => change('u', T0 + MINUTE)],
      [
        'paused',
        () => ctx.store.pauseSchedule(TENANT, 'p', { cancelPending: false, note: null, now: T0 + MINUTE }),
      ],
      ['deleted', () => ctx.store.deleteSchedule(TENANT, 'd', T0 + MINUTE)],
    ];
    for (const [what, first] of firsts) {
      const key = what[0]!;
      const { schedule } = await create(key);
      const [before] = await list(key);
      expect(before).toMatchObject({
        scheduleId: schedule.id,
        version: 1,
        at: T0,
        actor: 'key:c',
        change: 'created',
        state: 'active',
      });
      expect(before!.content).toEqual(draft({ key }));
      await first();
      const after = await list(key);
      expect(after.map((r) => r.change)).toEqual([what, 'created']);
      expect(after[1]).toEqual(before);
      expect(after[0]!.seq).toBeGreaterThan(before!.seq);
      // Version 1's newest revision: the creation's after an update (a pause or delete keeps version 1).
      if (what === 'updated') expect(await ctx.store.getScheduleRevision(TENANT, key, 1)).toEqual(before);
    }
  });

  it('keeps the state a schedule was created in: paused, or active though since completed', async () => {
    await create('paused', 'paused');
    expect((await list('paused'))[0]).toMatchObject({ change: 'created', state: 'paused' });
    await ctx.store.resumeSchedule(TENANT, 'paused', { nextFireAt: T0 + MINUTE, skipped: [], now: T0 + 1 });
    expect((await list('paused')).map((r) => [r.change, r.state])).toEqual([
      ['resumed', 'active'],
      ['created', 'paused'],
    ]);

    const { schedule } = await create('done');
    await complete(ctx.store, schedule);
    expect((await list('done'))[0]).toMatchObject({ change: 'created', state: 'active' });
    await change('done', T0 + MINUTE);
    expect((await list('done')).map((r) => [r.change, r.state])).toEqual([
      ['updated', 'active'],
      ['created', 'active'],
    ]);
  });

  it('pages a created revision in its place among an earlier schedule of the key', async () => {
    await create('report');
    await ctx.store.deleteSchedule(TENANT, 'report', T0 + 1);
    const { schedule } = await create('report');
    const all = await list();
    expect(all.map((r) => [r.change, r.scheduleId === schedule.id])).toEqual([
      ['created', true],
      ['deleted', false],
      ['created', false],
    ]);
    const paged: ScheduleRevision[] = [];
    let cursor: string | undefined;
    do {
      const page = await ctx.store.listScheduleRevisions({
        tenantId: TENANT,
        key: 'report',
        limit: 1,
        cursor,
      });
      paged.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(paged).toEqual(all);
    // Version 1 is the newest schedule's.
    expect((await ctx.store.getScheduleRevision(TENANT, 'report', 1))?.scheduleId).toBe(schedule.id);
  });

  it('gives a later revision of any key a higher number than a created one', async () => {
    const a = (await create('a')).schedule;
    await create('b');
    await change('b', T0 + 1);
    await change('a', T0 + 2);
    const [aUpdated, aCreated] = await list('a');
    const [bUpdated, bCreated] = await list('b');
    expect(aCreated!.scheduleId).toBe(a.id);
    expect([aCreated!.seq, bCreated!.seq, bUpdated!.seq, aUpdated!.seq]).toEqual(
      [aCreated!.seq, bCreated!.seq, bUpdated!.seq, aUpdated!.seq].sort((x, y) => x - y),
    );
    expect(new Set([aCreated!.seq, bCreated!.seq, bUpdated!.seq, aUpdated!.seq]).size).toBe(4);
  });
}
