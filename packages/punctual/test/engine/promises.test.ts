// The promises that bend at the edges, on one process (SQLite): a deadline holds at delivery start, a cancel
// aborts the delivery at once (not at the next lease renewal), a pause ends the runs waiting in the worker's
// buffer, and a run stuck in that buffer is reported as not fired. The clock never moves past a lease
// renewal where the promise is "at once": what happens must happen without it.

import { afterEach, describe, expect, it } from 'vitest';
import { harness, deferred, type Harness } from '../support/harness.js';
import { settle } from '../support/test-clock.js';

let h: Harness;
afterEach(async () => h?.close());

/**
 * A scheduler with two slots (so two runs wait in its buffer at least), both held by deliveries that end when
 * `release` is called.
 */
async function busySlots(opts: { notFiredGraceMs?: number } = {}): Promise<{ release: () => void }> {
  h = await harness({ concurrency: 2, ...opts });
  const gate = deferred();
  h.s.handle('block', () => gate.promise);
  await h.s.put({
    key: 'busy',
    spec: '@yearly',
    target: { handler: 'block' },
    policies: { timeoutMs: 3_600_000 },
  });
  for (let i = 0; i < 2; i++) {
    const started = h.waitFor('run:started');
    await h.s.trigger('busy');
    await started;
  }
  return { release: () => gate.resolve() };
}

describe('deadline at delivery start', () => {
  it('expires a run that waited in the buffer past its deadline instead of delivering it late', async () => {
    const busy = await busySlots();
    const delivered: string[] = [];
    h.s.handle('t', (ctx) => {
      delivered.push(ctx.run.scheduleKey);
    });
    await h.s.put({ key: 'late', spec: '@in 1s', target: { handler: 't' }, policies: { deadlineMs: 1000 } });
    await h.s.put({ key: 'free', spec: '@in 1s', target: { handler: 't' } });
    await h.clock.advance(1000); // both are claimed into the buffer (the slot is busy)
    const buffered = await h.s.listRuns({ state: 'running' });
    expect(buffered.items.map((r) => r.scheduleKey).sort()).toEqual(['busy', 'busy', 'free', 'late']);
    await h.clock.advance(2000); // 'late' is now 2 s past its instant: its deadline is over
    const expired = h.waitFor('run:expired');
    busy.release();
    const { run } = await expired;
    expect(run).toMatchObject({ scheduleKey: 'late', state: 'expired', reason: 'deadline', startedAt: null });
    await h.quiesce();
    expect(delivered).toEqual(['free']);
    const late = (await h.s.getRun(run.id))!;
    expect(late.run).toMatchObject({ state: 'expired', startedAt: null, attempt: 0 });
    expect(late.attempts).toEqual([]);
    // startedAt means the delivery start (3 s after the claim), not the claim.
    const free = (await h.s.listRuns({ scheduleKey: 'free' })).items[0]!;
    expect(free.state).toBe('succeeded');
    expect(free.startedAt).toBe(free.scheduledFor + 2000);
  });
});

describe('prompt abort', () => {
  it('a manual cancel aborts the running delivery at once, without waiting for a lease renewal', async () => {
    h = await harness();
    const aborted = deferred<string>();
    h.s.handle('long', (ctx) => {
      ctx.signal.addEventListener('abort', () => aborted.resolve(String(ctx.signal.reason)));
      return new Promise(() => {});
    });
    await h.s.put({ key: 'long', spec: '@yearly', target: { handler: 'long' } });
    const started = h.waitFor('run:started');
    const run = await h.s.trigger('long');
    await started;
    const before = h.clock.now();
    await h.s.cancelRun(run.id);
    expect(await aborted.promise).toMatch(/cancelled/);
    expect(h.clock.now()).toBe(before);
    expect(h.s.inFlight).toBe(0);
  });

  it('cancelPrevious aborts the previous delivery when the next run is claimed', async () => {
    h = await harness();
    const signals: AbortSignal[] = [];
    h.s.handle('slow', (ctx) => {
      signals.push(ctx.signal);
      return new Promise(() => {});
    });
    await h.s.put({
      key: 'slow',
      spec: '@every 1m',
      target: { handler: 'slow' },
      policies: { overlap: 'cancelPrevious', timeoutMs: 3_600_000 },
    });
    await h.clock.advance(60_000);
    expect(signals).toHaveLength(1);
    await h.clock.advance(60_000);
    await settle();
    expect(signals).toHaveLength(2);
    // The first delivery was aborted at the second claim: 60 s, less than a lease renewal (10 s) away.
    expect(signals[0]!.aborted).toBe(true);
    expect(signals[1]!.aborted).toBe(false);
    expect(h.s.inFlight).toBe(1);
  });
});

