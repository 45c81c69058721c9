// Pause (keeping or cancelling pending runs), resume, trigger now, backfill, delete, and check-again.

import { afterEach, describe, expect, it } from 'vitest';
import { checkAgain } from '../../src/targets/outcomes.js';
import { harness, iso, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

const HOUR = 3_600_000;

describe('pause, resume, trigger, backfill, delete', () => {
  it('pause stops the occurrences already written too (skipped, paused); resume records the gap', async () => {
    h = await harness({ start: '2026-01-05T00:00:30Z' });
    const fired: string[] = [];
    h.s.handle('t', (ctx) => {
      fired.push(iso(ctx.run.scheduledFor));
    });
    await h.s.put({ key: 'p', spec: '0 * * * *', target: { handler: 't' } });
    await h.clock.advance(HOUR - 35_000); // 00:59:55: the 01:00 run is written (look-ahead)
    const paused = await h.s.pause('p', { note: 'maintenance' });
    expect(paused.state).toBe('paused');
    expect(paused.note).toBe('maintenance');
    await h.clock.advance(3 * HOUR);
    expect(fired).toEqual([]); // the 01:00 run was written before the pause, and still did not run
    await h.s.resume('p');
    const skipped = h.of('run:skipped');
    expect(skipped.map((e) => [iso(e.run.scheduledFor), e.run.reason])).toEqual([
      ['2026-01-05T01:00:00.000Z', 'paused'],
      ['2026-01-05T02:00:00.000Z', 'paused'],
      ['2026-01-05T03:00:00.000Z', 'paused'],
    ]);
    await h.clock.advance(HOUR);
    expect(fired.at(-1)).toBe('2026-01-05T04:00:00.000Z');
  });

  it('pause with cancelPending cancels the pending runs', async () => {
    h = await harness();
    h.s.handle('t', () => {});
    await h.s.put({ key: 'p', spec: '@in 5s', target: { handler: 't' } });
    await h.waitFor('run:scheduled');
    await h.s.pause('p', { cancelPending: true });
    expect(h.of('run:cancelled').map((e) => e.run.reason)).toEqual(['pausedCancel']);
    await h.clock.advance(60_000);
    expect(h.of('run:started')).toHaveLength(0);
  });

  it('trigger runs now, marked manual, with an overriding payload', async () => {
    h = await harness();
    const payloads: unknown[] = [];
    h.s.handle('t', (ctx) => {
      payloads.push(ctx.payload);
    });
    await h.s.put({ key: 'tr', spec: '@yearly', target: { handler: 't' }, payload: { from: 'schedule' } });
    const run = await h.s.trigger('tr', { payload: { from: 'trigger' } });
    expect(run.kind).toBe('manual');
    await h.clock.advance(10);
    expect(payloads).toEqual([{ from: 'trigger' }]);
    const again = await h.s.trigger('tr');
    expect(again.occurrenceId).not.toBe(run.occurrenceId);
    await h.clock.advance(10);
    expect(payloads).toEqual([{ from: 'trigger' }, { from: 'schedule' }]);
  });

  it('backfill runs each occurrence in a past range once, however often it is asked', async () => {
    h = await harness({ start: '2026-01-10T00:00:00Z' });
    const fired: string[] = [];
    h.s.handle('t', (ctx) => {
      fired.push(iso(ctx.run.scheduledFor));
    });
    await h.s.put({ key: 'bf', spec: '0 12 * * *', target: { handler: 't' } });
    const runs = await h.s.backfill('bf', { from: '2026-01-07T00:00:00Z', to: '2026-01-10T00:00:00Z' });
    expect(runs.map((r) => r.kind)).toEqual(['backfill', 'backfill', 'backfill']);
    expect(
      await h.s.backfill('bf', { from: '2026-01-07T00:00:00Z', to: '2026-01-10T00:00:00Z' }),
    ).toHaveLength(0);
    await h.clock.advance(1000);
    expect(fired.sort()).toEqual([
      '2026-01-07T12:00:00.000Z',
      '2026-01-08T12:00:00.000Z',
      '2026-01-09T12:00:00.000Z',
    ]);
  });

  it('backfill runs occurrences that were recorded as skipped, with the same occurrence id', async () => {
    h = await harness({ start: '2026-01-05T00:00:30Z' });
    const fired: string[] = [];
    h.s.handle('t', (ctx) => {
      fired.push(ctx.run.occurrenceId);
    });
    await h.s.put({ key: 'm', spec: '* * * * *', target: { handler: 't' }, policies: { misfire: 'skip' } });
    await h.s.stop();
    await h.clock.advance(5 * 60_000);
    await h.s.start();
    await h.quiesce();
    const skipped = h.of('run:skipped').map((e) => e.run);
    expect(skipped).toHaveLength(5);
    const runs = await h.s.backfill('m', {
      from: skipped[0]!.scheduledFor,
      to: skipped[4]!.scheduledFor + 1,
    });
    expect(runs).toHaveLength(5);
    await h.quiesce();
    expect(fired.sort()).toEqual(skipped.map((r) => r.occurrenceId).sort());
  });

  it('putMany saves all schedules in one step, or none when one is invalid', async () => {
    h = await harness();
    h.s.handle('t', () => {});
    const saved = await h.s.putMany([
      { key: 'a', spec: '@hourly', target: { handler: 't' } },
      { key: 'b', spec: '@daily', target: { handler: 't' } },
    ]);
    expect(saved.map((r) => r.created)).toEqual([true, true]);
    const err = await h.s
      .putMany([
        { key: 'c', spec: '@hourly', target: { handler: 't' } },
        { key: 'd', spec: '61 * * * *', target: { handler: 't' } },
      ])
      .catch((e) => e);
    expect(err.code).toBe('SPEC_INVALID');
    expect(err.details.index).toBe(1);
    expect((await h.s.list()).items.map((s) => s.key)).toEqual(['a', 'b']);
  });

  it('delete cancels pending runs and keeps history', async () => {
    h = await harness();
    h.s.handle('t', () => {});
    await h.s.put({ key: 'd', spec: '@every 1m', target: { handler: 't' } });
    await h.clock.advance(55_000);
    expect(await h.s.delete('d')).toBe(true);
    expect(h.of('run:cancelled').map((e) => e.run.reason)).toEqual(['deleted']);
    expect(await h.s.get('d')).toBeUndefined();
    expect((await h.s.listRuns({ scheduleKey: 'd' })).items.length).toBeGreaterThan(0);
    expect(await h.s.delete('d')).toBe(false);
  });
});

describe('check again', () => {
  it('checks again until the condition holds, counting checks on the run', async () => {
    h = await harness();
    let shipped = false;
    h.s.handle('shipped?', (ctx) => {
      if (shipped) return { shipped: true, checks: ctx.run.checks };
      return checkAgain(h.clock.now() + (ctx.run.checks === 0 ? 3 * HOUR : 24 * HOUR));
    });
    await h.s.put({ key: 'order-1', spec: '@in 3h', target: { handler: 'shipped?' } });
    await h.clock.advance(3 * HOUR);
    expect(h.of('run:checkAgain')).toHaveLength(1);
    await h.clock.advance(3 * HOUR);
    expect(h.of('run:checkAgain')).toHaveLength(2);
    shipped = true;
    await h.clock.advance(24 * HOUR);
    const done = h.of('run:succeeded');
    expect(done).toHaveLength(1);
    expect(done[0]!.run.checks).toBe(2);
    expect(done[0]!.run.result).toEqual({ shipped: true, checks: 2 });
  });

  it('stops at maxChecks and at the horizon with CHECK_LIMIT_REACHED', async () => {
    h = await harness();
    h.s.handle('never', () => checkAgain(h.clock.now() + HOUR));
    h.s.handle('far', () => checkAgain(h.clock.now() + 100 * 24 * HOUR));
    await h.s.put({ key: 'n', spec: '@in 1s', target: { handler: 'never' }, policies: { maxChecks: 2 } });
    await h.s.put({
      key: 'f',
      spec: '@in 1s',
      target: { handler: 'far' },
      policies: { checkHorizonMs: 7 * 24 * HOUR },
    });
    await h.clock.advance(5 * HOUR);
    const dead = h.of('run:dead');
    expect(dead.map((e) => [e.run.scheduleKey, e.run.error?.code]).sort()).toEqual([
      ['f', 'CHECK_LIMIT_REACHED'],
      ['n', 'CHECK_LIMIT_REACHED'],
    ]);
    expect(dead.find((e) => e.run.scheduleKey === 'n')!.run.checks).toBe(2);
  });

  it('refuses a check asked for an instant in the past (CHECK_AGAIN_IN_PAST) instead of looping', async () => {
    h = await harness();
    let calls = 0;
    h.s.handle('past', () => {
      calls++;
      return checkAgain(h.clock.now() - HOUR);
    });
    await h.s.put({ key: 'p', spec: '@in 1s', target: { handler: 'past' }, policies: { maxChecks: 5 } });
    await h.clock.advance(2000);
    await h.quiesce();
    expect(calls).toBe(1);
    expect(h.of('run:checkAgain')).toHaveLength(0);
    const dead = h.of('run:dead');
    expect(dead.map((e) => e.run.error?.code)).toEqual(['CHECK_AGAIN_IN_PAST']);
    expect(dead[0]!.run.checks).toBe(0);
  });
});
