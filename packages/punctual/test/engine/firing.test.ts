// Schedules fire at their instants, in their zone, through handlers; upserts move pending runs; bounds and
// maxRuns end a schedule. All with an injected clock: months run in milliseconds.

import { afterEach, describe, expect, it } from 'vitest';
import { harness, iso, at, type Harness } from '../support/harness.js';
import { isPunctualError } from '../../src/errors.js';

let h: Harness;
afterEach(async () => h?.close());

describe('firing', () => {
  it('fires a cron schedule at its instants in its time zone', async () => {
    h = await harness();
    const seen: string[] = [];
    h.s.handle('report', (ctx) => {
      seen.push(iso(ctx.run.scheduledFor));
      return { sent: true };
    });
    await h.s.put({ key: 'daily', spec: '0 9 * * *', tz: 'Europe/Paris', target: { handler: 'report' } });
    await h.clock.advance(3 * 86_400_000);
    expect(seen).toEqual([
      '2026-01-05T08:00:00.000Z',
      '2026-01-06T08:00:00.000Z',
      '2026-01-07T08:00:00.000Z',
    ]);
    const runs = await h.s.listRuns({ scheduleKey: 'daily' });
    expect(runs.items.map((r) => r.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(runs.items[0]!.result).toEqual({ sent: true });
  });

  it('starts each run at its due instant, not later', async () => {
    h = await harness();
    const lateness: number[] = [];
    h.s.handle('noop', (ctx) => {
      lateness.push(h.clock.now() - ctx.run.scheduledFor);
    });
    await h.s.put({ key: 'every', spec: '@every 90s', target: { handler: 'noop' } });
    await h.clock.advance(10 * 60_000);
    expect(lateness.length).toBe(6);
    expect(Math.max(...lateness)).toBe(0);
  });

  it('runs a one-off delayed task once and completes the schedule', async () => {
    h = await harness();
    let calls = 0;
    h.s.handle('once', () => {
      calls++;
    });
    const { schedule } = await h.s.put({ key: 'later', spec: '@in 10m', target: { handler: 'once' } });
    expect(schedule.spec).toBe('@at 2026-01-05T00:10:00.000Z');
    await h.clock.advance(9 * 60_000);
    expect(calls).toBe(0);
    const done = h.waitFor('run:succeeded');
    await h.clock.advance(60_000);
    await done;
    expect(calls).toBe(1);
    await h.clock.advance(3_600_000);
    expect(calls).toBe(1);
    expect((await h.s.get('later'))!.state).toBe('completed');
  });

  it('an upsert moves the pending run: the old version is cancelled, the new time fires', async () => {
    h = await harness();
    const fired: string[] = [];
    h.s.handle('remind', (ctx) => {
      fired.push(iso(ctx.run.scheduledFor));
    });
    const first = await h.s.put({
      key: 'reminder',
      spec: '@at 2026-01-05T00:00:05Z',
      target: { handler: 'remind' },
    });
    expect(first.created).toBe(true);
    expect(first.schedule.version).toBe(1);
    await h.waitFor('run:scheduled');
    const cancelled = h.waitFor('run:cancelled');
    const second = await h.s.put({
      key: 'reminder',
      spec: '@at 2026-01-05T03:00:00Z',
      target: { handler: 'remind' },
    });
    expect(second.created).toBe(false);
    expect(second.schedule.version).toBe(2);
    expect((await cancelled).run.reason).toBe('updated');
    await h.clock.advance(4 * 3_600_000);
    expect(fired).toEqual(['2026-01-05T03:00:00.000Z']);
  });

  it('an identical put changes nothing and keeps the version', async () => {
    h = await harness();
    h.s.handle('noop', () => {});
    const input = { key: 'same', spec: '*/5 * * * *', target: { handler: 'noop' }, payload: { a: 1 } };
    await h.s.put(input);
    const again = await h.s.put(input);
    expect(again.changed).toBe(false);
    expect(again.schedule.version).toBe(1);
  });

  it('refuses a stale expected version', async () => {
    h = await harness();
    h.s.handle('noop', () => {});
    await h.s.put({ key: 'v', spec: '@hourly', target: { handler: 'noop' } });
    await h.s.put({ key: 'v', spec: '@daily', target: { handler: 'noop' } });
    const err = await h.s
      .put({ key: 'v', spec: '@weekly', target: { handler: 'noop' } }, { expectedVersion: 1 })
      .catch((e) => e);
    expect(isPunctualError(err, 'VERSION_CONFLICT')).toBe(true);
    expect((await h.s.get('v'))!.spec).toBe('@daily');
  });

  it('stops after maxRuns and honours startAt and endAt', async () => {
    h = await harness();
    const fired: number[] = [];
    h.s.handle('n', (ctx) => {
      fired.push(ctx.run.scheduledFor);
    });
    await h.s.put({ key: 'capped', spec: '* * * * *', maxRuns: 3, target: { handler: 'n' } });
    await h.s.put({
      key: 'bounded',
      spec: '0 * * * *',
      startAt: '2026-01-05T05:00:00Z',
      endAt: '2026-01-05T07:30:00Z',
      target: { handler: 'n' },
    });
    await h.clock.advance(86_400_000);
    const capped = await h.s.listRuns({ scheduleKey: 'capped' });
    expect(capped.items).toHaveLength(3);
    const bounded = await h.s.listRuns({ scheduleKey: 'bounded' });
    expect(bounded.items.map((r) => iso(r.scheduledFor)).sort()).toEqual([
      '2026-01-05T05:00:00.000Z',
      '2026-01-05T06:00:00.000Z',
      '2026-01-05T07:00:00.000Z',
    ]);
    expect((await h.s.get('capped'))!.state).toBe('completed');
  });

  it('applies the same deterministic jitter on every instance', async () => {
    h = await harness();
    h.s.handle('j', () => {});
    await h.s.put({ key: 'jit', spec: '0 * * * *', jitter: '10m', target: { handler: 'j' } });
    await h.clock.advance(3 * 3_600_000);
    const runs = (await h.s.listRuns({ scheduleKey: 'jit' })).items;
    const offsets = runs.map((r) => r.dueAt - r.scheduledFor);
    expect(offsets.every((o) => o >= 0 && o < 600_000)).toBe(true);
    const other = await harness();
    other.s.handle('j', () => {});
    await other.s.put({ key: 'jit', spec: '0 * * * *', jitter: '10m', target: { handler: 'j' } });
    await other.clock.advance(3 * 3_600_000);
    const again = (await other.s.listRuns({ scheduleKey: 'jit' })).items.map((r) => r.dueAt - r.scheduledFor);
    await other.close();
    expect(again).toEqual(offsets);
  });

  it('rejects unknown handlers and payloads that fail the handler schema, writing nothing', async () => {
    h = await harness();
    h.s.handle('typed', () => {}, {
      payloadSchema: (p) =>
        typeof (p as { to?: unknown })?.to === 'string' ? true : 'payload.to must be a string',
    });
    const unknown = await h.s.put({ key: 'a', spec: '@hourly', target: { handler: 'nope' } }).catch((e) => e);
    expect(isPunctualError(unknown, 'HANDLER_UNKNOWN')).toBe(true);
    const bad = await h.s
      .put({ key: 'b', spec: '@hourly', target: { handler: 'typed' }, payload: { to: 1 } })
      .catch((e) => e);
    expect(isPunctualError(bad, 'PAYLOAD_INVALID')).toBe(true);
    expect((await h.s.list()).items).toHaveLength(0);
  });

  it('a handler can put a follow-up schedule', async () => {
    h = await harness();
    h.s.handle('order-placed', async (ctx) => {
      await ctx.schedules.put({ key: `check-${ctx.run.id}`, spec: '@in 3h', target: { handler: 'check' } });
    });
    const checked = h.waitFor('run:succeeded', (e) => e.run.scheduleKey.startsWith('check-'));
    h.s.handle('check', () => 'shipped');
    await h.s.put({ key: 'order', spec: '@in 1m', target: { handler: 'order-placed' } });
    await h.clock.advance(4 * 3_600_000);
    const e = await checked;
    expect(e.run.scheduledFor).toBe(at('2026-01-05T03:01:00.000Z'));
  });

  it('a listener that throws does not break the engine', async () => {
    h = await harness();
    h.s.on('run:started', () => {
      throw new Error('listener bug');
    });
    h.s.handle('ok', () => 'fine');
    await h.s.put({ key: 'x', spec: '@in 1s', target: { handler: 'ok' } });
    await h.clock.advance(2000);
    expect(h.of('run:succeeded')).toHaveLength(1);
    expect(h.of('error').some((e) => e.where === 'listener for run:started')).toBe(true);
  });
});
