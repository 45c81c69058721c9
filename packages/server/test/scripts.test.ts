// Script targets and the key-value store through the assembled service (a real SQLite file, the sandbox's
// threads, the system clock; runs are awaited through scheduler events, never by sleeping): a syntax error is
// a 400 with its line and column, a script's ctx.kv writes show at GET /v1/kv/{key} for its own tenant only,
// the operator's limits and per-tenant fetch allow-list apply, fetches share the webhooks' private-address
// guard, PUNCTUAL_SCRIPTS=off disables the target, and the script settings are validated at start.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Run } from 'punctual';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { createService, type Service } from '../src/service.js';
import { issueApiKey } from '../src/tenancy/api-keys.js';

let dir: string;
const services: Service[] = [];
let receiver: Server | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-scripts-'));
});
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  receiver = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A started service on a fresh database (so its bootstrap key is the `default` tenant's). */
async function open(env: Record<string, string> = {}): Promise<Service> {
  const config = loadConfig({
    PUNCTUAL_DATABASE_PATH: join(dir, `punctual-${services.length}.db`),
    PUNCTUAL_PORT: '0',
    PUNCTUAL_SHUTDOWN_GRACE: '1s',
    PUNCTUAL_SCRIPT_POOL_SIZE: '1',
    ...env,
  });
  const service = await createService(config, { logger: pino({ level: 'silent' }), processMetrics: false });
  services.push(service);
  await service.start();
  return service;
}

/** A request as the bootstrap tenant (or with another key). */
function call(
  service: Service,
  method: 'GET' | 'PUT' | 'POST',
  url: string,
  payload?: unknown,
  key?: string,
) {
  return service.app.inject({
    method,
    url,
    payload: payload as object,
    headers: { authorization: `Bearer ${key ?? service.bootstrap!.apiKey}` },
  });
}

/** Resolves with the run when the schedule's next run ends (succeeded or dead). */
function ended(service: Service, scheduleKey: string): Promise<Run> {
  return new Promise((resolve) => {
    const offs = (['run:succeeded', 'run:dead'] as const).map((event) =>
      service.scheduler.on(event, ({ run }) => {
        if (run.scheduleKey !== scheduleKey) return;
        for (const off of offs) off();
        resolve(run);
      }),
    );
  });
}

/** Saves a script schedule far in the future and triggers it now; resolves with the ended run. */
async function runScript(service: Service, key: string, source: string, payload: unknown = null) {
  const put = await call(service, 'PUT', `/v1/schedules/${key}`, {
    spec: '0 0 1 1 *',
    target: { script: { source } },
    payload,
    policies: { retry: { maxAttempts: 1 } },
  });
  expect(put.statusCode, put.body).toBe(201);
  const done = ended(service, key);
  expect((await call(service, 'POST', `/v1/schedules/${key}/trigger`)).statusCode).toBe(201);
  return done;
}

describe('script schedules through the service', () => {
  it('refuses a syntax error with a 400 naming the line and column, saving nothing', async () => {
    const service = await open();
    expect(service.targetKinds).toContain('script');
    const res = await call(service, 'PUT', '/v1/schedules/broken', {
      spec: '@every 1h',
      target: { script: { source: 'export default (ctx) => {\n  return ctx.payload +;\n};' } },
    });
    expect(res.statusCode).toBe(400);
    const { error } = JSON.parse(res.body);
    expect(error.code).toBe('SCRIPT_SYNTAX_ERROR');
    expect(error.details).toMatchObject({ field: 'target.script.source', line: 2 });
    expect(error.details.column).toEqual(expect.any(Number));
    expect(error.message).toMatch(/line 2/);
    expect((await call(service, 'GET', '/v1/schedules/broken')).statusCode).toBe(404);
  });

  it('runs a script whose ctx.kv writes show at GET /v1/kv/{key}, for its tenant only', async () => {
    const service = await open();
    const source = `export default async (ctx) => {
      const n = ((await ctx.kv.get('orders/count')) ?? 0) + ctx.payload.add;
      await ctx.kv.set('orders/count', n);
      await ctx.kv.set('last run', { id: ctx.run.id, tenant: ctx.run.tenantId });
      return n;
    };`;
    expect((await call(service, 'PUT', '/v1/kv/orders%2Fcount', 40)).statusCode).toBe(201);
    const run = await runScript(service, 'counter', source, { add: 2 });
    expect(run.state).toBe('succeeded');
    expect(run.result).toEqual({ value: 42, logs: [] });

    const count = await call(service, 'GET', '/v1/kv/orders%2Fcount');
    expect(count.statusCode).toBe(200);
    expect(JSON.parse(count.body)).toMatchObject({ key: 'orders/count', value: 42 });
    const last = JSON.parse((await call(service, 'GET', '/v1/kv/last%20run')).body);
    expect(last.value).toEqual({ id: run.id, tenant: 'default' });

    // Another tenant sees none of it.
    await service.tenants.createTenant({
      id: 'other',
      quotas: { maxSchedules: null, maxRunsPerMinute: null, requestsPerSecond: null },
      webhookSecret: 'whsec_b3RoZXItc2VjcmV0LTAxMjM0NTY3ODk=',
      now: Date.now(),
    });
    const other = (await issueApiKey(service.tenants, 'other', { name: 't', now: Date.now() })).key;
    expect((await call(service, 'GET', '/v1/kv/orders%2Fcount', undefined, other)).statusCode).toBe(404);
    expect(JSON.parse((await call(service, 'GET', '/v1/kv', undefined, other)).body).items).toEqual([]);
  });

  it("shows a failed script's logs and stack on GET /v1/runs/{id}, on the run and its attempt", async () => {
    const service = await open();
    const source = `export default (ctx) => {
      console.log('checking order', ctx.payload.order);
      console.log('stock is', 0);
      throw new Error('out of stock');
    };`;
    const ran = await runScript(service, 'fails', source, { order: 42 });
    expect(ran.state).toBe('dead');
    const res = await call(service, 'GET', `/v1/runs/${ran.id}`);
    expect(res.statusCode).toBe(200);
    const run = JSON.parse(res.body);
    expect(run.error).toMatchObject({
      code: 'SCRIPT_FAILED',
      message: expect.stringContaining('out of stock'),
      details: { logs: ['checking order 42', 'stock is 0'], stack: expect.stringContaining('script.js:4') },
    });
    expect(run.attempts).toHaveLength(1);
    expect(run.attempts[0].error).toEqual(run.error);
    // The list shows the same error.
    const list = JSON.parse((await call(service, 'GET', '/v1/runs?scheduleKey=fails')).body);
    expect(list.items[0].error).toEqual(run.error);
  });

  it("applies the operator's limits: a timeoutMs over PUNCTUAL_SCRIPT_MAX_TIMEOUT is refused, a loop ends", async () => {
    const service = await open({
      PUNCTUAL_SCRIPT_MAX_TIMEOUT: '2s',
      PUNCTUAL_SCRIPT_DEFAULT_TIMEOUT: '200ms',
    });
    const res = await call(service, 'PUT', '/v1/schedules/slow', {
      spec: '@every 1h',
      target: { script: { source: 'export default () => 1', timeoutMs: 5000 } },
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).error).toMatchObject({
      code: 'SCHEDULE_INVALID',
      details: { field: 'target.script.timeoutMs' },
    });
    const run = await runScript(service, 'loop', 'export default () => { for (;;) {} }');
    expect(run.state).toBe('dead');
    expect(run.error?.code).toBe('SCRIPT_TIMEOUT');
  });

  it("fetches through the webhooks' private-address guard, narrowed by the tenant's allow-list", async () => {
    receiver = createServer((_req, res) => res.writeHead(200).end('{"ok":true}'));
    await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/x`;
    const source = `export default async (ctx) => (await ctx.fetch(ctx.payload.url)).status`;

    const guarded = await open();
    const refused = await runScript(guarded, 'private', source, { url });
    expect(refused.error?.code).toBe('SCRIPT_HOST_CALL_REFUSED');
    await guarded.close();

    const allowed = await open({ PUNCTUAL_ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' });
    expect((await runScript(allowed, 'reach', source, { url })).result).toEqual({ value: 200, logs: [] });
    await allowed.close();

    const listed = await open({
      PUNCTUAL_ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
      PUNCTUAL_SCRIPT_FETCH_HOSTS: '{"default": ["api.example.com"], "*": []}',
    });
    const notListed = await runScript(listed, 'unlisted', source, { url });
    expect(notListed.error).toMatchObject({ code: 'SCRIPT_HOST_CALL_REFUSED' });
    expect(notListed.error?.message).toMatch(/allow-list/);
  });

  it('shows the sandbox on /metrics', async () => {
    const service = await open();
    const text = (await service.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(/^punctual_script_threads 1$/m);
    expect(text).toMatch(/^punctual_script_threads_busy 0$/m);
    expect(text).toMatch(/^punctual_script_runs_queued 0$/m);
    expect(text).toMatch(/^punctual_script_threads_replaced_total 0$/m);
  });

  it('runs without the script target when PUNCTUAL_SCRIPTS=off, keeping /v1/kv', async () => {
    const service = await open({ PUNCTUAL_SCRIPTS: 'off' });
    expect(service.scripts).toBeNull();
    expect(service.targetKinds).not.toContain('script');
    const res = await call(service, 'PUT', '/v1/schedules/s', {
      spec: '@every 1h',
      target: { script: { source: 'export default () => 1' } },
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).error).toMatchObject({
      code: 'SCHEDULE_INVALID',
      details: { field: 'target' },
    });
    expect((await call(service, 'PUT', '/v1/kv/k', 1)).statusCode).toBe(201);
    expect((await service.app.inject({ method: 'GET', url: '/metrics' })).body).not.toContain(
      'punctual_script_',
    );
  });
});

describe('broker targets at save time', () => {
  it('refuses a misnamed connection (400 BROKER_NOT_CONFIGURED) and a kind with no connection', async () => {
    // Nothing connects at save time: the URL may point nowhere.
    const service = await open({
      PUNCTUAL_BROKERS: JSON.stringify({
        cache: { kind: 'redis', url: 'redis://127.0.0.1:1', prefix: 'p:' },
      }),
    });
    expect(service.targetKinds).toEqual(expect.arrayContaining(['redis']));
    expect(service.targetKinds).not.toContain('nats');
    const save = (key: string, target: unknown) =>
      call(service, 'PUT', `/v1/schedules/${key}`, { spec: '@every 1h', target });

    const misnamed = await save('a', { redis: { connection: 'cahce', stream: 'orders' } });
    expect(misnamed.statusCode).toBe(400);
    const { error } = JSON.parse(misnamed.body);
    expect(error).toMatchObject({
      code: 'BROKER_NOT_CONFIGURED',
      details: { field: 'target.redis.connection', connection: 'cahce' },
    });
    expect(error.message).toContain('configured: cache');

    const otherKind = await save('b', { nats: { connection: 'cache', subject: 'orders' } });
    expect(otherKind.statusCode).toBe(400);
    expect(JSON.parse(otherKind.body).error.code).toBe('SCHEDULE_INVALID');

    const badStream = await save('c', { redis: { connection: 'cache', stream: 'orders.*' } });
    expect(JSON.parse(badStream.body).error).toMatchObject({ code: 'BROKER_DESTINATION_INVALID' });

    const saved = await save('d', { redis: { connection: 'cache', stream: 'orders', maxLen: 1000 } });
    expect(saved.statusCode).toBe(201);
    expect(JSON.parse(saved.body).target).toEqual({
      redis: { connection: 'cache', stream: 'orders', maxLen: 1000 },
    });
    const listed = await call(service, 'GET', '/v1/schedules?target=redis');
    expect(JSON.parse(listed.body).items.map((x: { key: string }) => x.key)).toEqual(['d']);
  });
});

describe('script settings', () => {
  const problems = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env, () => '{}');
    } catch (e) {
      if (e instanceof ConfigError) return e.problems;
      throw e;
    }
    throw new Error('expected a ConfigError');
  };

  it('are absent when unset, and read when set', () => {
    const unset = loadConfig({});
    expect(unset.scripts).toBeUndefined();
    expect(unset.scriptPoolSize).toBeUndefined();
    expect(
      loadConfig({
        PUNCTUAL_SCRIPTS: 'on',
        PUNCTUAL_SCRIPT_POOL_SIZE: '4',
        PUNCTUAL_SCRIPT_DEFAULT_TIMEOUT: '500ms',
        PUNCTUAL_SCRIPT_MAX_TIMEOUT: '1m',
        PUNCTUAL_SCRIPT_DEFAULT_MEMORY: '8',
        PUNCTUAL_SCRIPT_MAX_MEMORY: '32',
        PUNCTUAL_SCRIPT_FETCH_HOSTS: '{"acme": ["api.acme.example", "*.acme.example"]}',
        PUNCTUAL_KV_MAX_KEYS: '50',
        PUNCTUAL_KV_MAX_VALUE: '4kb',
      }),
    ).toMatchObject({
      scripts: 'on',
      scriptPoolSize: 4,
      scriptDefaultTimeoutMs: 500,
      scriptMaxTimeoutMs: 60_000,
      scriptDefaultMemoryMb: 8,
      scriptMaxMemoryMb: 32,
      scriptFetchHosts: { acme: ['api.acme.example', '*.acme.example'] },
      kvMaxKeys: 50,
      kvMaxValueBytes: 4096,
    });
  });

  it('name the setting they refuse', () => {
    expect(problems({ PUNCTUAL_SCRIPT_POOL_SIZE: '0' })[0]).toMatch(/^PUNCTUAL_SCRIPT_POOL_SIZE must be/);
    expect(problems({ PUNCTUAL_SCRIPTS: 'maybe' })[0]).toMatch(
      /^PUNCTUAL_SCRIPTS must be one of auto, on, off/,
    );
    expect(problems({ PUNCTUAL_KV_MAX_VALUE: '1gb' })[0]).toMatch(/^PUNCTUAL_KV_MAX_VALUE must be/);
    expect(problems({ PUNCTUAL_SCRIPT_DEFAULT_TIMEOUT: '1m' })).toEqual([
      'PUNCTUAL_SCRIPT_DEFAULT_TIMEOUT (60000 ms) must not exceed PUNCTUAL_SCRIPT_MAX_TIMEOUT (30000 ms)',
    ]);
    expect(problems({ PUNCTUAL_SCRIPT_MAX_MEMORY: '8' })).toEqual([
      'PUNCTUAL_SCRIPT_DEFAULT_MEMORY (16 MiB) must not exceed PUNCTUAL_SCRIPT_MAX_MEMORY (8 MiB)',
    ]);
    expect(problems({ PUNCTUAL_SCRIPT_FETCH_HOSTS: '{"acme": "api.example.com"}' })).toEqual([
      'PUNCTUAL_SCRIPT_FETCH_HOSTS: "acme" must name a list of at most 1000 host names',
    ]);
    expect(problems({ PUNCTUAL_SCRIPT_FETCH_HOSTS: '{"acme": ["https://x"]}' })[0]).toMatch(
      /^PUNCTUAL_SCRIPT_FETCH_HOSTS: "acme": "https:\/\/x" is not a host name/,
    );
    expect(problems({ PUNCTUAL_SCRIPT_FETCH_HOSTS: '[' })[0]).toMatch(
      /^PUNCTUAL_SCRIPT_FETCH_HOSTS: not valid JSON/,
    );
  });
});
