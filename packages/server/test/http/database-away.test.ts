// API calls while the database does not answer get 503 NOT_READY with Retry-After, never 500 (issue 21,
// item 5): the app on a PostgreSQL store behind a TCP proxy that the test cuts, then restores.

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScheduler, ok, postgresStore, type PostgresStore, type Scheduler } from 'punctual';
import { TestClock } from '../../../punctual/test/support/test-clock.js';
import { TcpProxy } from '../../../punctual/test/support/tcp-proxy.js';
import { buildApp, type App } from '../../src/http/app.js';
import { issueApiKey } from '../../src/tenancy/api-keys.js';
import { ContractRecorder } from '../support/contract.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';

// Without PostgreSQL the suite below is skipped, or fails here when PUNCTUAL_REQUIRE_SERVICES=1.
describe.skipIf(PG_URL !== '' || process.env.PUNCTUAL_REQUIRE_SERVICES !== '1')('PostgreSQL', () => {
  it('is required', () => {
    throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
  });
});

describe.skipIf(PG_URL === '')('the database does not answer', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let proxy: TcpProxy;
  let store: PostgresStore;
  let scheduler: Scheduler;
  let app: App;
  let key: string;
  const contract = new ContractRecorder();

  beforeAll(async () => {
    const through = await TcpProxy.forUrl(PG_URL);
    proxy = through.proxy;
    store = postgresStore({ connectionString: through.url, schema, listen: false });
    const clock = new TestClock('2026-01-05T09:00:00.000Z');
    scheduler = createScheduler({ store, clock });
    scheduler.handle('noop', async () => ok());
    await scheduler.migrate();
    await store.createTenant({
      id: 'acme',
      quotas: { maxSchedules: null, maxRunsPerMinute: null, requestsPerSecond: null },
      webhookSecret: `whsec_${Buffer.from('acme-secret-0123456789').toString('base64')}`,
      now: clock.now(),
    });
    key = (await issueApiKey(store, 'acme', { name: 'test', now: clock.now() })).key;
    app = buildApp({
      scheduler,
      tenants: store,
      clock,
      config: { bodyLimit: 1024 * 1024, defaultRateLimit: 10_000, webhookSecretGraceMs: 0, publicUrl: null },
    });
    contract.install(app);
    await app.ready();
  });

  afterAll(async () => {
    // The 503 answers match the document too (support/contract.ts).
    const served = await app.inject({ method: 'GET', url: '/openapi.json' });
    const broken = contract.violations(JSON.parse(served.body));
    await app?.close();
    await scheduler?.close();
    await proxy?.close();
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
    expect(broken).toEqual([]);
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });
  const body = { spec: '0 9 * * *', tz: 'UTC', target: { handler: 'noop' } };

  it('answers 503 NOT_READY with Retry-After on every kind of call, then serves again', async () => {
    expect((await call('GET', '/v1/schedules')).statusCode).toBe(200);
    proxy.cut();
    const calls = [
      await call('GET', '/v1/schedules'),
      await call('PUT', '/v1/schedules/nightly', body),
      await call('GET', '/v1/schedules/nightly'),
      await call('GET', '/v1/runs'),
      await call('DELETE', '/v1/schedules/nightly'),
      await call('GET', '/v1/tenant'),
      await call('POST', '/v1/tenant/webhook-secret/rotate'),
    ];
    for (const res of calls) {
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({
        error: { code: 'NOT_READY', message: expect.any(String), details: { database: 'unreachable' } },
      });
    }
    proxy.restore();
    expect((await call('PUT', '/v1/schedules/nightly', body)).statusCode).toBe(201);
    expect((await call('GET', '/v1/schedules/nightly')).statusCode).toBe(200);
  });
});
