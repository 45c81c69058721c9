// GET /v1/metrics: the Health page's metrics as JSON, behind the tenant API key, summed over tenants so that
// no tenant's name appears, and limited to the metrics the dashboard reads.

import { afterEach, describe, expect, it } from 'vitest';
import { json, scheduleBody, testApp, type TestApp } from '../support/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

describe('GET /v1/metrics', () => {
  it('answers 401 without an API key', async () => {
    t = await testApp({ metrics: true });
    const res = await t.request({ method: 'GET', url: '/v1/metrics' });
    expect(res.statusCode).toBe(401);
    expect(json(res).error.code).toBe('UNAUTHORIZED');
  });

  it('sums the runs of every tenant and names none of them', async () => {
    t = await testApp({ start: true, metrics: true });
    await t.request({ method: 'PUT', url: '/v1/schedules/k', as: 'acme', payload: scheduleBody() });
    await t.request({ method: 'PUT', url: '/v1/schedules/k', as: 'globex', payload: scheduleBody() });
    const done = new Promise<void>((resolve) => {
      let n = 0;
      t.scheduler.on('run:succeeded', () => ++n === 2 && resolve());
    });
    await t.request({ method: 'POST', url: '/v1/schedules/k/trigger', as: 'acme' });
    await t.request({ method: 'POST', url: '/v1/schedules/k/trigger', as: 'globex' });
    await done;

    const res = await t.request({ method: 'GET', url: '/v1/metrics', as: 'acme' });
    expect(res.statusCode).toBe(200);
    const body = json<{ at: string; samples: Sample[] }>(res);
    expect(body.at).toBe(new Date(t.clock.now()).toISOString());
    expect(res.body).not.toMatch(/acme|globex|"other"/);
    const find = (name: string, labels: Record<string, string> = {}): number | undefined =>
      body.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
        ?.value;
    // One series per state and target: the two tenants' runs are summed.
    expect(find('punctual_runs_finished_total', { state: 'succeeded', target: 'handler' })).toBe(2);
    expect(body.samples.filter((s) => s.name === 'punctual_runs_finished_total')).toHaveLength(1);
    expect(find('punctual_run_lateness_seconds_count', { target: 'handler' })).toBe(2);
    expect(find('punctual_run_lateness_seconds_bucket', { target: 'handler', le: '+Inf' })).toBe(2);
    expect(find('punctual_runs_due')).toBe(0);
    expect(find('punctual_schedules', { state: 'active' })).toBe(2);
    // Only what the dashboard reads: no HTTP or materializer metrics.
    expect(body.samples.some((s) => s.name.startsWith('punctual_http_'))).toBe(false);
    expect(body.samples.some((s) => s.name.startsWith('punctual_materializer_'))).toBe(false);
  });

  it('is absent when the service keeps no metrics', async () => {
    t = await testApp();
    const res = await t.request({ method: 'GET', url: '/v1/metrics', as: 'acme' });
    expect(res.statusCode).toBe(404);
  });
});
