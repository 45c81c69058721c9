// The alerting routes through app.inject on a real SQLite store: channels (201 then 200, list, 404, delete),
// a channel URL on a private address literal refused with TARGET_ADDRESS_REFUSED and field url, bad bodies
// refused with their codes and nothing written; checks and heartbeats (a heartbeat for no check is
// CHECK_NOT_FOUND); alerts listed with filters and read with their deliveries; tenant isolation.

import { afterEach, describe, expect, it } from 'vitest';
import type { AlertStore } from 'punctual';
import { json, START, testApp, type TenantName, type TestApp } from '../support/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const send = (
  method: 'PUT' | 'POST' | 'GET' | 'DELETE',
  url: string,
  body?: unknown,
  as: TenantName = 'acme',
) =>
  t.request({
    method,
    url,
    as,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }),
  });

describe('alert channels', () => {
  it('creates, replaces, lists, reads and deletes a channel', async () => {
    t = await testApp();
    const created = await send('PUT', '/v1/alert-channels/ops', {
      kind: 'webhook',
      url: 'https://hooks.example.com/a',
    });
    expect(created.statusCode).toBe(201);
    expect(json(created)).toEqual({
      name: 'ops',
      kind: 'webhook',
      url: 'https://hooks.example.com/a',
      routingKey: null,
      createdAt: START,
      updatedAt: START,
    });
    const replaced = await send('PUT', '/v1/alert-channels/ops', {
      kind: 'pagerduty',
      url: 'https://events.example.com/v2/enqueue',
      routingKey: 'R0UT1NG',
    });
    expect(replaced.statusCode).toBe(200);
    expect(json(replaced).routingKey).toBe('R0UT1NG');
    expect(json(await send('GET', '/v1/alert-channels')).items.map((c: { name: string }) => c.name)).toEqual([
      'ops',
    ]);
    expect((await send('GET', '/v1/alert-channels', undefined, 'globex')).json()).toEqual({ items: [] });
    expect((await send('GET', '/v1/alert-channels/ops', undefined, 'globex')).statusCode).toBe(404);
    expect((await send('DELETE', '/v1/alert-channels/ops')).statusCode).toBe(204);
    const gone = await send('GET', '/v1/alert-channels/ops');
    expect(gone.statusCode).toBe(404);
    expect(json(gone).error).toMatchObject({ code: 'ALERT_CHANNEL_NOT_FOUND', details: { name: 'ops' } });
  });

  it('refuses private addresses, bad bodies and bad names, writing nothing', async () => {
    t = await testApp();
    const refused = await send('PUT', '/v1/alert-channels/ops', {
      kind: 'webhook',
      url: 'http://127.0.0.1:9/x',
    });
    expect(refused.statusCode).toBe(400);
    expect(json(refused).error).toMatchObject({ code: 'TARGET_ADDRESS_REFUSED', details: { field: 'url' } });
    const noKey = await send('PUT', '/v1/alert-channels/ops', {
      kind: 'pagerduty',
      url: 'https://e.example.com',
    });
    expect(json(noKey).error).toMatchObject({
      code: 'ALERT_CHANNEL_INVALID',
      details: { field: 'routingKey' },
    });
    const badUrl = await send('PUT', '/v1/alert-channels/ops', { kind: 'slack', url: 'not a url' });
    expect(json(badUrl).error).toMatchObject({ code: 'ALERT_CHANNEL_INVALID', details: { field: 'url' } });
    const badName = await send('PUT', '/v1/alert-channels/-x', {
      kind: 'slack',
      url: 'https://e.example.com',
    });
    expect(json(badName).error).toMatchObject({ code: 'ALERT_CHANNEL_INVALID', details: { field: 'name' } });
    expect(json(await send('GET', '/v1/alert-channels')).items).toEqual([]);
  });
});

