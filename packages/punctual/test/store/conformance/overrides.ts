// Conformance: occurrence overrides and timed pauses. An override makes the occurrence's pending run follow
// it (moved, skipped, another payload) and its removal brings the plain run back; a run that a claim took
// first is never changed (OCCURRENCE_STARTED, nothing written), and a claim racing an override ends with one
// of them winning, never both. A timed pause is found when its `until` comes and resumes only then. Old
// overrides of occurrences already written are pruned in bounded batches; the others are kept.

import { expect, it } from 'vitest';
import type { OccurrenceOverride } from '../../../src/domain/occurrence-override.js';
import type { Schedule } from '../../../src/domain/schedule.js';
import { overriddenInsert, occurrenceRun } from '../../../src/run-insert-of.js';
import { draft, MINUTE, T0, TENANT } from '../../support/fixtures.js';
import { addRuns, claim, claimOne, create, rejectsWithCode, runOf, type Ctx } from './helpers.js';

function override(s: Schedule, instant: number, o: Partial<OccurrenceOverride>): OccurrenceOverride {
  return {
    tenantId: s.tenantId,
    scheduleId: s.id,
    instant,
    kind: 'skip',
    moveTo: null,
    payload: null,
    note: null,
    createdAt: T0,
    ...o,
  };
}

async function write(ctx: Ctx, s: Schedule, o: OccurrenceOverride, now = T0) {
  return ctx.store.putOccurrenceOverride({ override: o, run: overriddenInsert(s, o), now });
}

