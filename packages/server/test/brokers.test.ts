// Broker targets configured through the service's settings: PUNCTUAL_BROKERS (or `brokers` in the
// PUNCTUAL_CONFIG file) is validated at start with refusals that name the setting and never a URL's password,
// and, against the real Redis at PUNCTUAL_TEST_REDIS_URL (skipped with a message when unset, failed when
// PUNCTUAL_REQUIRE_SERVICES=1), a schedule with a redis target publishes its occurrence through the service.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Run } from 'punctual';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serviceUrl, unique } from '../../punctual/test/targets/brokers/broker-support.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { createService, type Service } from '../src/service.js';

function problems(env: Record<string, string>, file?: string): string[] {
  try {
    loadConfig(env, () => file ?? '{}');
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('broker settings', () => {
  const events = { kind: 'nats', url: 'nats://user:hunter2@nats-a:4222,nats://nats-b:4222', prefix: 'p.' };

  it('reads connections from PUNCTUAL_BROKERS, or from `brokers` in the file (the environment wins)', () => {
    expect(loadConfig({}).brokers).toBeUndefined();
    expect(loadConfig({ PUNCTUAL_BROKERS: JSON.stringify({ events }) }).brokers).toEqual({ events });
    const fromFile = loadConfig({ PUNCTUAL_CONFIG: '/etc/p.json' }, () =>
      JSON.stringify({ brokers: { events } }),
    );
    expect(fromFile.brokers).toEqual({ events });
    const cache = { kind: 'redis', url: 'redis://cache:6379' };
    const both = loadConfig(
      { PUNCTUAL_CONFIG: '/etc/p.json', PUNCTUAL_BROKERS: JSON.stringify({ cache }) },
      () => JSON.stringify({ brokers: { events } }),
    );
    expect(both.brokers).toEqual({ cache });
  });

  it('refuses a bad configuration, naming the setting and the connection, never the password', () => {
    const bad = { events: { kind: 'redis', url: 'nats://user:hunter2@nats-a:4222' } };
    const [p, ...rest] = problems({ PUNCTUAL_BROKERS: JSON.stringify(bad) });
    expect(rest).toEqual([]);
    expect(p).toBe('PUNCTUAL_BROKERS: broker connection "events": url must use redis or rediss');
    expect(p).not.toContain('hunter2');

    expect(problems({ PUNCTUAL_BROKERS: '{"cache": {"kind": "redis"' })[0]).toMatch(
      /^PUNCTUAL_BROKERS: not valid JSON/,
    );
    expect(problems({ PUNCTUAL_BROKERS: '[]' })[0]).toMatch(
      /^PUNCTUAL_BROKERS: broker connections must be an object/,
    );
    expect(problems({ PUNCTUAL_BROKERS: '{"bad name": {"kind": "redis", "url": "redis://x"}}' })[0]).toMatch(
      /^PUNCTUAL_BROKERS: broker connection "bad name": name must be/,
    );
    const inFile = problems(
      { PUNCTUAL_CONFIG: '/etc/p.json' },
      JSON.stringify({ brokers: { x: { kind: 'kafka' } } }),
    );
    expect(inFile).toEqual([
      'brokers (PUNCTUAL_BROKERS) in /etc/p.json: broker connection "x": kind must be one of redis, nats, amqp',
    ]);
  });
});

const url = serviceUrl('PUNCTUAL_TEST_REDIS_URL', 'Redis');

describe.runIf(url)('a redis target configured through the service', () => {
  let admin: ReturnType<typeof createClient>;
  let dir: string;
  let service: Service | undefined;
  const streams: string[] = [];

  beforeAll(async () => {
    admin = createClient({ url: url! });
    admin.on('error', () => {});
    await admin.connect();
    dir = mkdtempSync(join(tmpdir(), 'punctual-brokers-'));
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
  });
  afterAll(async () => {
    if (streams.length > 0) await admin.del(streams);
    await admin.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes the occurrence to the stream under the per-tenant prefix', async () => {
    const config = loadConfig({
      PUNCTUAL_DATABASE_PATH: join(dir, 'punctual.db'),
      PUNCTUAL_PORT: '0',
      PUNCTUAL_SHUTDOWN_GRACE: '1s',
      PUNCTUAL_SCRIPTS: 'off',
      PUNCTUAL_BROKERS: JSON.stringify({
        main: { kind: 'redis', url: url!, prefix: 'ptest.', perTenantPrefix: true },
      }),
    });
    service = await createService(config, { logger: pino({ level: 'silent' }), processMetrics: false });
    await service.start();
    expect(service.targetKinds).toEqual(['handler', 'webhook', 'redis']);
    const s = service;
    const call = (method: 'PUT' | 'POST', path: string, payload?: object) =>
      s.app.inject({
        method,
        url: path,
        payload,
        headers: { authorization: `Bearer ${s.bootstrap!.apiKey}` },
      });

    const name = unique('orders');
    const key = `ptest.default.${name}`;
    streams.push(key);
    const put = await call('PUT', '/v1/schedules/order-events', {
      spec: '0 0 1 1 *',
      target: { redis: { connection: 'main', stream: name } },
      payload: { order: 42 },
    });
    expect(put.statusCode, put.body).toBe(201);
    const succeeded = new Promise<Run>((resolve) => {
      const off = s.scheduler.on('run:succeeded', ({ run }) => {
        off();
        resolve(run);
      });
    });
    expect((await call('POST', '/v1/schedules/order-events/trigger')).statusCode).toBe(201);
    const run = await succeeded;

    const entries = (await admin.xRange(key, '-', '+')) ?? [];
    expect(entries).toHaveLength(1);
    const entry = entries[0]!;
    expect(run.result).toEqual({ entryId: entry.id, stream: key });
    expect(entry.message.id).toBe(run.occurrenceId);
    expect(JSON.parse(entry.message.body!)).toMatchObject({
      id: run.occurrenceId,
      scheduleKey: 'order-events',
      attempt: 1,
      payload: { order: 42 },
    });
  });
});
