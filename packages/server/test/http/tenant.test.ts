// /v1/tenant: the tenant's own name, quotas and webhook secret; rotating the secret keeps the previous one
// in use for the grace period, then only the new one.

import { afterEach, expect, it } from 'vitest';
import { json, testApp, type TestApp } from '../support/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

it("shows the key's own tenant, never another", async () => {
  t = await testApp({ quotas: { acme: { maxSchedules: 10, requestsPerSecond: 500 } } });
  const res = await t.request({ method: 'GET', url: '/v1/tenant', as: 'acme' });
  expect(res.statusCode).toBe(200);
  expect(json(res)).toEqual({
    name: 'acme',
    state: 'active',
    quotas: { maxSchedules: 10, maxRunsPerMinute: null, requestsPerSecond: 500 },
    webhookSecret: (await t.store.getTenant('acme'))?.webhookSecret,
    previousSecretExpiresAt: null,
    createdAt: '2026-01-05T09:00:00.000Z',
  });
  expect(json(res).webhookSecret).toMatch(/^whsec_/);
  expect(json(await t.request({ method: 'GET', url: '/v1/tenant', as: 'globex' })).name).toBe('globex');
});

it('rotates the webhook secret: the previous one stays in use for the grace period', async () => {
  t = await testApp({ config: { webhookSecretGraceMs: 3_600_000 } });
  const old = json(await t.request({ method: 'GET', url: '/v1/tenant', as: 'acme' })).webhookSecret as string;
  const res = await t.request({ method: 'POST', url: '/v1/tenant/webhook-secret/rotate', as: 'acme' });
  expect(res.statusCode).toBe(200);
  const rotated = json(res);
  expect(rotated.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
  expect(rotated.webhookSecret).not.toBe(old);
  expect(rotated.previousSecretExpiresAt).toBe('2026-01-05T10:00:00.000Z');
  const stored = await t.store.getTenant('acme');
  expect(stored).toMatchObject({ webhookSecret: rotated.webhookSecret, previousWebhookSecret: old });
  // The other tenant is untouched.
  expect((await t.store.getTenant('globex'))?.previousWebhookSecret).toBeNull();

  await t.clock.advance(3_600_001);
  const later = json(await t.request({ method: 'GET', url: '/v1/tenant', as: 'acme' }));
  expect(later).toMatchObject({ webhookSecret: rotated.webhookSecret, previousSecretExpiresAt: null });
});
