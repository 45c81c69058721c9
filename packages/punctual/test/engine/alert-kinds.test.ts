// The alert kinds the engine judges on its own, on an in-memory SQLite store and a TestClock: a schedule's
// expectation (each occurrence must succeed within `successWithin`), its failure rate over its latest runs,
// and a recurring spec that can never fire again. Each opens one alert and resolves by its own rule. Waits on
// events, never sleeps.

import { afterEach, describe, expect, it } from 'vitest';
import type { Alert } from '../../src/domain/alert.js';
import type { AlertStore } from '../../src/store/alert-store.js';
import { harness, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

const T = '2026-01-05T00:00:00.000Z';
const MIN = 60_000;
const once = { retry: { maxAttempts: 1, backoff: 'fixed', delayMs: 100, jitter: false } } as const;

const alerts = (h: Harness): AlertStore => h.s.store as unknown as AlertStore;
const ofKind = async (h: Harness, key: string, kind: string): Promise<[string, string][]> =>
  (await alerts(h).listAlerts({ tenantId: 'default', scheduleKey: key, limit: 50 }))
    .filter((a) => a.kind === kind)
    .map((a) => [a.kind, a.state]);

/** Every alert:opened / alert:resolved the scheduler announces, in order. */
function transitions(h: Harness): { event: string; alert: Alert }[] {
  const out: { event: string; alert: Alert }[] = [];
  h.s.on('alert:opened', ({ alert }) => out.push({ event: 'opened', alert }));
  h.s.on('alert:resolved', ({ alert }) => out.push({ event: 'resolved', alert }));
  return out;
}

describe('expectations: each occurrence must succeed within successWithin', () => {
  it('a late occurrence opens one expectation_breached alert; an occurrence met in time resolves it', async () => {
    h = await harness({ start: T });
    const seen = transitions(h);
    let mode: 'slow' | 'fail' | 'ok' = 'ok';
    h.s.handle('job', async () => {
      if (mode === 'fail') throw new Error('down');
      return 'ok';
    });
    await h.s.put({
      key: 'job',
      spec: '@every 1m',
      target: { handler: 'job' },
      policies: once,
      expect: { successWithin: '30s' },
    });
    expect((await h.s.get('job'))?.expect).toEqual({ successWithinMs: 30_000 });
    // Occurrences that succeed in time: nothing opens.
    await h.drive(h.waitFor('run:succeeded'), 1000);
    await h.clock.advance(2 * MIN);
    expect(await ofKind(h, 'job', 'expectation_breached')).toEqual([]);
    // They fail: the first window that closes unmet opens the alert, once, however many follow.
    mode = 'fail';
    const opened = h.waitFor('alert:opened', (e) => e.alert.kind === 'expectation_breached');
    const { alert } = await h.drive(opened, 1000);
    expect(alert).toMatchObject({ subjectKind: 'schedule', subject: 'job', state: 'open' });
    const d = alert.details as { scheduledFor: string; expectedBy: string; state: string };
    expect(Date.parse(d.expectedBy) - Date.parse(d.scheduledFor)).toBe(30_000);
    expect(d.state).toBe('dead');
    expect(alert.openedAt).toBeGreaterThanOrEqual(Date.parse(d.expectedBy));
    await h.clock.advance(5 * MIN);
    expect(await ofKind(h, 'job', 'expectation_breached')).toEqual([['expectation_breached', 'open']]);
    // Recovered: the next occurrence that succeeds within its window resolves it when the window closes.
    mode = 'ok';
    const resolved = h.waitFor('alert:resolved', (e) => e.alert.kind === 'expectation_breached');
    const r = await h.drive(resolved, 1000);
    expect(r.alert.id).toBe(alert.id);
    expect(await ofKind(h, 'job', 'expectation_breached')).toEqual([['expectation_breached', 'resolved']]);
    expect(seen.filter((s) => s.alert.kind === 'expectation_breached').map((s) => s.event)).toEqual([
      'opened',
      'resolved',
    ]);
  });

  it('a schedule without expect writes no expectation: nothing is ever judged', async () => {
    h = await harness({ start: T });
    h.s.handle('job', () => {
      throw new Error('down');
    });
    await h.s.put({ key: 'job', spec: '@every 1m', target: { handler: 'job' }, policies: once });
    await h.drive(h.waitFor('run:dead'), 1000);
    await h.clock.advance(5 * MIN);
    expect(await alerts(h).nextExpectationAt()).toBeNull();
    expect(await ofKind(h, 'job', 'expectation_breached')).toEqual([]);
  });

  it('a bad successWithin is refused with EXPECT_INVALID and nothing is saved', async () => {
    h = await harness({ start: T });
    h.s.handle('job', () => 'ok');
    for (const successWithin of ['0s', '-1m', 'soon', '32d', 500]) {
      await expect(
        h.s.put({
          key: 'job',
          spec: '@every 1m',
          target: { handler: 'job' },
          expect: { successWithin },
        }),
      ).rejects.toMatchObject({ code: 'EXPECT_INVALID', details: { field: 'expect.successWithin' } });
    }
    await expect(
      h.s.put({
        key: 'job',
        spec: '@every 1m',
        target: { handler: 'job' },
        expect: { within: '1m' } as never,
      }),
    ).rejects.toMatchObject({ code: 'EXPECT_INVALID', details: { field: 'expect.within' } });
    expect(await h.s.get('job')).toBeUndefined();
  });
});

describe('failure_rate: the share of dead runs among the latest executed ones', () => {
  it('opens at the threshold, once, and resolves when the rate drops below it', async () => {
    h = await harness({ start: T, alerts: { failureRate: { window: 4, minRuns: 4, threshold: 0.5 } } });
    let results: boolean[] = [];
    h.s.handle('job', () => {
      const ok = results.shift() ?? true;
      if (!ok) throw new Error('down');
      return 'ok';
    });
    // ok, ok, dead: 1 of 3 — too few runs to judge; then dead: 2 of 4 = 50% opens it.
    results = [true, true, false, false, true, false, true, true, true];
    await h.s.put({ key: 'job', spec: '@every 1m', target: { handler: 'job' }, policies: once });
    const opened = h.waitFor('alert:opened', (e) => e.alert.kind === 'failure_rate');
    const { alert } = await h.drive(opened, 1000);
    expect(h.of('run:succeeded').length + h.of('run:dead').length).toBe(4);
    expect(alert.details).toMatchObject({ dead: 2, runs: 4, rate: 0.5 });
    // ok (2 of 4), dead (2 of 4) keep it open; ok, ok: 1 of 4 resolves it.
    const resolved = h.waitFor('alert:resolved', (e) => e.alert.kind === 'failure_rate');
    await h.drive(resolved, 1000);
    expect(h.of('run:succeeded').length + h.of('run:dead').length).toBe(8);
    expect(await ofKind(h, 'job', 'failure_rate')).toEqual([['failure_rate', 'resolved']]);
  });

  it('is off unless the engine asks for it', async () => {
    h = await harness({ start: T });
    h.s.handle('job', () => {
      throw new Error('down');
    });
    await h.s.put({ key: 'job', spec: '@every 1m', target: { handler: 'job' }, policies: once });
    for (let i = 0; i < 12; i++) await h.drive(h.waitFor('run:dead'), 1000);
    await h.clock.advance(MIN);
    expect(await ofKind(h, 'job', 'failure_rate')).toEqual([]);
  });
});

describe('spec_exhausted: a recurring schedule that can never fire again', () => {
  it('opens when the materializer finds no next instant, and a new version resolves it', async () => {
    h = await harness({ start: T });
    h.s.handle('job', () => 'ok');
    const t0 = h.clock.now();
    await h.s.put({
      key: 'job',
      spec: 'FREQ=MINUTELY;COUNT=2',
      target: { handler: 'job' },
      startAt: t0 + MIN,
    });
    const opened = h.waitFor('alert:opened', (e) => e.alert.kind === 'spec_exhausted');
    const { alert } = await h.drive(opened, 1000);
    expect(alert.subject).toBe('job');
    expect((alert.details as { spec: string }).spec).toContain('FREQ=MINUTELY;COUNT=2');
    expect((await h.s.get('job'))?.state).toBe('completed');
    // Later steps open nothing more.
    await h.clock.advance(5 * MIN);
    expect(await ofKind(h, 'job', 'spec_exhausted')).toEqual([['spec_exhausted', 'open']]);
    // A new version of the schedule: resolved (the materializer judges the new spec afresh).
    const resolved = h.waitFor('alert:resolved', (e) => e.alert.kind === 'spec_exhausted');
    await h.s.put({ key: 'job', spec: '@every 1m', target: { handler: 'job' } });
    await h.drive(resolved, 100);
    expect(await ofKind(h, 'job', 'spec_exhausted')).toEqual([['spec_exhausted', 'resolved']]);
  });

  it('a one-off that ran, a reached maxRuns and a passed endAt: only the last is an exhausted spec', async () => {
    h = await harness({ start: T });
    h.s.handle('job', () => 'ok');
    const t0 = h.clock.now();
    await h.s.put({ key: 'once', spec: '@in 1m', target: { handler: 'job' } });
    await h.s.put({ key: 'capped', spec: '@every 1m', target: { handler: 'job' }, maxRuns: 2 });
    await h.s.put({ key: 'ended', spec: '@every 1m', target: { handler: 'job' }, endAt: t0 + 150_000 });
    const opened = h.waitFor('alert:opened', (e) => e.alert.kind === 'spec_exhausted');
    const { alert } = await h.drive(opened, 1000);
    expect(alert.subject).toBe('ended');
    await h.clock.advance(5 * MIN);
    for (const key of ['once', 'capped']) {
      expect((await h.s.get(key))?.state).toBe('completed');
      expect(await ofKind(h, key, 'spec_exhausted')).toEqual([]);
    }
  });
});
