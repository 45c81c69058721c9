// Conformance: expectations, deadline checks and failure rates (part of AlertStore; conformance.ts runs this
// group only for a store that has alerts). A schedule's `expect` is content (stored, versioned, read back); the runs a put or
// an advance writes keep their expect_by; evaluateDueExpectations judges each due run once (met resolves,
// missed opens one alert per schedule, cancelled and skipped runs are not judged); recentOutcomes reads a
// schedule's latest executed runs; a deadline check judges each closed window by the runs of its schedule.
// Speaks only the contract, never SQL; instants are fixed.

import { expect, it } from 'vitest';
import type { AlertStore } from '../../../src/store/alert-store.js';
import type { Store } from '../../../src/store/store.js';
import { MINUTE, runInsert, T0, TENANT } from '../../support/fixtures.js';
import { claimOne, create, rejectsWithCode, settlement, succeed, type Ctx } from './helpers.js';

const HOUR = 60 * MINUTE;
/** The first whole hour after T0 (T0 is 22:13:20 UTC). */
const H = Math.ceil(T0 / HOUR) * HOUR;

export function expectationTests(ctx: Ctx): void {
  const store = (): Store & AlertStore => ctx.store as Store & AlertStore;
  const within = { successWithinMs: 5 * MINUTE };

  it('keeps a schedule expect as content: stored, read back, a change makes a new version', async () => {
    const s = await create(store(), { expect: within });
    expect(s.expect).toEqual(within);
    expect((await store().getSchedule(TENANT, s.key))?.expect).toEqual(within);
    const same = await store().putSchedule({ draft: { ...s, expect: within }, nextFireAt: T0, now: T0 + 1 });
    expect(same.changed).toBe(false);
    const other = await store().putSchedule({
      draft: { ...s, expect: { successWithinMs: MINUTE } },
      nextFireAt: T0,
      now: T0 + 2,
    });
    expect(other.schedule).toMatchObject({ version: 2, expect: { successWithinMs: MINUTE } });
    const none = await store().putSchedule({ draft: { ...s, expect: null }, nextFireAt: T0, now: T0 + 3 });
    expect(none.schedule).toMatchObject({ version: 3, expect: null });
  });

  it('judges each due expectation once: missed opens one alert, met resolves it, cancelled is not judged', async () => {
    const s = await create(store(), { expect: within });
    const by = (t: number): number => t + 5 * MINUTE;
    // Written by an advance (the materializer's path) and by insertRuns.
    const adv = await store().advanceSchedule({
      tenantId: s.tenantId,
      scheduleId: s.id,
      version: s.version,
      expectedNextFireAt: s.nextFireAt,
      nextFireAt: T0 + 3 * MINUTE,
      fired: 1,
      complete: false,
      runs: [runInsert({ schedule: s, scheduledFor: T0, expectBy: by(T0) })],
      now: T0,
    });
    expect(adv.status).toBe('advanced');
    await store().insertRuns(
      [
        runInsert({ schedule: s, scheduledFor: T0 + MINUTE, expectBy: by(T0 + MINUTE) }),
        runInsert({ schedule: s, scheduledFor: T0 + 2 * MINUTE, expectBy: by(T0 + 2 * MINUTE) }),
        runInsert({ schedule: s, scheduledFor: T0 + 3 * MINUTE, expectBy: by(T0 + 3 * MINUTE) }),
      ],
      T0,
    );
    expect(await store().nextExpectationAt()).toBe(by(T0));
    // T0 dies; T0+1m is cancelled; T0+2m stays pending past its window; T0+3m succeeds in time.
    const first = await claimOne(store(), T0);
    await store().settleRuns(
      [settlement(first, { state: 'dead', error: { message: 'down' } }, T0 + 10)],
      T0 + 10,
    );
    const { items } = await store().listRuns({ tenantId: TENANT, scheduleKey: s.key, limit: 10 });
    const byTime = new Map(items.map((r) => [r.scheduledFor, r]));
    await store().cancelRun(TENANT, byTime.get(T0 + MINUTE)!.id, T0 + 20);
    // Nothing is due before the first window closes.
    expect(await store().evaluateDueExpectations(by(T0) - 1, 10)).toEqual({ judged: 0, alerts: [] });
    // Two evaluators at once (two instances): each run is judged by one of them, and one alert opens.
    const [m1, m2] = await Promise.all([
      store().evaluateDueExpectations(by(T0 + 2 * MINUTE), 10),
      store().evaluateDueExpectations(by(T0 + 2 * MINUTE), 10),
    ]);
    expect(m1!.judged + m2!.judged).toBe(3);
    const missed = [...m1!.alerts, ...m2!.alerts];
    expect(missed.map((a) => [a.kind, a.subject, a.state])).toEqual([
      ['expectation_breached', s.key, 'open'],
    ]);
    // Opened by whichever unmet run its evaluator judged first: the dead one or the one still pending.
    expect((missed[0]!.details as { state: string }).state).toMatch(/^(dead|scheduled)$/);
    // Judged once: a second pass at the same instant finds nothing.
    expect(await store().evaluateDueExpectations(by(T0 + 2 * MINUTE), 10)).toEqual({ judged: 0, alerts: [] });
    expect(await store().nextExpectationAt()).toBe(by(T0 + 3 * MINUTE));
    // The next occurrence succeeds within its window: resolved when the window closes.
    await store().cancelRun(TENANT, byTime.get(T0 + 2 * MINUTE)!.id, by(T0 + 2 * MINUTE));
    const next = await claimOne(store(), T0 + 3 * MINUTE);
    await succeed(store(), next, T0 + 4 * MINUTE);
    const met = await store().evaluateDueExpectations(by(T0 + 3 * MINUTE) + 1, 10);
    expect(met.alerts.map((a) => [a.kind, a.state])).toEqual([['expectation_breached', 'resolved']]);
    expect(await store().nextExpectationAt()).toBeNull();
  });

  it('a run that succeeded after its window is a breach; the batch limit bounds one pass', async () => {
    const s = await create(store(), { expect: within });
    await store().insertRuns(
      [T0, T0 + 1, T0 + 2].map((t) => runInsert({ schedule: s, scheduledFor: t, expectBy: t + MINUTE })),
      T0,
    );
    const c = await claimOne(store(), T0);
    await succeed(store(), c, T0 + 2 * MINUTE);
    const one = await store().evaluateDueExpectations(T0 + 3 * MINUTE, 1);
    expect(one.judged).toBe(1);
    expect(one.alerts.map((a) => [a.kind, a.state, (a.details as { state: string }).state])).toEqual([
      ['expectation_breached', 'open', 'succeeded'],
    ]);
    const rest = await store().evaluateDueExpectations(T0 + 3 * MINUTE, 10);
    expect(rest).toEqual({ judged: 2, alerts: [] });
  });

  it('a batched advance keeps each run’s expect_by', async () => {
    const st = store();
    if (st.advanceSchedules === undefined) return;
    const a = await create(st, { key: 'a', expect: within });
    const b = await create(st, { key: 'b', expect: within });
    const res = await st.advanceSchedules(
      [a, b].map((s, i) => ({
        tenantId: s.tenantId,
        scheduleId: s.id,
        version: s.version,
        expectedNextFireAt: s.nextFireAt,
        nextFireAt: T0 + MINUTE,
        fired: 1,
        complete: false,
        runs: [runInsert({ schedule: s, scheduledFor: T0, expectBy: T0 + (i + 1) * MINUTE })],
        now: T0,
      })),
    );
    expect(res.map((r) => r.status)).toEqual(['advanced', 'advanced']);
    expect(await st.nextExpectationAt()).toBe(T0 + MINUTE);
    const judged = await st.evaluateDueExpectations(T0 + 2 * MINUTE, 10);
    expect(judged.alerts.map((x) => x.subject).sort()).toEqual(['a', 'b']);
  });

  it('reads the states of a schedule’s latest executed runs, newest first', async () => {
    const s = await create(store());
    const times = [T0, T0 + 1, T0 + 2, T0 + 3];
    await store().insertRuns(
      times.map((t) => runInsert({ schedule: s, scheduledFor: t })),
      T0,
    );
    const states = ['succeeded', 'dead', 'dead', 'succeeded'] as const;
    for (const [i, state] of states.entries()) {
      const c = await claimOne(store(), T0 + 10 + i);
      const outcome =
        state === 'succeeded'
          ? ({ state, result: null } as const)
          : ({ state, error: { message: 'x' } } as const);
      await store().settleRuns([settlement(c, outcome, T0 + 100 + i)], T0 + 100 + i);
    }
    expect(await store().recentOutcomes(s.id, 3)).toEqual(['succeeded', 'dead', 'dead']);
    expect(await store().recentOutcomes(s.id, 10)).toEqual(['succeeded', 'dead', 'dead', 'succeeded']);
  });

  it('judges each closed window of a deadline check by the runs of its schedule, once', async () => {
    const s = await create(store(), { key: 'report' });
    const body = {
      name: 'by-10',
      kind: 'deadline',
      schedule: 'report',
      spec: '0 * * * *',
      within: '10m',
    } as const;
    const { check, created } = await store().putCheck(TENANT, body, T0);
    expect(created).toBe(true);
    expect(check).toMatchObject({
      kind: 'deadline',
      everyMs: null,
      deadline: { schedule: 'report', spec: '0 * * * *', tz: 'UTC', withinMs: 10 * MINUTE },
      windowStart: H,
      nextCheckAt: H + 10 * MINUTE,
    });
    // Refused bodies change nothing.
    await rejectsWithCode(
      store().putCheck(TENANT, { ...body, within: '2h' }, T0),
      'CHECK_DEADLINE_UNMEETABLE',
    );
    await rejectsWithCode(store().putCheck(TENANT, { ...body, every: '1m' }, T0), 'CHECK_INVALID');
    expect(await store().getCheck(TENANT, 'by-10')).toEqual(check);
    expect(await store().recordHeartbeat(TENANT, 'by-10', T0)).toBeUndefined();
    // Window H: met by a run that succeeded in it. Nothing to resolve; the next window is armed.
    await store().insertRuns([runInsert({ schedule: s, scheduledFor: H })], T0);
    await succeed(store(), await claimOne(store(), H), H + 5 * MINUTE);
    expect(await store().evaluateDueChecks(H + 10 * MINUTE - 1, 10)).toEqual([]);
    expect(await store().evaluateDueChecks(H + 10 * MINUTE, 10)).toEqual([]);
    expect(await store().getCheck(TENANT, 'by-10')).toMatchObject({
      windowStart: H + HOUR,
      nextCheckAt: H + HOUR + 10 * MINUTE,
    });
    // Window H+1h: a run succeeded after it closed. Judged once however many evaluate it: one alert.
    await store().insertRuns([runInsert({ schedule: s, scheduledFor: H + HOUR })], T0);
    await succeed(store(), await claimOne(store(), H + HOUR), H + HOUR + 11 * MINUTE);
    const [a, b] = await Promise.all([
      store().evaluateDueChecks(H + HOUR + 11 * MINUTE, 10),
      store().evaluateDueChecks(H + HOUR + 11 * MINUTE, 10),
    ]);
    expect([...a!, ...b!].map((x) => [x.kind, x.subject, x.state])).toEqual([
      ['deadline_missed', 'by-10', 'open'],
    ]);
    // Window H+2h met: resolved.
    await store().insertRuns([runInsert({ schedule: s, scheduledFor: H + 2 * HOUR })], T0);
    await succeed(store(), await claimOne(store(), H + 2 * HOUR), H + 2 * HOUR + MINUTE);
    const met = await store().evaluateDueChecks(H + 2 * HOUR + 10 * MINUTE, 10);
    expect(met.map((x) => [x.kind, x.state])).toEqual([['deadline_missed', 'resolved']]);
  });

  it('a check that changes kind resolves the alert of its former kind', async () => {
    const body = { name: 'c', kind: 'deadline', schedule: 'none', spec: '0 * * * *', within: '10m' } as const;
    await store().putCheck(TENANT, body, T0);
    const opened = await store().evaluateDueChecks(H + 10 * MINUTE, 10);
    expect(opened.map((x) => [x.kind, x.state])).toEqual([['deadline_missed', 'open']]);
    const { check, created } = await store().putCheck(
      TENANT,
      { name: 'c', kind: 'heartbeat', every: '5m' },
      H + HOUR,
    );
    expect(created).toBe(false);
    expect(check).toMatchObject({
      kind: 'heartbeat',
      everyMs: 5 * MINUTE,
      deadline: null,
      windowStart: null,
    });
    const open = await store().listAlerts({ tenantId: TENANT, state: 'open', limit: 10 });
    expect(open).toEqual([]);
  });
}
