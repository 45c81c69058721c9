// Misfire (catch-up after downtime), deadlines and priority. Downtime is simulated by stopping the
// scheduler, moving the clock, and starting it again on the same store.

import { afterEach, describe, expect, it } from 'vitest';
import type { MisfirePolicy } from '../../src/domain/policies.js';
import { harness, deferred, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

const MIN = 60_000;

async function outage(misfire: MisfirePolicy, downMs: number, extra: object = {}): Promise<number[]> {
  // Starts at 00:00:30, so the stop at 00:02:30 leaves no run written ahead for 00:03.
  h = await harness({ start: '2026-01-05T00:00:30Z' });
  const fired: number[] = [];
  h.s.handle('tick', (ctx) => {
    fired.push(ctx.run.scheduledFor);
  });
  await h.s.put({
    key: 'm',
    spec: '* * * * *',
    target: { handler: 'tick' },
    policies: { misfire, ...extra },
  });
  await h.clock.advance(2 * MIN);
  expect(fired).toHaveLength(2);
  await h.s.stop();
  await h.clock.advance(downMs);
  await h.s.start();
  await h.clock.advance(1000);
  await h.quiesce();
  return fired;
}

describe('misfire after downtime', () => {
  it('runOnce: one run for the whole gap, the rest recorded as skipped (misfire)', async () => {
    const fired = await outage('runOnce', 10 * MIN);
    // 00:03 … 00:12 were missed: the latest runs, the other nine are recorded.
    expect(fired.slice(2)).toEqual([Date.parse('2026-01-05T00:12:00Z')]);
    const skipped = h.of('run:skipped');
    expect(skipped).toHaveLength(9);
    expect(skipped.every((e) => e.run.reason === 'misfire')).toBe(true);
  });

  it('runAll: every missed occurrence runs', async () => {
    const fired = await outage('runAll', 10 * MIN);
    expect(fired.slice(2)).toHaveLength(10);
    expect(new Set(fired).size).toBe(fired.length);
    expect(h.of('run:skipped')).toHaveLength(0);
  });

  it('skip: nothing missed runs, everything missed is recorded', async () => {
    const fired = await outage('skip', 10 * MIN);
    expect(fired.slice(2)).toHaveLength(0);
    expect(h.of('run:skipped')).toHaveLength(10);
  });

  it('occurrences older than the catch-up window are one skipped record', async () => {
    await outage('runAll', 3 * 60 * MIN, { catchupWindowMs: 30 * MIN });
    const outside = h.of('run:skipped').filter((e) => e.run.reason === 'outsideCatchupWindow');
    expect(outside).toHaveLength(1);
    expect(outside[0]!.run.details).toMatchObject({ from: expect.any(Number), until: expect.any(Number) });
    // Inside the window every occurrence ran.
    const ran = h.of('run:succeeded').filter((e) => e.run.scheduledFor >= h.clock.now() - 31 * MIN);
    expect(ran.length).toBeGreaterThanOrEqual(29);
  });

  it('runAll still finds every missed occurrence when endAt passed during the outage', async () => {
    h = await harness({ start: '2026-01-05T00:00:30Z' });
    const fired: number[] = [];
    h.s.handle('tick', (ctx) => {
      fired.push(ctx.run.scheduledFor);
    });
    await h.s.put({
      key: 'bounded',
      spec: '@every 1m',
      startAt: '2026-01-05T00:01:00Z',
      endAt: '2026-01-05T00:10:00Z',
      target: { handler: 'tick' },
      policies: { misfire: 'runAll' },
    });
    await h.clock.advance(2 * MIN);
    await h.s.stop();
    await h.clock.advance(30 * MIN);
    await h.s.start();
    await h.quiesce();
    expect(fired).toHaveLength(10);
    expect((await h.s.get('bounded'))!.state).toBe('completed');
  });

  it('caps a catch-up at maxCatchup runs and records the rest as one record', async () => {
    await outage('runAll', 30 * MIN, { maxCatchup: 5 });
    expect(h.of('run:skipped').filter((e) => e.run.reason === 'catchupCap')).toHaveLength(1);
  });
});

describe('deadline and priority', () => {
  it('a run not started within its deadline becomes expired', async () => {
    h = await harness();
    h.s.handle('remind', () => {});
    await h.s.put({
      key: 'r',
      spec: '@in 5s',
      target: { handler: 'remind' },
      policies: { deadlineMs: 60_000 },
    });
    await h.s.stop();
    await h.clock.advance(10 * MIN);
    await h.s.start();
    await h.clock.advance(1000);
    const expired = h.of('run:expired');
    expect(expired).toHaveLength(1);
    expect(expired[0]!.run.reason).toBe('deadline');
    expect(h.of('run:started')).toHaveLength(0);
  });

  it('among runs due at once, higher priority starts first', async () => {
    h = await harness({ concurrency: 1 });
    const order: string[] = [];
    const gate = deferred();
    h.s.handle('w', async (ctx) => {
      order.push(ctx.run.scheduleKey);
      if (ctx.run.scheduleKey === 'blocker') await gate.promise;
    });
    await h.s.put({ key: 'blocker', spec: '@at 2026-01-05T00:00:01Z', target: { handler: 'w' } });
    for (const [key, priority] of [
      ['low', -5],
      ['mid', 0],
      ['high', 10],
    ] as const) {
      await h.s.put({
        key,
        spec: '@at 2026-01-05T00:00:02Z',
        target: { handler: 'w' },
        policies: { priority },
      });
    }
    await h.clock.advance(3000);
    gate.resolve();
    await h.quiesce();
    expect(order).toEqual(['blocker', 'high', 'mid', 'low']);
  });
});