export function overrideTests(ctx: Ctx): void {
  it('prunes overrides of written occurrences older than the cutoff, in batches, and keeps the rest', async () => {
    const HOUR = 60 * MINUTE;
    const s = await create(ctx.store, {}, { nextFireAt: T0 - 4 * HOUR });
    const other = await create(ctx.store, { key: 'other' }, { nextFireAt: T0 - 4 * HOUR });
    const put = (sc: Schedule, instant: number, o: Partial<OccurrenceOverride>) =>
      write(ctx, sc, override(sc, instant, o), T0 - 5 * HOUR);
    await put(s, T0 - 3 * HOUR, { kind: 'skip' }); // old, written: pruned
    await put(s, T0 - 2 * HOUR, { kind: 'move', moveTo: T0 + HOUR }); // moved past the cutoff: kept
    await put(s, T0 - HOUR, { kind: 'payload', payload: { a: 1 } }); // old but not written yet: kept
    await put(s, T0 + 3 * HOUR, { kind: 'skip' }); // neither old nor written: kept
    await put(other, T0 - 3 * HOUR, { kind: 'skip' }); // its schedule has not written it: kept
    const advance = (sc: Schedule, from: number, to: number | null) =>
      ctx.store.advanceSchedule({
        tenantId: TENANT,
        scheduleId: sc.id,
        version: sc.version,
        expectedNextFireAt: from,
        nextFireAt: to,
        fired: 0,
        complete: to === null,
        runs: [],
        now: T0,
      });
    await advance(s, T0 - 4 * HOUR, T0 - 90 * MINUTE);
    const instants = async (sc: Schedule) =>
      (await ctx.store.listOccurrenceOverrides(TENANT, sc.id, { from: 0, limit: 10 })).map((o) => o.instant);

    expect(await ctx.store.pruneOverrides({ before: T0, limit: 1 })).toBe(1);
    expect(await ctx.store.pruneOverrides({ before: T0, limit: 1 })).toBe(0);
    expect(await instants(s)).toEqual([T0 - 2 * HOUR, T0 - HOUR, T0 + 3 * HOUR]);

    // Once written, the payload override goes too, in batches of at most `limit`.
    await advance(s, T0 - 90 * MINUTE, T0 + 2 * HOUR);
    await advance(other, T0 - 4 * HOUR, null); // a completed schedule has written all of its occurrences
    expect(await ctx.store.pruneOverrides({ before: T0, limit: 1 })).toBe(1);
    expect(await ctx.store.pruneOverrides({ before: T0, limit: 5 })).toBe(1);
    expect(await ctx.store.pruneOverrides({ before: T0, limit: 5 })).toBe(0);
    expect(await instants(s)).toEqual([T0 - 2 * HOUR, T0 + 3 * HOUR]);
    expect(await instants(other)).toEqual([]);
    // The move's own instant passes the cutoff later: then it goes.
    expect(await ctx.store.pruneOverrides({ before: T0 + HOUR + 1, limit: 5 })).toBe(1);
    expect(await instants(s)).toEqual([T0 + 3 * HOUR]);
  });

  it('moves a pending run and brings it back when the override is removed', async () => {
    const s = await create(ctx.store, {}, { nextFireAt: T0 + 10 * MINUTE });
    const [run] = await addRuns(ctx.store, s, [T0 + 5 * MINUTE]);
    const o = override(s, T0 + 5 * MINUTE, { kind: 'move', moveTo: T0 + 7 * MINUTE, note: 'later' });
    const res = await write(ctx, s, o);
    expect(res.transition?.run).toMatchObject({
      id: run!.id,
      state: 'scheduled',
      scheduledFor: T0 + 5 * MINUTE,
      dueAt: T0 + 7 * MINUTE,
      reason: 'override',
      details: { override: 'move', from: T0 + 5 * MINUTE, to: T0 + 7 * MINUTE, note: 'later' },
    });
    // Not due at its nominal instant any more: due at the new one.
    expect((await claim(ctx.store, T0 + 6 * MINUTE)).claimed).toEqual([]);
    expect(await ctx.store.listOccurrenceOverrides(TENANT, s.id, { from: T0, limit: 10 })).toEqual([o]);
    const removed = await ctx.store.deleteOccurrenceOverride({
      tenantId: TENANT,
      scheduleId: s.id,
      instant: o.instant,
      run: occurrenceRun(s, o.instant),
      now: T0 + MINUTE,
    });
    expect(removed.removed).toBe(true);
    expect(await runOf(ctx.store, run!)).toMatchObject({
      dueAt: T0 + 5 * MINUTE,
      reason: null,
      details: null,
    });
    expect(await ctx.store.listOccurrenceOverrides(TENANT, s.id, { from: T0, limit: 10 })).toEqual([]);
    const again = await ctx.store.deleteOccurrenceOverride({
      tenantId: TENANT,
      scheduleId: s.id,
      instant: o.instant,
      run: occurrenceRun(s, o.instant),
      now: T0 + MINUTE,
    });
    expect(again).toEqual({ removed: false, transition: null });
  });

  it('skips a pending run (its occurrence freed) and runs it again when the skip is undone', async () => {
    const s = await create(ctx.store, {}, { nextFireAt: T0 + 10 * MINUTE });
    const [run] = await addRuns(ctx.store, s, [T0 + 5 * MINUTE]);
    const skip = await write(ctx, s, override(s, T0 + 5 * MINUTE, { kind: 'skip' }));
    expect(skip.transition).toMatchObject({ from: 'scheduled', to: 'skipped' });
    expect(await runOf(ctx.store, run!)).toMatchObject({ state: 'skipped', reason: 'override' });
    const undo = await ctx.store.deleteOccurrenceOverride({
      tenantId: TENANT,
      scheduleId: s.id,
      instant: T0 + 5 * MINUTE,
      run: occurrenceRun(s, T0 + 5 * MINUTE),
      now: T0 + MINUTE,
    });
    expect(undo.transition).toMatchObject({ from: null, to: 'scheduled' });
    expect(undo.transition?.run.id).not.toBe(run!.id);
    expect((await claimOne(ctx.store, T0 + 5 * MINUTE)).run.id).toBe(undo.transition?.run.id);
  });

  it('gives a pending run the payload of a payload override', async () => {
    const s = await create(ctx.store, {}, { nextFireAt: T0 + 10 * MINUTE });
    await addRuns(ctx.store, s, [T0 + 5 * MINUTE]);
    await write(ctx, s, override(s, T0 + 5 * MINUTE, { kind: 'payload', payload: { to: 'ops' } }));
    const c = await claimOne(ctx.store, T0 + 5 * MINUTE);
    expect(c.run).toMatchObject({ payload: { to: 'ops' }, reason: 'override' });
  });

  it('refuses an override of a run a claim took first, writing nothing', async () => {
    const s = await create(ctx.store, {}, { nextFireAt: T0 + 10 * MINUTE });
    await addRuns(ctx.store, s, [T0 + 5 * MINUTE]);
    await claimOne(ctx.store, T0 + 5 * MINUTE);
    const details = await rejectsWithCode(
      write(ctx, s, override(s, T0 + 5 * MINUTE, { kind: 'skip' }), T0 + 5 * MINUTE),
      'OCCURRENCE_STARTED',
    );
    expect(details).toMatchObject({ state: 'running', instant: T0 + 5 * MINUTE });
    expect(await ctx.store.listOccurrenceOverrides(TENANT, s.id, { from: T0, limit: 10 })).toEqual([]);
  });

  it('lets a claim and a racing override end with exactly one of them winning', async () => {
    for (let i = 0; i < 8; i++) {
      const s = await create(ctx.store, { key: `race-${i}` }, { nextFireAt: T0 + 10 * MINUTE });
      const at = T0 + i * 1000;
      await addRuns(ctx.store, s, [at]);
      const [claimed, written] = await Promise.allSettled([
        ctx.store.claimRuns({ workerId: 'w', now: at, limit: 10, leaseMs: 30_000 }),
        write(ctx, s, override(s, at, { kind: 'skip' }), at),
      ]);
      expect(claimed.status).toBe('fulfilled');
      const took = claimed.status === 'fulfilled' ? claimed.value.claimed.length : 0;
      const overrode = written.status === 'fulfilled';
      if (!overrode) expect(String((written as PromiseRejectedResult).reason)).toMatch(/already running/);
      expect(took + (overrode ? 1 : 0)).toBe(1);
      const stored = await ctx.store.listOccurrenceOverrides(TENANT, s.id, { from: T0, limit: 10 });
      expect(stored).toHaveLength(overrode ? 1 : 0);
      if (took === 1)
        await ctx.store.cancelRun(
          TENANT,
          (claimed as PromiseFulfilledResult<{ claimed: { run: { id: string } }[] }>).value.claimed[0]!.run
            .id,
          at,
        );
    }
  });

  it('keeps an override of an occurrence not materialised yet, for the materializer, until an update drops it', async () => {
    const s = await create(ctx.store, {}, { nextFireAt: T0 });
    const later = override(s, T0 + 20 * MINUTE, { kind: 'payload', payload: 1 });
    const res = await write(ctx, s, later);
    expect(res.transition).toBeNull();
    expect(await ctx.store.overridesDue([s.id], T0, T0 + 30 * MINUTE)).toEqual([later]);
    expect(await ctx.store.overridesDue([s.id], T0, T0 + 10 * MINUTE)).toEqual([]);
    await ctx.store.putSchedule({
      draft: draft({ spec: '*/7 * * * *' }),
      nextFireAt: T0,
      dropOverrides: [later.instant],
      now: T0 + MINUTE,
    });
    expect(await ctx.store.listOccurrenceOverrides(TENANT, s.id, { from: T0, limit: 10 })).toEqual([]);
  });

  it('finds a timed pause when its until comes and resumes it only then', async () => {
    const s = await create(ctx.store);
    const paused = await ctx.store.pauseSchedule(TENANT, s.key, {
      cancelPending: false,
      note: 'maintenance',
      now: T0,
      until: T0 + 60 * MINUTE,
    });
    expect(paused?.schedule).toMatchObject({ state: 'paused', pausedUntil: T0 + 60 * MINUTE });
    expect(await ctx.store.nextTimedResumeAt()).toBe(T0 + 60 * MINUTE);
    expect(await ctx.store.dueTimedPauses(T0 + 59 * MINUTE, 10)).toEqual([]);
    expect((await ctx.store.dueTimedPauses(T0 + 60 * MINUTE, 10)).map((x) => x.key)).toEqual([s.key]);
    const early = await ctx.store.resumeSchedule(TENANT, s.key, {
      nextFireAt: T0 + 60 * MINUTE,
      skipped: [],
      now: T0 + 30 * MINUTE,
      dueBy: T0 + 30 * MINUTE,
    });
    expect(early?.schedule.state).toBe('paused');
    const resumed = await ctx.store.resumeSchedule(TENANT, s.key, {
      nextFireAt: T0 + 60 * MINUTE,
      skipped: [],
      now: T0 + 60 * MINUTE,
      dueBy: T0 + 60 * MINUTE,
    });
    expect(resumed?.schedule).toMatchObject({ state: 'active', pausedUntil: null });
    expect(await ctx.store.nextTimedResumeAt()).toBeNull();
  });
}
