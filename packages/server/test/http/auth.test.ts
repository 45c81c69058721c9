// Authentication, tenant isolation and rate limiting: every /v1 route needs a valid key; a revoked key or a
// disabled tenant stops working on the next request; a key's last use is recorded at most once a minute;
// another tenant's schedules and runs answer 404 exactly like missing ones; a tenant over its request rate
// gets 429 with Retry-After.

import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEY_TOUCH_INTERVAL_MS } from '../../src/http/auth.js';
import { generateApiKey, hashApiKey } from '../../src/tenancy/api-keys.js';
import { json, scheduleBody, testApp, type TestApp } from '../support/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const V1_ROUTES: [string, string][] = [
  ['PUT', '/v1/schedules/k'],
  ['GET', '/v1/schedules'],
  ['GET', '/v1/schedules/k'],
  ['DELETE', '/v1/schedules/k'],
  ['POST', '/v1/schedules/k/pause'],
  ['POST', '/v1/schedules/k/resume'],
  ['POST', '/v1/schedules/k/trigger'],
  ['POST', '/v1/schedules/k/backfill'],
  ['GET', '/v1/schedules/k/runs'],
  ['GET', '/v1/runs'],
  ['GET', '/v1/runs/1'],
  ['POST', '/v1/runs/1/cancel'],
  ['POST', '/v1/preview'],
  ['GET', '/v1/tenant'],
  ['POST', '/v1/tenant/webhook-secret/rotate'],
];

