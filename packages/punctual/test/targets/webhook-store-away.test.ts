// A webhook attempt whose signing secret cannot be read because the store does not answer is handed back
// without spending an attempt (issue 21, item 6): unit-level with a refused connection, and through the
// engine with the secret read from a PostgreSQL store behind a TCP proxy that the test cuts.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Delivery } from '../../src/targets/target.js';
import { postgresStore, type PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { generateWebhookSecret, verifyWebhook } from '../../src/targets/webhook/webhook-signature.js';
import { webhookTarget } from '../../src/targets/webhook/webhook-target.js';
import { harness, type Harness } from '../support/harness.js';
import { TcpProxy } from '../support/tcp-proxy.js';

const LOOPBACK = '127.0.0.0/8';
const refused = (): Error =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

function delivery(url: string): Delivery {
  return {
    run: {
      id: 'run_1',
      tenantId: 'acme',
      occurrenceId: 'sch_1:0',
      scheduledFor: 0,
      attempt: 1,
      scheduleKey: 'k',
    },
    schedule: { id: 'sch_1', key: 'k', target: { webhook: { url } } },
    payload: null,
    signal: new AbortController().signal,
    startedAt: 0,
  } as unknown as Delivery;
}

describe('signing secret unavailable', () => {
  it('hands the run back when the store does not answer, and retries any other failure', async () => {
    const away = webhookTarget({ secrets: () => Promise.reject(refused()), allowPrivate: LOOPBACK });
    expect(await away.deliver(delivery('http://127.0.0.1:9/hook'))).toMatchObject({
      type: 'release',
      afterMs: 5000,
      error: { code: 'WEBHOOK_SECRET_UNAVAILABLE', message: expect.stringContaining('ECONNREFUSED') },
    });
    const slower = webhookTarget({
      secrets: () => Promise.reject(new Error('wrapped', { cause: refused() })),
      allowPrivate: LOOPBACK,
      secretsUnavailableDelayMs: 750,
    });
    expect(await slower.deliver(delivery('http://127.0.0.1:9/hook'))).toMatchObject({
      type: 'release',
      afterMs: 750,
    });
    const sealed = webhookTarget({
      secrets: () => Promise.reject(new Error('vault sealed')),
      allowPrivate: LOOPBACK,
    });
    expect(await sealed.deliver(delivery('http://127.0.0.1:9/hook'))).toMatchObject({
      type: 'retry',
      error: { code: 'WEBHOOK_SECRET_UNAVAILABLE' },
    });
  });
});

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';

// Without PostgreSQL the suite below is skipped, or fails here when PUNCTUAL_REQUIRE_SERVICES=1.
describe.skipIf(PG_URL !== '' || process.env.PUNCTUAL_REQUIRE_SERVICES !== '1')('PostgreSQL', () => {
  it('is required', () => {
    throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
  });
});

describe.skipIf(PG_URL === '')('through the engine, with PostgreSQL cut off', () => {
  let h: Harness | undefined;
  let proxy: TcpProxy | undefined;
  let tenants: PostgresStore | undefined;
  let server: http.Server | undefined;
  const schema = `t_${randomBytes(6).toString('hex')}`;

  afterEach(async () => {
    await h?.close();
    await tenants?.close();
    await proxy?.close();
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    const pg = (await import('pg')).default;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('keeps the attempt: the run waits for the store, then is delivered as attempt 1 of 1', async () => {
    const received: http.IncomingHttpHeaders[] = [];
    const bodies: string[] = [];
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(req.headers);
        bodies.push(Buffer.concat(chunks).toString());
        res.end();
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

    const through = await TcpProxy.forUrl(PG_URL);
    proxy = through.proxy;
    tenants = postgresStore({ connectionString: through.url, schema, listen: false });
    await tenants.migrate();
    const secret = generateWebhookSecret();
    await tenants.createTenant({
      id: 'acme',
      quotas: { maxSchedules: null, maxRunsPerMinute: null, requestsPerSecond: null },
      webhookSecret: secret,
      now: 0,
    });
    const store = tenants;
    // As the service does: the secret is read from the database for every attempt.
    const driver = webhookTarget({
      allowPrivate: LOOPBACK,
      secrets: async (tenantId) => ({ current: (await store.getTenant(tenantId))!.webhookSecret }),
    });
    h = await harness({ targets: [driver] });
    const api = h.s.tenant('acme');
    await api.put({
      key: 'sync',
      spec: '@in 1s',
      target: { webhook: { url } },
      policies: { retry: { maxAttempts: 1, backoff: 'fixed', delayMs: 1000, jitter: false } },
    });

    proxy.cut();
    const released = h.waitFor('run:released');
    await h.clock.advance(1000);
    const { run: handedBack } = await released;
    expect(handedBack.state).toBe('scheduled');
    expect(handedBack.attempt).toBe(0);
    expect(handedBack.dueAt).toBe(h.clock.now() + 5000);
    expect(received).toHaveLength(0);

    proxy.restore();
    await h.quiesce();
    const succeeded = h.waitFor('run:succeeded');
    await h.clock.advance(5000);
    const { run } = await succeeded;
    expect(run.attempt).toBe(1);
    const detail = await api.getRun(run.id);
    expect(detail!.attempts.map((a) => a.outcome)).toEqual(['released', 'succeeded']);
    expect(detail!.attempts[0]!.error).toMatchObject({ code: 'WEBHOOK_SECRET_UNAVAILABLE' });
    expect(received).toHaveLength(1);
    expect(JSON.parse(bodies[0]!)).toMatchObject({ attempt: 1 });
    expect(verifyWebhook(secret, received[0]!, bodies[0]!, { now: h.clock.now() })).toBe(true);
  });
});