describe('pause stops now', () => {
  it('ends the occurrences waiting in the worker buffer (skipped, paused); a triggered run stays', async () => {
    const busy = await busySlots();
    const delivered: string[] = [];
    h.s.handle('t', (ctx) => {
      delivered.push(ctx.run.kind);
    });
    await h.s.put({ key: 'p', spec: '@in 1s', target: { handler: 't' } });
    await h.clock.advance(1000); // claimed into the buffer behind the busy slot
    await h.s.trigger('p'); // a run made by hand, claimed into the buffer too
    await settle();
    expect((await h.s.listRuns({ scheduleKey: 'p', state: 'running' })).items).toHaveLength(2);
    const skipped = h.waitFor('run:skipped');
    await h.s.pause('p');
    const { run } = await skipped;
    expect(run).toMatchObject({ kind: 'scheduled', state: 'skipped', reason: 'paused', startedAt: null });
    busy.release();
    await h.quiesce();
    expect(delivered).toEqual(['manual']);
  });

  it('with cancelPending, cancels the buffered runs made by hand too', async () => {
    const busy = await busySlots();
    h.s.handle('t', () => {});
    await h.s.put({ key: 'p', spec: '@yearly', target: { handler: 't' } });
    await h.s.trigger('p');
    await settle();
    const cancelled = h.waitFor('run:cancelled');
    await h.s.pause('p', { cancelPending: true });
    expect((await cancelled).run).toMatchObject({ kind: 'manual', reason: 'pausedCancel' });
    busy.release();
    await h.quiesce();
    expect(h.of('run:started').map((e) => e.run.scheduleKey)).toEqual(['busy', 'busy']);
  });
});

describe('not fired', () => {
  it('reports once a run stuck in the buffer behind a hung delivery, within a few seconds of the grace', async () => {
    await busySlots({ notFiredGraceMs: 10_000 });
    h.s.handle('t', () => {});
    await h.s.put({ key: 'stuck', spec: '@in 1s', target: { handler: 't' } });
    await h.clock.advance(1000);
    expect((await h.s.listRuns({ scheduleKey: 'stuck', state: 'running' })).items).toHaveLength(1);
    await h.clock.advance(10_000 + 5_000); // the grace, plus one check interval
    const reported = h.of('schedule:notFired').map((e) => e.run?.scheduleKey);
    expect(reported).toContain('stuck');
    await h.clock.advance(60_000);
    expect(h.of('schedule:notFired').filter((e) => e.run?.scheduleKey === 'stuck')).toHaveLength(1);
  });
});

describe('not fired: overdue schedules', () => {
  it('reports a schedule whose occurrence nothing materialised, once per occurrence', async () => {
    // No instance materialises: only a worker runs (as when every materializer is down or stuck).
    h = await harness({ roles: { materializer: false, worker: true }, notFiredGraceMs: 10_000 });
    h.s.handle('t', () => {});
    const { schedule } = await h.s.put({ key: 'every', spec: '@every 1m', target: { handler: 't' } });
    await h.clock.advance(60_000 + 10_000 + 5_000); // first occurrence, the grace, one check interval
    const reported = h.of('schedule:notFired');
    expect(reported).toEqual([
      {
        tenantId: schedule.tenantId,
        scheduleId: schedule.id,
        scheduleKey: 'every',
        scheduledFor: schedule.nextFireAt,
        run: null,
      },
    ]);
    await h.clock.advance(120_000);
    expect(h.of('schedule:notFired')).toHaveLength(1);
  });
});