describe('authentication', () => {
  it.each(V1_ROUTES)('%s %s without a key is 401 UNAUTHORIZED', async (method, url) => {
    t = await testApp();
    const res = await t.request({ method: method as 'GET', url, payload: method === 'GET' ? undefined : {} });
    expect(res.statusCode).toBe(401);
    expect(json(res).error.code).toBe('UNAUTHORIZED');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="punctual"');
  });

  const garbage: [string, string][] = [
    ['an empty header', ''],
    ['only the scheme', 'Bearer'],
    ['the scheme and a space', 'Bearer '],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a key without its prefix', `Bearer ${'a'.repeat(32)}`],
    ['a short key', 'Bearer pk_abc'],
    ['a key with a symbol', `Bearer pk_${'a'.repeat(31)}!`],
    ['two keys', `Bearer pk_${'a'.repeat(32)} pk_${'b'.repeat(32)}`],
    ['a well-formed unknown key', `Bearer ${generateApiKey()}`],
    ['a 100 kB header', `Bearer pk_${'a'.repeat(100_000)}`],
    ['SQL in the header', "Bearer pk_' OR '1'='1"],
    ['non-ASCII', 'Bearer pk_ключключключключключключключключ'],
  ];
  it.each(garbage)('refuses %s with 401 and changes nothing', async (_name, header) => {
    t = await testApp();
    const before = await t.snapshot();
    const res = await t.request({
      method: 'PUT',
      url: '/v1/schedules/k',
      headers: { authorization: header },
      payload: scheduleBody(),
    });
    expect(res.statusCode).toBe(401);
    expect(json(res).error.code).toBe('UNAUTHORIZED');
    expect(await t.snapshot()).toBe(before);
  });

  it('accepts the scheme in any case and surrounding spaces', async () => {
    t = await testApp();
    for (const header of [`bearer ${t.keys.acme}`, `  Bearer   ${t.keys.acme}  `]) {
      const res = await t.request({ method: 'GET', url: '/v1/tenant', headers: { authorization: header } });
      expect(res.statusCode).toBe(200);
    }
  });

  it("a revoked key stops working at once; the tenant's other keys keep working", async () => {
    t = await testApp();
    const [key] = await t.store.listApiKeys('acme');
    const spare = 'pk_' + 'S'.repeat(32);
    await t.store.createApiKey({
      tenantId: 'acme',
      prefix: spare.slice(0, 11),
      hash: hashApiKey(spare),
      name: null,
      now: t.clock.now(),
    });
    expect((await t.request({ method: 'GET', url: '/v1/tenant', as: 'acme' })).statusCode).toBe(200);
    await t.store.revokeApiKey('acme', key!.id, t.clock.now());
    const res = await t.request({ method: 'GET', url: '/v1/tenant', as: 'acme' });
    expect(res.statusCode).toBe(401);
    expect(json(res).error.code).toBe('UNAUTHORIZED');
    const other = await t.request({
      method: 'GET',
      url: '/v1/tenant',
      headers: { authorization: `Bearer ${spare}` },
    });
    expect(other.statusCode).toBe(200);
  });

  it("a disabled tenant's keys stop working at once, and work again when it is re-enabled", async () => {
    t = await testApp();
    await t.store.updateTenant('acme', { state: 'disabled' }, t.clock.now());
    const res = await t.request({ method: 'GET', url: '/v1/schedules', as: 'acme' });
    expect(res.statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/v1/schedules', as: 'globex' })).statusCode).toBe(200);
    await t.store.updateTenant('acme', { state: 'active' }, t.clock.now());
    expect((await t.request({ method: 'GET', url: '/v1/schedules', as: 'acme' })).statusCode).toBe(200);
  });

  it('answers an unknown, a revoked and a disabled key identically; missing and malformed say what is wrong', async () => {
    t = await testApp();
    const get = (authorization?: string) =>
      t.request({
        method: 'GET',
        url: '/v1/schedules',
        headers: authorization === undefined ? {} : { authorization },
      });
    const answer = (res: Awaited<ReturnType<typeof get>>) => ({
      status: res.statusCode,
      body: res.body,
      www: res.headers['www-authenticate'],
      type: res.headers['content-type'],
    });
    const unknown = answer(await get(`Bearer ${generateApiKey()}`));
    const [acmeKey] = await t.store.listApiKeys('acme');
    await t.store.revokeApiKey('acme', acmeKey!.id, t.clock.now());
    const revoked = answer(await get(`Bearer ${t.keys.acme}`));
    await t.store.updateTenant('globex', { state: 'disabled' }, t.clock.now());
    const disabled = answer(await get(`Bearer ${t.keys.globex}`));
    expect(unknown.status).toBe(401);
    expect(JSON.parse(unknown.body)).toEqual({
      error: { code: 'UNAUTHORIZED', message: 'the API key is not valid', details: {} },
    });
    expect(revoked).toEqual(unknown);
    expect(disabled).toEqual(unknown);

    const missing = json(await get());
    expect(missing.error).toMatchObject({
      code: 'UNAUTHORIZED',
      message: expect.stringMatching(/send an API key/),
    });
    const malformed = json(await get('Bearer pk_short'));
    expect(malformed.error).toMatchObject({
      code: 'UNAUTHORIZED',
      message: expect.stringMatching(/must be "Bearer pk_"/),
    });
  });

  it("records a key's last use once a minute at most, beside the request", async () => {
    t = await testApp();
    const touch = vi.spyOn(t.store, 'touchApiKey');
    const lastUsed = async (tenant: 'acme' | 'globex') => (await t.store.listApiKeys(tenant))[0]?.lastUsedAt;
    /** Waits (a bounded number of event-loop turns, no timer) until the write lands. */
    const landed = async (expected: number): Promise<void> => {
      for (let i = 0; i < 100 && (await lastUsed('acme')) !== expected; i++) {
        await new Promise(setImmediate);
      }
      expect(await lastUsed('acme')).toBe(expected);
    };
    const get = () => t.request({ method: 'GET', url: '/v1/tenant', as: 'acme' });
    expect(await lastUsed('acme')).toBeNull();

    const first = t.clock.now();
    expect((await get()).statusCode).toBe(200);
    await landed(first);
    expect(touch).toHaveBeenCalledTimes(1);

    // Within the minute: no write at all.
    await t.clock.advance(KEY_TOUCH_INTERVAL_MS - 1);
    expect((await get()).statusCode).toBe(200);
    expect((await get()).statusCode).toBe(200);
    expect(touch).toHaveBeenCalledTimes(1);
    expect(await lastUsed('acme')).toBe(first);

    // A minute after the recorded use: written again.
    await t.clock.advance(1);
    expect((await get()).statusCode).toBe(200);
    await landed(first + KEY_TOUCH_INTERVAL_MS);
    expect(touch).toHaveBeenCalledTimes(2);

    // A refused request and another tenant's key record nothing here.
    await t.clock.advance(KEY_TOUCH_INTERVAL_MS);
    const refused = await t.request({
      method: 'GET',
      url: '/v1/tenant',
      headers: { authorization: `Bearer ${generateApiKey()}` },
    });
    expect(refused.statusCode).toBe(401);
    expect(touch).toHaveBeenCalledTimes(2);
    expect(await lastUsed('globex')).toBeNull();
  });

  it("answers the request when recording the key's last use fails, and logs a warning", async () => {
    const lines: { level: number; msg: string; tenantId?: string; err?: { message: string } }[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    t = await testApp({ logger });
    const touch = vi.spyOn(t.store, 'touchApiKey').mockRejectedValue(new Error('disk full'));
    const res = await t.request({ method: 'GET', url: '/v1/tenant', as: 'acme' });
    expect(res.statusCode).toBe(200);
    expect(touch).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 100 && lines.length === 0; i++) await new Promise(setImmediate);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: "could not record the API key's last use",
        tenantId: 'acme',
        err: expect.objectContaining({ message: 'disk full' }),
      }),
    ]);
    // The failure leaves nothing in flight: the next request tries again.
    expect((await t.request({ method: 'GET', url: '/v1/tenant', as: 'acme' })).statusCode).toBe(200);
    expect(touch).toHaveBeenCalledTimes(2);
  });

  it('operational routes need no key', async () => {
    t = await testApp();
    expect((await t.request({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/openapi.json' })).statusCode).toBe(200);
  });
});

describe('tenant isolation', () => {
  it("another tenant's schedule and runs answer 404 exactly like missing ones, and stay untouched", async () => {
    t = await testApp();
    await t.request({
      method: 'PUT',
      url: '/v1/schedules/secret',
      as: 'acme',
      payload: scheduleBody({ spec: '0 * * * *', tz: 'UTC' }),
    });
    const run = json(await t.request({ method: 'POST', url: '/v1/schedules/secret/trigger', as: 'acme' }));
    const before = await t.snapshot();

    const attempts: [string, string, unknown][] = [
      ['GET', '/v1/schedules/secret', undefined],
      ['DELETE', '/v1/schedules/secret', undefined],
      ['POST', '/v1/schedules/secret/pause', { cancelPending: true }],
      ['POST', '/v1/schedules/secret/resume', undefined],
      ['POST', '/v1/schedules/secret/trigger', undefined],
      ['POST', '/v1/schedules/secret/backfill', { from: '2026-01-05T01:00:00Z', to: '2026-01-05T03:00:00Z' }],
      ['GET', '/v1/schedules/secret/runs', undefined],
      ['GET', `/v1/runs/${run.id}`, undefined],
      ['POST', `/v1/runs/${run.id}/cancel`, undefined],
    ];
    for (const [method, url, payload] of attempts) {
      const theirs = await t.request({
        method: method as 'GET',
        url,
        as: 'globex',
        payload: payload as object,
      });
      const missingUrl = url.replace('secret', 'never-existed').replace(`/runs/${run.id}`, '/runs/999999');
      const missing = await t.request({
        method: method as 'GET',
        url: missingUrl,
        as: 'globex',
        payload: payload as object,
      });
      expect(theirs.statusCode, `${method} ${url}`).toBe(404);
      expect(missing.statusCode).toBe(404);
      // Same code, same message shape: nothing tells "exists elsewhere" from "does not exist".
      expect(json(theirs).error.code).toBe(json(missing).error.code);
      expect(json(theirs).error.message.replace(/"[^"]*"/, '"x"')).toBe(
        json(missing).error.message.replace(/"[^"]*"/, '"x"'),
      );
    }
    expect(json(await t.request({ method: 'GET', url: '/v1/schedules', as: 'globex' })).items).toEqual([]);
    expect(
      json(await t.request({ method: 'GET', url: '/v1/runs?scheduleKey=secret', as: 'globex' })).items,
    ).toEqual([]);
    expect(await t.snapshot()).toBe(before);
  });

  it('the same key in two tenants is two schedules', async () => {
    t = await testApp();
    await t.request({
      method: 'PUT',
      url: '/v1/schedules/shared',
      as: 'acme',
      payload: scheduleBody({ payload: 'a' }),
    });
    const theirs = await t.request({
      method: 'PUT',
      url: '/v1/schedules/shared',
      as: 'globex',
      payload: scheduleBody({ payload: 'g' }),
    });
    expect(theirs.statusCode).toBe(201);
    expect(json(await t.request({ method: 'GET', url: '/v1/schedules/shared', as: 'acme' })).payload).toBe(
      'a',
    );
    expect(json(await t.request({ method: 'GET', url: '/v1/schedules/shared', as: 'globex' })).payload).toBe(
      'g',
    );
  });
});

describe('rate limiting', () => {
  it("answers 429 RATE_LIMITED with Retry-After past the tenant's rate, and recovers as time passes", async () => {
    t = await testApp({ quotas: { acme: { requestsPerSecond: 2 } } });
    const get = (): ReturnType<TestApp['request']> =>
      t.request({ method: 'GET', url: '/v1/schedules', as: 'acme' });
    expect((await get()).statusCode).toBe(200);
    expect((await get()).statusCode).toBe(200);
    const limited = await get();
    expect(limited.statusCode).toBe(429);
    expect(json(limited).error).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 2 } });
    expect(limited.headers['retry-after']).toBe('1');
    // Another tenant is not affected.
    expect((await t.request({ method: 'GET', url: '/v1/schedules', as: 'globex' })).statusCode).toBe(200);
    await t.clock.advance(500);
    expect((await get()).statusCode).toBe(200);
    expect((await get()).statusCode).toBe(429);
  });

  it('uses the service default when the tenant has no rate of its own, and limits writes too', async () => {
    t = await testApp({ config: { defaultRateLimit: 1 } });
    expect(
      (await t.request({ method: 'PUT', url: '/v1/schedules/a', as: 'globex', payload: scheduleBody() }))
        .statusCode,
    ).toBe(201);
    const before = await t.snapshot();
    const res = await t.request({
      method: 'PUT',
      url: '/v1/schedules/b',
      as: 'globex',
      payload: scheduleBody(),
    });
    expect(res.statusCode).toBe(429);
    expect(json(res).error.code).toBe('RATE_LIMITED');
    expect(await t.snapshot()).toBe(before);
  });
});
