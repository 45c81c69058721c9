// The metrics a distributed cron is watched by (issue 19.11): double fires (a second delivery of one
// occurrence detected), skipped runs by reason, delivery duration as a fraction of the timeout, and the last
// success of the schedules the operator names. Driven by a real engine on SQLite and a test clock.

import { afterEach, describe, expect, it } from 'vitest';
import { deferred, harness, type Harness } from '../../punctual/test/support/harness.js';
import { settle } from '../../punctual/test/support/test-clock.js';
import { Metrics } from '../src/metrics.js';
import { scheduleMatcher } from '../src/metric-schedule-labels.js';

let h: Harness;
let m: Metrics;
afterEach(async () => {
  m?.close();
  await h?.close();
});

async function setup(opts: Parameters<typeof harness>[0] = {}, scheduleLabels = ''): Promise<void> {
  h = await harness(opts);
  m = new Metrics({
    scheduler: h.s,
    clock: h.s.clock,
    tenantLabels: 5,
    processMetrics: false,
    scheduleLabels,
  });
}

/** The value of one sample, or undefined when the series does not exist. */
async function sample(name: string, labels: string): Promise<number | undefined> {
  await settle(5); // lookups behind some metrics are asynchronous
  const text = await m.render();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe('punctual_double_fire_total', () => {
  it('counts a settlement refused because the lease was reclaimed and the occurrence delivered again', async () => {
    await setup({ leaseMs: 3_000, reapIntervalMs: 1_000 });
    // This worker stalls: its renewals reach nothing, so its lease lapses while the handler runs.
    h.s.store.extendLeases = async (leases) => leases.map((l) => l.runId);
    const gate = deferred();
    let deliveries = 0;
    h.s.handle('slow', async () => {
      deliveries++;
      await gate.promise;
    });
    await h.s.put({ key: 'slow', spec: '@in 1s', target: { handler: 'slow' } });
    const reclaimed = h.waitFor('lease:reclaimed');
    await h.clock.advance(1_000);
    await h.clock.advance(5_000);
    await reclaimed;
    await h.clock.advance(1_000);
    expect(deliveries).toBe(2); // the same occurrence, delivered twice
    const lost = h.waitFor('lease:lost');
    gate.resolve();
    await lost;
    // Both deliveries ended together: the second settled the run, the first was refused.
    expect(await sample('punctual_double_fire_total', 'tenant="default",found="succeeded"')).toBe(1);
    const text = await m.render();
    expect(text.match(/^punctual_double_fire_total\{/gm)).toHaveLength(1);
  });

  it('does not count a run cancelled while it was delivered', async () => {
    await setup({ leaseMs: 3_000 });
    const gate = deferred();
    h.s.handle('slow', () => gate.promise);
    await h.s.put({ key: 'c', spec: '@in 1s', target: { handler: 'slow' } });
    const started = h.waitFor('run:started');
    await h.clock.advance(1_000);
    const { run } = await started;
    const lost = h.waitFor('lease:lost');
    await h.s.cancelRun(run.id);
    await h.clock.advance(2_000); // the next renewal finds the lease gone
    await lost;
    gate.resolve();
    const text = await m.render();
    expect(text).not.toMatch(/^punctual_double_fire_total\{/m);
  });
});

describe('punctual_runs_skipped_total', () => {
  it('labels skipped runs by reason', async () => {
    await setup();
    h.s.handle('tick', () => {});
    await h.s.put({ key: 'p', spec: '@every 1m', target: { handler: 'tick' } });
    await h.s.pause('p');
    await h.clock.advance(5 * 60_000 + 1_000);
    await h.s.resume('p');
    expect(h.of('run:skipped')).toHaveLength(5);
    expect(await sample('punctual_runs_skipped_total', 'reason="paused",tenant="default"')).toBe(5);
    expect(await sample('punctual_runs_skipped_total', 'reason="misfire",tenant="default"')).toBeUndefined();
  });
});

describe('punctual_delivery_timeout_ratio', () => {
  it("observes each attempt's duration as a fraction of the schedule's timeout", async () => {
    await setup();
    const gate = deferred();
    h.s.handle('quarter', () => gate.promise);
    await h.s.put({
      key: 'q',
      spec: '@in 1s',
      target: { handler: 'quarter' },
      policies: { timeoutMs: 10_000 },
    });
    const started = h.waitFor('run:started');
    await h.clock.advance(1_000);
    await started;
    await h.clock.advance(2_500);
    const done = h.waitFor('run:succeeded');
    gate.resolve();
    await done;
    expect(await sample('punctual_delivery_timeout_ratio_bucket', 'le="0.1",target="handler"')).toBe(0);
    expect(await sample('punctual_delivery_timeout_ratio_bucket', 'le="0.25",target="handler"')).toBe(1);
    expect(await sample('punctual_delivery_timeout_ratio_sum', 'target="handler"')).toBe(0.25);
  });
});

describe('punctual_schedule_last_success_timestamp_seconds', () => {
  it('is kept only for the schedules named in the setting, and removed with the schedule', async () => {
    await setup({}, 'nightly-*,other-tenant/x');
    h.s.handle('ok', () => {});
    await h.s.put({ key: 'nightly-report', spec: '@every 1m', target: { handler: 'ok' } });
    await h.s.put({ key: 'hourly', spec: '@every 1m', target: { handler: 'ok' } });
    const both = Promise.all([
      h.waitFor('run:succeeded', (e) => e.run.scheduleKey === 'nightly-report'),
      h.waitFor('run:succeeded', (e) => e.run.scheduleKey === 'hourly'),
    ]);
    await h.clock.advance(60_000);
    const [{ run }] = await both;
    const name = 'punctual_schedule_last_success_timestamp_seconds';
    expect(await sample(name, 'tenant="default",schedule="nightly-report"')).toBe(run.finishedAt! / 1000);
    expect(await sample(name, 'tenant="default",schedule="hourly"')).toBeUndefined();
    await h.s.delete('nightly-report');
    expect(await sample(name, 'tenant="default",schedule="nightly-report"')).toBeUndefined();
  });

  it('matches [tenant/]key patterns with a trailing * as a prefix', () => {
    const match = scheduleMatcher('nightly-*, acme/billing.sync,globex/*');
    expect(match('any', 'nightly-report')).toBe(true);
    expect(match('acme', 'billing.sync')).toBe(true);
    expect(match('other', 'billing.sync')).toBe(false);
    expect(match('globex', 'anything')).toBe(true);
    expect(match('any', 'hourly')).toBe(false);
    expect(scheduleMatcher('')('any', 'x')).toBe(false);
  });
});

describe('punctual_database_unavailable and punctual_database_outage_seconds', () => {
  it('shows an outage while it lasts and records its length when it ends', async () => {
    await setup();
    // Every store call fails as on a read-only server while `readOnly` is set.
    let readOnly = false;
    const store = h.s.store as unknown as Record<string, unknown>;
    for (const key of Object.getOwnPropertyNames(Object.getPrototypeOf(store))) {
      const fn = store[key];
      if (typeof fn !== 'function' || key === 'constructor' || key === 'close') continue;
      store[key] = (...args: unknown[]) =>
        readOnly
          ? Promise.reject(Object.assign(new Error('read-only'), { code: '25006' }))
          : (fn as (...a: unknown[]) => unknown).apply(store, args);
    }
    expect(await m.render()).toContain('punctual_database_unavailable 0');
    readOnly = true;
    await h.drive(h.waitFor('database:unavailable'), 500);
    const text = await m.render();
    expect(text).toContain('punctual_database_unavailable 1');
    await h.clock.advance(10_000);
    readOnly = false;
    const up = await h.drive(h.waitFor('database:available'), 500);
    expect(up.durationMs).toBeGreaterThanOrEqual(10_000);
    const after = await m.render();
    expect(after).toContain('punctual_database_unavailable 0');
    expect(after).toContain('punctual_database_outage_seconds_count{kind="readOnly"} 1');
    expect(after).toContain(`punctual_database_outage_seconds_sum{kind="readOnly"} ${up.durationMs / 1000}`);
  });
});

describe('punctual_materializer_behind', () => {
  it('is 1 while the materializer picks up schedules late, and 0 once a step ends caught up', async () => {
    await setup({ lookaheadMs: 10_000, noStart: true });
    h.s.handle('h', () => {});
    await h.s.migrate();
    const t0 = h.clock.now();
    await h.s.put({ key: 'late', spec: '@every 3600000ms', startAt: t0 + 20_000, target: { handler: 'h' } });
    // The scheduler was down while the occurrence came within the look-ahead; its step is held mid-way.
    await h.clock.set(t0 + 20_000);
    const gate = deferred();
    const reached = deferred();
    const advance = h.s.store.advanceSchedules.bind(h.s.store);
    h.s.store.advanceSchedules = async (a) => {
      reached.resolve();
      await gate.promise;
      return advance(a);
    };
    expect(await m.render()).toContain('punctual_materializer_behind 0');
    await h.s.start();
    await reached.promise;
    expect(await m.render()).toContain('punctual_materializer_behind 1');
    const caught = h.waitFor('materializer:caughtUp');
    gate.resolve();
    await caught;
    expect(await m.render()).toContain('punctual_materializer_behind 0');
  });
});
