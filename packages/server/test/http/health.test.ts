// Operational routes: /healthz always answers; /readyz only once the scheduler runs and the database answers;
// /metrics exposes run outcomes, lateness, delivery durations, queue depth, schedules by state and HTTP
// requests, with bounded labels; /docs serves the interactive documentation.

import { afterEach, describe, expect, it } from 'vitest';
import { json, scheduleBody, testApp, type TestApp } from '../support/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

describe('/healthz and /readyz', () => {
  it('healthz answers 200 whatever the scheduler does', async () => {
    t = await testApp();
    const res = await t.request({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ status: 'ok' });
  });

  it('readyz is 503 NOT_READY until the scheduler runs, then 200', async () => {
    t = await testApp();
    const before = await t.request({ method: 'GET', url: '/readyz' });
    expect(before.statusCode).toBe(503);
    expect(json(before).error.code).toBe('NOT_READY');
    await t.scheduler.start();
    const after = await t.request({ method: 'GET', url: '/readyz' });
    expect(after.statusCode).toBe(200);
    expect(json(after)).toEqual({
      status: 'ready',
      checks: { scheduler: 'started', database: 'ok', migrations: 'current' },
    });
  });

  it('readyz is 503 NOT_READY while the engine lives through a database outage (e.g. read-only)', async () => {
    t = await testApp({ start: true });
    const since = Date.parse('2026-01-05T00:00:00Z');
    Object.defineProperty(t.scheduler, 'databaseOutage', {
      get: () => ({ kind: 'readOnly', since, where: 'worker' }),
      configurable: true,
    });
    const res = await t.request({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(json(res).error).toMatchObject({
      code: 'NOT_READY',
      details: { database: 'readOnly', since: '2026-01-05T00:00:00.000Z' },
    });
    delete (t.scheduler as { databaseOutage?: unknown }).databaseOutage;
    expect((await t.request({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('readyz is 503 when the database does not answer', async () => {
    t = await testApp({ start: true });
    const original = t.store.nextRunDueAt.bind(t.store);
    t.store.nextRunDueAt = async () => {
      throw new Error('disk gone');
    };
    const res = await t.request({ method: 'GET', url: '/readyz' });
    t.store.nextRunDueAt = original;
    expect(res.statusCode).toBe(503);
    expect(json(res).error).toMatchObject({ code: 'NOT_READY', details: { database: 'unreachable' } });
  });
});

const TOKEN = 'metrics-token-0123456789';

/** Two tenants' schedules, one run each, and one 404: what the /metrics tests read. */
async function twoTenantsRan(): Promise<void> {
  await t.request({ method: 'PUT', url: '/v1/schedules/k', as: 'acme', payload: scheduleBody() });
  await t.request({ method: 'PUT', url: '/v1/schedules/k', as: 'globex', payload: scheduleBody() });
  const done = new Promise<void>((resolve) => {
    let n = 0;
    t.scheduler.on('run:succeeded', () => ++n === 2 && resolve());
  });
  await t.request({ method: 'POST', url: '/v1/schedules/k/trigger', as: 'acme' });
  await t.request({ method: 'POST', url: '/v1/schedules/k/trigger', as: 'globex' });
  await done;
}

describe('/metrics', () => {
  it('without a metrics token: open, and no tenant id in any series (summed over tenants)', async () => {
    t = await testApp({ start: true, metrics: true });
    await twoTenantsRan();
    const res = await t.request({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/tenant=/);
    expect(res.body).not.toMatch(/acme|globex/);
    expect(res.body).toMatch(/punctual_runs_finished_total\{state="succeeded",target="handler"\} 2/);
    expect(res.body).toMatch(/# TYPE punctual_schedule_not_fired_total counter/);
  });

  it('with a metrics token: refused without it or with another, tenant series with it', async () => {
    t = await testApp({ start: true, metrics: true, config: { metricsToken: TOKEN } });
    await twoTenantsRan();
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', TOKEN, `Basic ${TOKEN}`]) {
      const res = await t.request({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, authorization).toBe(401);
      expect(json(res).error.code).toBe('UNAUTHORIZED');
      expect(res.body).not.toMatch(/acme/);
    }
    const res = await t.request({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(
      /punctual_runs_finished_total\{state="succeeded",target="handler",tenant="acme"\} 1/,
    );
  });

  it('exposes run, queue, schedule and HTTP metrics in Prometheus text', async () => {
    t = await testApp({ start: true, metrics: true, config: { metricsToken: TOKEN } });
    await t.request({ method: 'PUT', url: '/v1/schedules/k', as: 'acme', payload: scheduleBody() });
    await t.request({ method: 'PUT', url: '/v1/schedules/k', as: 'globex', payload: scheduleBody() });
    const done = new Promise<void>((resolve) => {
      let n = 0;
      t.scheduler.on('run:succeeded', () => ++n === 2 && resolve());
    });
    await t.request({ method: 'POST', url: '/v1/schedules/k/trigger', as: 'acme' });
    await t.request({ method: 'POST', url: '/v1/schedules/k/trigger', as: 'globex' });
    await done;
    await t.request({ method: 'GET', url: '/v1/schedules/nope', as: 'acme' });

    const res = await t.request({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    // tenantLabels is 1 in the test app: the first tenant seen keeps its id, the next is `other`.
    expect(text).toMatch(
      /punctual_runs_finished_total\{state="succeeded",target="handler",tenant="acme"\} 1/,
    );
    expect(text).toMatch(
      /punctual_runs_finished_total\{state="succeeded",target="handler",tenant="other"\} 1/,
    );
    expect(text).toMatch(/punctual_run_lateness_seconds_count\{target="handler"\} 2/);
    expect(text).toMatch(
      /punctual_delivery_duration_seconds_count\{target="handler",outcome="succeeded"\} 2/,
    );
    expect(text).toMatch(/punctual_runs_due 0/);
    expect(text).toMatch(/punctual_runs_running 0/);
    expect(text).toMatch(/punctual_schedules\{state="active"\} 2/);
    expect(text).toMatch(/punctual_schedules\{state="paused"\} 0/);
    expect(text).toMatch(/punctual_leases_reclaimed_total 0/);
    expect(text).toMatch(/# TYPE punctual_schedule_not_fired_total counter/);
    expect(text).toMatch(/# TYPE punctual_materializer_lag_seconds histogram/);
    expect(text).toMatch(
      /punctual_http_requests_total\{method="PUT",route="\/v1\/schedules\/:key",status="201"\} 2/,
    );
    expect(text).toMatch(
      /punctual_http_requests_total\{method="GET",route="\/v1\/schedules\/:key",status="404"\} 1/,
    );
    // Route templates, never raw paths: cardinality stays bounded.
    expect(text).not.toMatch(/route="\/v1\/schedules\/nope"/);
  });

  it('counts runs waiting in the queue', async () => {
    t = await testApp({ metrics: true });
    await t.request({ method: 'PUT', url: '/v1/schedules/k', as: 'acme', payload: scheduleBody() });
    await t.request({ method: 'POST', url: '/v1/schedules/k/trigger', as: 'acme' });
    await t.clock.advance(30_000);
    const text = (await t.request({ method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(/punctual_runs_due 1/);
    expect(text).toMatch(/punctual_oldest_due_run_age_seconds 30/);
  });
});

describe('/docs', () => {
  it('serves the interactive documentation', async () => {
    t = await testApp();
    const res = await t.request({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});
