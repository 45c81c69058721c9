// nextFireAt in the API: the earliest pending run (the one already queued), else the next occurrence not
// yet materialised; null while paused (its `state` says why). The same on get, list, put, pause and resume.

import { afterEach, expect, it } from 'vitest';
import { json, scheduleBody, testApp, type TestApp } from '../support/app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const MINUTE = 60_000;

it('shows the run already queued, null while paused, and the same on every route', async () => {
  // START is 2026-01-05T09:00:00Z on the test clock.
  t = await testApp({ start: true });
  const app = t;
  const body = scheduleBody({ spec: '30 * * * *', tz: 'UTC' });
  const put = await app.request({ method: 'PUT', url: '/v1/schedules/hourly', as: 'acme', payload: body });
  expect(json(put).nextFireAt).toBe('2026-01-05T09:30:00.000Z');

  // 09:29:55: the 09:30 run is written (look-ahead); the materializer's cursor moved on to 10:30.
  await app.clock.advance(30 * MINUTE - 5_000);
  const runs = await app.request({ method: 'GET', url: '/v1/schedules/hourly/runs', as: 'acme' });
  expect(
    json(runs).items.map((r: { scheduledFor: string; state: string }) => [r.scheduledFor, r.state]),
  ).toEqual([['2026-01-05T09:30:00.000Z', 'scheduled']]);
  const get = await app.request({ method: 'GET', url: '/v1/schedules/hourly', as: 'acme' });
  expect(json(get)).toMatchObject({ state: 'active', nextFireAt: '2026-01-05T09:30:00.000Z' });
  const list = await app.request({ method: 'GET', url: '/v1/schedules', as: 'acme' });
  expect(json(list).items.map((s: { key: string; nextFireAt: string }) => [s.key, s.nextFireAt])).toEqual([
    ['hourly', '2026-01-05T09:30:00.000Z'],
  ]);

  const paused = await app.request({ method: 'POST', url: '/v1/schedules/hourly/pause', as: 'acme' });
  expect(json(paused)).toMatchObject({ state: 'paused', nextFireAt: null });
  const pausedGet = await app.request({ method: 'GET', url: '/v1/schedules/hourly', as: 'acme' });
  expect(json(pausedGet)).toMatchObject({ state: 'paused', nextFireAt: null });

  const resumed = await app.request({ method: 'POST', url: '/v1/schedules/hourly/resume', as: 'acme' });
  expect(json(resumed)).toMatchObject({ state: 'active', nextFireAt: '2026-01-05T09:30:00.000Z' });
});
