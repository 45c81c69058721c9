// Conformance: re-running final runs. A rerun makes the same run `scheduled` again, due now, keeping its
// scheduledFor, occurrence id and attempts, with the schedule's current version and more attempts; runs not
// final yet, runs of another schedule or tenant, and runs whose occurrence another run holds are refused.

import { expect, it } from 'vitest';
import { draft, MINUTE, OTHER_TENANT, T0, TENANT } from '../../support/fixtures.js';
import { addRuns, claimOne, create, settlement, succeed, type Ctx } from './helpers.js';

const error = { code: 'HANDLER_FAILED', message: 'boom' };

export function rerunTests(ctx: Ctx): void {
  const rerun = (scheduleId: string, runIds: string[], now: number, version = 1) =>
    ctx.store.rerunRuns({ tenantId: TENANT, scheduleId, scheduleVersion: version, attempts: 2, runIds, now });

  it('schedules a dead run again as new attempts of the same occurrence, keeping its history', async () => {
    const s = await create(ctx.store);
    const [run] = await addRuns(ctx.store, s, [T0], { maxAttempts: 1 });
    const c = await claimOne(ctx.store, T0);
    await ctx.store.settleRuns([settlement(c, { state: 'dead', error }, T0 + 10)], T0 + 10);

    const res = await rerun(s.id, [run!.id], T0 + MINUTE, 3);
    expect(res.refused).toEqual([]);
    expect(res.transitions).toHaveLength(1);
    expect(res.transitions[0]).toMatchObject({ from: 'dead', to: 'scheduled' });
    const again = res.transitions[0]!.run;
    expect(again).toMatchObject({
      id: run!.id,
      occurrenceId: run!.occurrenceId,
      scheduledFor: T0,
      state: 'scheduled',
      reason: 'rerun',
      dueAt: T0 + MINUTE,
      expiresAt: null,
      attempt: 1,
      maxAttempts: 3,
      scheduleVersion: 3,
      finishedAt: null,
    });
    expect((await ctx.store.getRun(TENANT, run!.id))?.run).toEqual(again);

    const c2 = await claimOne(ctx.store, T0 + MINUTE);
    expect(c2.run).toMatchObject({ id: run!.id, attempt: 2 });
    await succeed(ctx.store, c2, T0 + MINUTE + 5);
    const got = await ctx.store.getRun(TENANT, run!.id);
    expect(got?.run.state).toBe('succeeded');
    expect(got?.attempts.map((a) => [a.attempt, a.outcome])).toEqual([
      [1, 'failed'],
      [2, 'succeeded'],
    ]);
  });

  it('keeps the attempt of a success when a succeeded run is run again', async () => {
    const s = await create(ctx.store);
    const [run] = await addRuns(ctx.store, s, [T0]);
    await succeed(ctx.store, await claimOne(ctx.store, T0), T0 + 5);
    await rerun(s.id, [run!.id], T0 + MINUTE);
    const c = await claimOne(ctx.store, T0 + MINUTE);
    await succeed(ctx.store, c, T0 + MINUTE + 5);
    const got = await ctx.store.getRun(TENANT, run!.id);
    expect(got?.attempts.map((a) => [a.attempt, a.outcome, a.finishedAt])).toEqual([
      [1, 'succeeded', T0 + 5],
      [2, 'succeeded', T0 + MINUTE + 5],
    ]);
  });

  it('refuses runs not final yet, unknown runs and runs of another schedule, changing nothing', async () => {
    const s = await create(ctx.store);
    const other = await create(ctx.store, { key: 'other' });
    const foreign = await create(ctx.store, { tenantId: OTHER_TENANT, key: 'foreign' });
    const [pending, running] = await addRuns(ctx.store, s, [T0 + MINUTE, T0]);
    await claimOne(ctx.store, T0);
    const [otherRun] = await addRuns(ctx.store, other, [T0 + 2 * MINUTE]);
    const [foreignRun] = await addRuns(ctx.store, foreign, [T0 + 3 * MINUTE]);
    const res = await rerun(
      s.id,
      [pending!.id, running!.id, otherRun!.id, foreignRun!.id, '999999', 'x'],
      T0,
    );
    expect(res.transitions).toEqual([]);
    expect(res.refused).toEqual([
      { runId: pending!.id, why: 'notFinal', state: 'scheduled' },
      { runId: running!.id, why: 'notFinal', state: 'running' },
      { runId: otherRun!.id, why: 'notFound' },
      { runId: foreignRun!.id, why: 'notFound' },
      { runId: '999999', why: 'notFound' },
      { runId: 'x', why: 'notFound' },
    ]);
    expect((await ctx.store.getRun(TENANT, pending!.id))?.run.state).toBe('scheduled');
  });

  it('lets a cancelled run take its occurrence back, unless another run holds it', async () => {
    const s = await create(ctx.store);
    const [a, b] = await addRuns(ctx.store, s, [T0, T0 + MINUTE]);
    // An update cancels both (reason updated) and frees their occurrences; the new version takes b's.
    const { schedule: v2 } = await ctx.store.putSchedule({
      draft: draft({ spec: '*/10 * * * *' }),
      nextFireAt: T0,
      now: T0 - 10,
    });
    const [newer] = await addRuns(ctx.store, v2, [T0 + MINUTE]);
    expect(newer).toBeDefined();
    const res = await rerun(s.id, [a!.id, b!.id], T0, 2);
    expect(res.transitions.map((t) => [t.run.id, t.from])).toEqual([[a!.id, 'cancelled']]);
    expect(res.refused).toEqual([
      { runId: b!.id, why: 'occurrenceTaken', state: 'cancelled', heldBy: newer!.id },
    ]);
    // a holds its occurrence again: materialising it once more inserts nothing.
    expect(await addRuns(ctx.store, v2, [T0])).toEqual([]);
  });
}