describe('checks and heartbeats', () => {
  it('creates a heartbeat check, records heartbeats, and refuses unknown checks and bad bodies', async () => {
    t = await testApp();
    const created = await send('PUT', '/v1/checks/backup', { kind: 'heartbeat', every: '10m' });
    expect(created.statusCode).toBe(201);
    expect(json(created)).toMatchObject({
      name: 'backup',
      everyMs: 600_000,
      lastBeatAt: null,
      nextCheckAt: '2026-01-05T09:10:00.000Z',
    });
    await t.clock.advance(60_000);
    const beat = await send('POST', '/v1/heartbeats/backup');
    expect(beat.statusCode).toBe(200);
    expect(json(beat)).toMatchObject({
      lastBeatAt: '2026-01-05T09:01:00.000Z',
      nextCheckAt: '2026-01-05T09:11:00.000Z',
    });
    const unknown = await send('POST', '/v1/heartbeats/nope');
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown).error).toMatchObject({ code: 'CHECK_NOT_FOUND', details: { name: 'nope' } });
    expect((await send('POST', '/v1/heartbeats/backup', undefined, 'globex')).statusCode).toBe(404);
    const bad = await send('PUT', '/v1/checks/backup', { kind: 'heartbeat', every: 'often' });
    expect(json(bad).error).toMatchObject({ code: 'CHECK_INVALID', details: { field: 'every' } });
    expect(json(await send('GET', '/v1/checks/backup')).everyMs).toBe(600_000);
    expect((await send('DELETE', '/v1/checks/backup')).statusCode).toBe(204);
    expect(json(await send('GET', '/v1/checks')).items).toEqual([]);
  });

  it('creates a deadline check, and refuses one that can never be met, writing nothing', async () => {
    t = await testApp();
    const body = {
      kind: 'deadline',
      schedule: 'reports.daily',
      spec: '0 9 * * 1-5',
      tz: 'Europe/Paris',
      within: '15m',
    };
    const created = await send('PUT', '/v1/checks/report-by-0915', body);
    expect(created.statusCode).toBe(201);
    // Monday 09:00 UTC is 10:00 in Paris: the next window opens on Tuesday at 09:00 Paris.
    expect(json(created)).toMatchObject({
      name: 'report-by-0915',
      kind: 'deadline',
      everyMs: null,
      deadline: { schedule: 'reports.daily', spec: '0 9 * * 1-5', tz: 'Europe/Paris', withinMs: 900_000 },
      windowStart: '2026-01-06T08:00:00.000Z',
      nextCheckAt: '2026-01-06T08:15:00.000Z',
    });
    const before = await t.snapshot();
    for (const [over, code, field] of [
      [{ within: '0s' }, 'CHECK_DEADLINE_UNMEETABLE', 'within'],
      [{ spec: '*/10 * * * *' }, 'CHECK_DEADLINE_UNMEETABLE', 'within'],
      [{ every: '10m' }, 'CHECK_INVALID', 'every'],
      [{ spec: '@every 1d' }, 'CHECK_INVALID', 'spec'],
    ] as const) {
      const res = await send('PUT', '/v1/checks/report-by-0915', { ...body, ...over });
      expect(res.statusCode).toBe(400);
      expect(json(res).error).toMatchObject({ code, details: { field } });
    }
    expect(await t.snapshot()).toBe(before);
    const beat = await send('POST', '/v1/heartbeats/report-by-0915');
    expect(json(beat).error.code).toBe('CHECK_NOT_FOUND');
  });
});

describe('alerts', () => {
  it('lists alerts with filters and shows one with its deliveries; another tenant sees none', async () => {
    t = await testApp();
    await send('PUT', '/v1/alert-channels/ops', { kind: 'slack', url: 'https://hooks.example.com/a' });
    const store = t.store as unknown as AlertStore;
    const base = { tenantId: 'acme', subjectKind: 'schedule' as const, summary: 's', details: {} };
    const [a] = await store.openAlerts([{ ...base, kind: 'run_dead', subject: 'nightly' }], t.clock.now());
    await store.openAlerts([{ ...base, kind: 'schedule_not_fired', subject: 'hourly' }], t.clock.now());
    await store.resolveAlerts([{ ...base, subject: 'hourly', kinds: ['schedule_not_fired'] }], t.clock.now());
    const all = json(await send('GET', '/v1/alerts'));
    expect(all.items.map((x: { subject: string; state: string }) => [x.subject, x.state])).toEqual([
      ['hourly', 'resolved'],
      ['nightly', 'open'],
    ]);
    expect(json(await send('GET', '/v1/alerts?state=open')).items).toHaveLength(1);
    expect(json(await send('GET', '/v1/alerts?schedule=hourly')).items).toHaveLength(1);
    const one = json(await send('GET', `/v1/alerts/${a!.id}`));
    expect(one.alert).toMatchObject({ id: a!.id, kind: 'run_dead', state: 'open', openedAt: START });
    expect(one.deliveries).toEqual([
      {
        id: expect.any(String),
        channel: 'ops',
        transition: 'opened',
        state: 'pending',
        attempts: 0,
        nextAttemptAt: START,
        deliveredAt: null,
        lastError: null,
        createdAt: START,
      },
    ]);
    expect(json(await send('GET', '/v1/alerts', undefined, 'globex')).items).toEqual([]);
    const missing = await send('GET', `/v1/alerts/${a!.id}`, undefined, 'globex');
    expect(missing.statusCode).toBe(404);
    expect(json(missing).error.code).toBe('ALERT_NOT_FOUND');
  });
});
