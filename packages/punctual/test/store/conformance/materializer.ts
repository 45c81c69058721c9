// Conformance: the materializer's side of the store. claimDueSchedules spreads work, advanceSchedule is a
// compare-and-set that inserts runs idempotently by occurrence, nextScheduleAt feeds the timer.

import { expect, it } from 'vitest';
import type { Schedule } from '../../../src/domain/schedule.js';
import type { Advance } from '../../../src/store/store.js';
import { draft, MINUTE, runInsert, T0, TENANT } from '../../support/fixtures.js';
import { create, runOf, type Ctx } from './helpers.js';

function advance(s: Schedule, overrides: Partial<Advance> = {}): Advance {
  return {
    tenantId: s.tenantId,
    scheduleId: s.id,
    version: s.version,
    expectedNextFireAt: s.nextFireAt,
    nextFireAt: (s.nextFireAt ?? T0) + 5 * MINUTE,
    fired: 1,
    complete: false,
    runs: [runInsert({ schedule: s, scheduledFor: s.nextFireAt ?? T0 })],
    now: T0,
    ...overrides,
  };
}

export function materializerTests(ctx: Ctx): void {
  it('claims active schedules due within the horizon, earliest first, up to the limit', async () => {
    await create(ctx.store, { key: 'late' }, { nextFireAt: T0 + 3 * MINUTE });
    await create(ctx.store, { key: 'early' }, { nextFireAt: T0 + MINUTE });
    await create(ctx.store, { key: 'mid' }, { nextFireAt: T0 + 2 * MINUTE });
    await create(ctx.store, { key: 'beyond' }, { nextFireAt: T0 + 10 * MINUTE });
    const got = await ctx.store.claimDueSchedules({
      now: T0,
      horizon: T0 + 3 * MINUTE,
      limit: 2,
      leaseMs: 5000,
    });
    expect(got.map((s) => s.key)).toEqual(['early', 'mid']);
    const rest = await ctx.store.claimDueSchedules({
      now: T0,
      horizon: T0 + 3 * MINUTE,
      limit: 10,
      leaseMs: 5000,
    });
    expect(rest.map((s) => s.key)).toEqual(['late']);
  });

  it('claims from `from` when given: schedules due before it are left, those that roll back are not bounded', async () => {
    await create(ctx.store, { key: 'below' }, { nextFireAt: T0 - MINUTE });
    await create(ctx.store, { key: 'at' }, { nextFireAt: T0 });
    await create(ctx.store, { key: 'above' }, { nextFireAt: T0 + MINUTE });
    await create(
      ctx.store,
      { key: 'back', calendarRules: { exclude: [], businessDays: { calendar: 'work', roll: 'previous' } } },
      { nextFireAt: T0 - 2 * MINUTE },
    );
    const req = { now: T0, horizon: T0 + 2 * MINUTE, limit: 10, leaseMs: 5000 };
    const got = await ctx.store.claimDueSchedules({ ...req, from: T0 });
    expect(got.map((s) => s.key).sort()).toEqual(['above', 'at', 'back']);
    expect((await ctx.store.claimDueSchedules(req)).map((s) => s.key)).toEqual(['below']);
  });

  it('claims schedules that roll back up to rollBackLeadMs earlier, the others only within the horizon', async () => {
    const HOUR = 60 * MINUTE;
    const rules = (roll: 'previous' | 'next') => ({
      calendarRules: { exclude: [], businessDays: { calendar: 'work', roll } },
    });
    await create(ctx.store, { key: 'back', ...rules('previous') }, { nextFireAt: T0 + 5 * HOUR });
    await create(ctx.store, { key: 'back-far', ...rules('previous') }, { nextFireAt: T0 + 30 * HOUR });
    await create(ctx.store, { key: 'forward', ...rules('next') }, { nextFireAt: T0 + 5 * HOUR });
    await create(ctx.store, { key: 'plain' }, { nextFireAt: T0 + 5 * HOUR });
    await create(ctx.store, { key: 'due' }, { nextFireAt: T0 + MINUTE });
    const paused = await create(
      ctx.store,
      { key: 'paused', ...rules('previous') },
      { nextFireAt: T0 + HOUR },
    );
    await ctx.store.pauseSchedule(TENANT, paused.key, { cancelPending: false, note: null, now: T0 });
    expect(await ctx.store.nextRollingBackAt()).toBe(T0 + 5 * HOUR);
    const req = { now: T0, horizon: T0 + MINUTE, limit: 10, leaseMs: 5000 };
    // Without a lead, a schedule that rolls back is claimed like any other.
    expect((await ctx.store.claimDueSchedules({ ...req, now: T0 - 5001 })).map((s) => s.key)).toEqual([
      'due',
    ]);
    const got = await ctx.store.claimDueSchedules({ ...req, rollBackLeadMs: 24 * HOUR });
    expect(got.map((s) => s.key)).toEqual(['due', 'back']);
    expect(await ctx.store.claimDueSchedules({ ...req, rollBackLeadMs: 24 * HOUR })).toEqual([]);
  });

  it('does not hand a claimed schedule out again until its claim lapses', async () => {
    await create(ctx.store);
    const req = { horizon: T0 + MINUTE, limit: 10, leaseMs: 5000 };
    expect(await ctx.store.claimDueSchedules({ ...req, now: T0 })).toHaveLength(1);
    expect(await ctx.store.claimDueSchedules({ ...req, now: T0 + 4999 })).toHaveLength(0);
    expect(await ctx.store.claimDueSchedules({ ...req, now: T0 + 5000 })).toHaveLength(1);
  });

  it('releases a claim when the schedule changes: a put with a change, a pause and resume', async () => {
    await create(ctx.store, { key: 'put' });
    await create(ctx.store, { key: 'resumed' });
    await create(ctx.store, { key: 'kept' });
    const req = { now: T0, horizon: T0 + MINUTE, limit: 10, leaseMs: 60_000 };
    expect(await ctx.store.claimDueSchedules(req)).toHaveLength(3);
    await ctx.store.putSchedule({
      draft: draft({ key: 'put', summary: 'changed' }),
      nextFireAt: T0,
      now: T0 + 1,
    });
    await ctx.store.pauseSchedule(TENANT, 'resumed', { cancelPending: false, note: null, now: T0 + 1 });
    await ctx.store.resumeSchedule(TENANT, 'resumed', { nextFireAt: T0, skipped: [], now: T0 + 2 });
    const again = await ctx.store.claimDueSchedules({ ...req, now: T0 + 3 });
    expect(again.map((s) => s.key).sort()).toEqual(['put', 'resumed']);
  });

  it('leaves paused, completed and exhausted schedules out of the claim', async () => {
    await create(ctx.store, { key: 'paused' });
    await ctx.store.pauseSchedule(TENANT, 'paused', { cancelPending: false, note: null, now: T0 });
    const done = await create(ctx.store, { key: 'done' });
    await ctx.store.advanceSchedule(advance(done, { nextFireAt: null, complete: true }));
    await create(ctx.store, { key: 'none' }, { nextFireAt: null });
    expect(
      await ctx.store.claimDueSchedules({ now: T0, horizon: T0 + 60 * MINUTE, limit: 10, leaseMs: 1 }),
    ).toEqual([]);
  });

  it('advances: inserts the runs, moves nextFireAt, counts them, releases the claim', async () => {
    const s = await create(ctx.store);
    await ctx.store.claimDueSchedules({ now: T0, horizon: T0, limit: 1, leaseMs: 60_000 });
    const res = await ctx.store.advanceSchedule(
      advance(s, {
        nextFireAt: T0 + 10 * MINUTE,
        fired: 2,
        runs: [
          runInsert({ schedule: s, scheduledFor: T0 }),
          runInsert({ schedule: s, scheduledFor: T0 + 5 * MINUTE }),
        ],
      }),
    );
    expect(res.status).toBe('advanced');
    expect(res.transitions.map((t) => [t.from, t.to, t.run.scheduledFor, t.run.state])).toEqual([
      [null, 'scheduled', T0, 'scheduled'],
      [null, 'scheduled', T0 + 5 * MINUTE, 'scheduled'],
    ]);
    const run = res.transitions[0]!.run;
    expect(run).toMatchObject({
      tenantId: TENANT,
      scheduleId: s.id,
      scheduleKey: s.key,
      scheduleVersion: 1,
      occurrenceId: `${s.id}:${T0}`,
      kind: 'scheduled',
      dueAt: T0,
      attempt: 0,
      checks: 0,
      createdAt: T0,
      startedAt: null,
      finishedAt: null,
      leaseOwner: null,
      leaseExpiresAt: null,
    });
    expect(await ctx.store.getSchedule(TENANT, s.key)).toMatchObject({
      nextFireAt: T0 + 10 * MINUTE,
      materializedCount: 2,
    });
    const again = await ctx.store.claimDueSchedules({
      now: T0,
      horizon: T0 + 10 * MINUTE,
      limit: 1,
      leaseMs: 1,
    });
    expect(again.map((x) => x.key)).toEqual([s.key]);
  });

  it('refuses a stale advance (version or nextFireAt) and writes nothing', async () => {
    const s = await create(ctx.store);
    expect(await ctx.store.advanceSchedule(advance(s, { version: 2 }))).toEqual({
      status: 'conflict',
      transitions: [],
    });
    expect(await ctx.store.advanceSchedule(advance(s, { expectedNextFireAt: T0 + 1 }))).toEqual({
      status: 'conflict',
      transitions: [],
    });
    expect(await ctx.store.advanceSchedule(advance(s, { expectedNextFireAt: null }))).toEqual({
      status: 'conflict',
      transitions: [],
    });
    expect(await ctx.store.advanceSchedule(advance(s, { tenantId: 'someone-else' }))).toEqual({
      status: 'conflict',
      transitions: [],
    });
    expect(await ctx.store.getSchedule(TENANT, s.key)).toEqual(s);
    expect((await ctx.store.listRuns({ tenantId: TENANT, limit: 10 })).items).toEqual([]);

    expect((await ctx.store.advanceSchedule(advance(s))).status).toBe('advanced');
    expect((await ctx.store.advanceSchedule(advance(s))).status).toBe('conflict');
  });

  it('compares a null nextFireAt null-safely', async () => {
    const s = await create(ctx.store, {}, { nextFireAt: null });
    const res = await ctx.store.advanceSchedule(
      advance(s, { expectedNextFireAt: null, nextFireAt: T0, runs: [] }),
    );
    expect(res.status).toBe('advanced');
    expect((await ctx.store.getSchedule(TENANT, s.key))?.nextFireAt).toBe(T0);
  });

  it('refuses to advance a paused schedule', async () => {
    const s = await create(ctx.store);
    await ctx.store.pauseSchedule(TENANT, s.key, { cancelPending: false, note: null, now: T0 });
    expect((await ctx.store.advanceSchedule(advance(s))).status).toBe('conflict');
  });

  it('materialises an occurrence once, however often it is advanced or inserted', async () => {
    const s = await create(ctx.store);
    const first = await ctx.store.advanceSchedule(advance(s, { nextFireAt: T0 }));
    expect(first.transitions).toHaveLength(1);
    // A second materializer computed the same occurrence: the advance succeeds, the run is not doubled.
    const second = await ctx.store.advanceSchedule(
      advance(s, { expectedNextFireAt: T0, nextFireAt: T0 + MINUTE }),
    );
    expect(second).toEqual({ status: 'advanced', transitions: [] });
    expect(
      await ctx.store.insertRuns([runInsert({ schedule: s, scheduledFor: T0, kind: 'backfill' })], T0),
    ).toEqual([]);
    const runs = await ctx.store.listRuns({ tenantId: TENANT, limit: 10 });
    expect(runs.items).toHaveLength(1);
  });

  it('inserts manual runs without occurrence uniqueness, each with its own occurrence id', async () => {
    const s = await create(ctx.store);
    const manual = runInsert({
      schedule: s,
      scheduledFor: T0,
      kind: 'manual',
      unique: false,
      payload: { x: 1 },
    });
    const ts = await ctx.store.insertRuns([manual, manual], T0);
    expect(ts).toHaveLength(2);
    const [a, b] = ts.map((t) => t.run);
    expect(a!.occurrenceId).toBe(`${s.id}:manual:${a!.id}`);
    expect(b!.occurrenceId).toBe(`${s.id}:manual:${b!.id}`);
    expect(a!.payload).toEqual({ x: 1 });
    const unique = await ctx.store.insertRuns([runInsert({ schedule: s, scheduledFor: T0 })], T0);
    expect(unique).toHaveLength(1);
  });

  it('inserts a run directly as skipped, final, never claimed', async () => {
    const s = await create(ctx.store);
    const [t] = await ctx.store.insertRuns(
      [
        runInsert({
          schedule: s,
          scheduledFor: T0,
          state: 'skipped',
          reason: 'misfire',
          details: { missed: 4 },
        }),
      ],
      T0 + MINUTE,
    );
    expect(t).toMatchObject({ from: null, to: 'skipped' });
    expect(t!.run).toMatchObject({
      state: 'skipped',
      reason: 'misfire',
      details: { missed: 4 },
      finishedAt: T0 + MINUTE,
    });
    expect(
      (await ctx.store.claimRuns({ workerId: 'w', now: T0 + MINUTE, limit: 5, leaseMs: 1000 })).claimed,
    ).toEqual([]);
    expect((await runOf(ctx.store, t!.run)).state).toBe('skipped');
  });

  it('completes a schedule whose spec has no occurrence left', async () => {
    const s = await create(ctx.store);
    const res = await ctx.store.advanceSchedule(advance(s, { nextFireAt: null, complete: true }));
    expect(res.status).toBe('advanced');
    expect(await ctx.store.getSchedule(TENANT, s.key)).toMatchObject({
      state: 'completed',
      nextFireAt: null,
      materializedCount: 1,
    });
  });

  it('advances several schedules in one call, each its own compare-and-set, results in input order', async () => {
    // Optional in the contract; both stores implement it.
    const advanceSchedules = ctx.store.advanceSchedules!.bind(ctx.store);
    const a = await create(ctx.store, { key: 'a' });
    const b = await create(ctx.store, { key: 'b' });
    const c = await create(ctx.store, { key: 'c' });
    const res = await advanceSchedules([
      advance(c, {
        runs: [
          runInsert({ schedule: c, scheduledFor: T0 }),
          runInsert({ schedule: c, scheduledFor: T0 + MINUTE }),
        ],
      }),
      // b is stale: nothing of it is written, the others are.
      advance(b, { version: b.version + 1 }),
      advance(a, { nextFireAt: null, complete: true }),
    ]);
    expect(res.map((r) => r.status)).toEqual(['advanced', 'conflict', 'advanced']);
    expect(res[0]!.transitions.map((t) => [t.run.scheduleKey, t.run.scheduledFor, t.to])).toEqual([
      ['c', T0, 'scheduled'],
      ['c', T0 + MINUTE, 'scheduled'],
    ]);
    expect(res[1]!.transitions).toEqual([]);
    expect(res[2]!.transitions.map((t) => t.run.scheduleKey)).toEqual(['a']);
    expect(await ctx.store.getSchedule(TENANT, 'b')).toMatchObject({
      materializedCount: 0,
      nextFireAt: b.nextFireAt,
    });
    expect(await ctx.store.getSchedule(TENANT, 'a')).toMatchObject({
      state: 'completed',
      materializedCount: 1,
    });
    // Advanced once: the same step again is a conflict for each, and inserts nothing.
    const again = await advanceSchedules([advance(c), advance(a)]);
    expect(again.map((r) => r.status)).toEqual(['conflict', 'conflict']);
    expect(await advanceSchedules([])).toEqual([]);
  });

  it('reports the earliest nextFireAt among active schedules', async () => {
    expect(await ctx.store.nextScheduleAt()).toBeNull();
    await create(ctx.store, { key: 'b' }, { nextFireAt: T0 + 2 * MINUTE });
    await create(ctx.store, { key: 'a' }, { nextFireAt: T0 + 3 * MINUTE });
    await create(ctx.store, { key: 'p' }, { nextFireAt: T0 + MINUTE });
    await create(ctx.store, { key: 'n' }, { nextFireAt: null });
    await ctx.store.pauseSchedule(TENANT, 'p', { cancelPending: false, note: null, now: T0 });
    expect(await ctx.store.nextScheduleAt()).toBe(T0 + 2 * MINUTE);
    expect(await ctx.store.nextScheduleAt(T0 + 2 * MINUTE + 1)).toBe(T0 + 3 * MINUTE);
    expect(await ctx.store.nextScheduleAt(T0 + 3 * MINUTE + 1)).toBeNull();
  });

  it('takes overdue schedules (nothing materialised their occurrence) once per occurrence', async () => {
    if (!ctx.store.takeOverdueSchedules) return;
    const a = await create(ctx.store, { key: 'a' }, { nextFireAt: T0 });
    await create(ctx.store, { key: 'b' }, { nextFireAt: T0 + 2 * MINUTE });
    await create(ctx.store, { key: 'p' }, { nextFireAt: T0 });
    await ctx.store.pauseSchedule(TENANT, 'p', { cancelPending: false, note: null, now: T0 });
    const take = (now: number) => ctx.store.takeOverdueSchedules!(now, MINUTE, 10);
    expect((await take(T0 + MINUTE)).map((s) => s.key)).toEqual([]); // not past the grace yet
    expect((await take(T0 + MINUTE + 1)).map((s) => [s.key, s.nextFireAt])).toEqual([['a', T0]]);
    expect(await take(T0 + MINUTE + 2)).toEqual([]); // reported once
    // Its next occurrence is another one: reported again when it is overdue in turn.
    const advanced = await ctx.store.advanceSchedule({
      tenantId: a.tenantId,
      scheduleId: a.id,
      version: a.version,
      expectedNextFireAt: T0,
      nextFireAt: T0 + 5 * MINUTE,
      fired: 0,
      complete: false,
      runs: [],
      now: T0 + 2 * MINUTE,
    });
    expect(advanced.status).toBe('advanced');
    expect((await take(T0 + 7 * MINUTE)).map((s) => [s.key, s.nextFireAt])).toEqual([
      ['b', T0 + 2 * MINUTE],
      ['a', T0 + 5 * MINUTE],
    ]);
  });
}
