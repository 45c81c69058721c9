// The assembled service on a real SQLite file and a real socket: the first start creates `default` and one
// key (a later start does not), the key works over HTTP, readiness answers, and webhook deliveries are
// signed with the tenant's secret, with both secrets during a rotation's grace period.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { verifyWebhook } from 'punctual';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createService, type Service } from '../src/service.js';
import { API_KEY_PATTERN } from '../src/tenancy/api-keys.js';

let dir: string;
const services: Service[] = [];
let receiver: Server | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-service-'));
});
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  receiver = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function open(): Promise<Service> {
  const config = loadConfig({
    PUNCTUAL_DATABASE_PATH: join(dir, 'db', 'punctual.db'),
    PUNCTUAL_PORT: '0',
    PUNCTUAL_ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
    PUNCTUAL_SHUTDOWN_GRACE: '1s',
  });
  const service = await createService(config, { logger: pino({ level: 'silent' }), processMetrics: false });
  services.push(service);
  return service;
}

it('creates the default tenant and one key on the first start only', async () => {
  const first = await open();
  expect(first.bootstrap?.tenantId).toBe('default');
  expect(first.bootstrap?.apiKey).toMatch(API_KEY_PATTERN);
  expect(first.database).toBe(`SQLite ${join(dir, 'db', 'punctual.db')}`);
  const keys = await first.tenants.listApiKeys('default');
  expect(keys).toHaveLength(1);
  expect(keys[0]?.prefix).toBe(first.bootstrap?.apiKey.slice(0, 11));
  expect(JSON.stringify(keys)).not.toContain(first.bootstrap?.apiKey);
  const key = first.bootstrap!.apiKey;
  await first.close();

  const second = await open();
  expect(second.bootstrap).toBeNull();
  const res = await second.app.inject({
    method: 'GET',
    url: '/v1/tenant',
    headers: { authorization: `Bearer ${key}` },
  });
  expect(res.statusCode).toBe(200);
  expect(JSON.parse(res.body).name).toBe('default');
});

it('listens, answers ready, serves the API to the bootstrap key, and closes twice safely', async () => {
  const service = await open();
  const { url } = await service.start();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect((await fetch(`${url}/readyz`)).status).toBe(200);
  const auth = { authorization: `Bearer ${service.bootstrap!.apiKey}` };
  const res = await fetch(`${url}/v1/schedules`, { headers: auth });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ items: [], nextCursor: null });
  expect((await fetch(`${url}/v1/schedules`)).status).toBe(401);
  await service.close();
  await service.close();
  expect(service.scheduler.started).toBe(false);
});

it('signs webhooks with the tenant secret, and with both secrets after a rotation', async () => {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const service = await open();
  await service.start();
  const inject = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    service.app.inject({
      method,
      url,
      payload,
      headers: { authorization: `Bearer ${service.bootstrap!.apiKey}` },
    });
  const succeeded = (): Promise<void> =>
    new Promise((resolve) => {
      const off = service.scheduler.on('run:succeeded', () => {
        off();
        resolve();
      });
    });

  const put = await inject('PUT', '/v1/schedules/hook', {
    spec: '0 0 1 1 *',
    target: { webhook: { url: hook } },
    payload: { a: 1 },
  });
  expect(put.statusCode).toBe(201);
  const secret = JSON.parse((await inject('GET', '/v1/tenant')).body).webhookSecret as string;

  let done = succeeded();
  expect((await inject('POST', '/v1/schedules/hook/trigger')).statusCode).toBe(201);
  await done;
  const first = received.at(-1)!;
  expect(String(first.headers['webhook-signature']).split(' ')).toHaveLength(1);
  expect(verifyWebhook(secret, first.headers, first.body)).toBe(true);
  expect(JSON.parse(first.body)).toMatchObject({ scheduleKey: 'hook', payload: { a: 1 } });

  const rotated = JSON.parse((await inject('POST', '/v1/tenant/webhook-secret/rotate')).body) as {
    webhookSecret: string;
  };
  done = succeeded();
  await inject('POST', '/v1/schedules/hook/trigger');
  await done;
  const second = received.at(-1)!;
  expect(String(second.headers['webhook-signature']).split(' ')).toHaveLength(2);
  expect(verifyWebhook(rotated.webhookSecret, second.headers, second.body)).toBe(true);
  expect(verifyWebhook(secret, second.headers, second.body)).toBe(true);
});
