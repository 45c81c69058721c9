// GET /v1/schedules/{key}/preview: a saved schedule's next occurrences as they will really run, its
// calendars and per-occurrence overrides applied (skips dropped with reason override, moves listed where
// they run with a moved note, payloads noted); another tenant's schedule is as missing as an unknown one.

import { afterEach, expect, it } from 'vitest';
import { json, scheduleBody, testApp, type TestApp } from '../support/app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function req(
  method: 'GET' | 'PUT',
  url: string,
  payload?: Record<string, unknown>,
  as: 'acme' | 'globex' = 'acme',
) {
  return t!.request({ method, url, as, ...(payload === undefined ? {} : { payload }) });
}

it("applies the schedule's calendars and overrides, with notes and explained drops", async () => {
  t = await testApp(); // the server's clock: Monday 2026-01-05 09:00 UTC
  expect(
    (
      await req('PUT', '/v1/calendars/closed', {
        tz: 'UTC',
        dates: [{ start: '2026-01-07', label: 'inventory' }],
      })
    ).statusCode,
  ).toBe(201);
  await req(
    'PUT',
    '/v1/schedules/daily',
    scheduleBody({ spec: '0 10 * * *', tz: 'UTC', exclude: ['closed'] }),
  );
  const put = (instant: string, body: Record<string, unknown>) =>
    req('PUT', `/v1/schedules/daily/occurrences/${instant}`, body);
  expect((await put('2026-01-05T10:00:00Z', { kind: 'skip' })).statusCode).toBe(200);
  expect(
    (await put('2026-01-06T10:00:00Z', { kind: 'move', moveTo: '2026-01-08T12:00:00Z' })).statusCode,
  ).toBe(200);
  expect((await put('2026-01-09T10:00:00Z', { kind: 'payload', payload: { extra: true } })).statusCode).toBe(
    200,
  );

  const res = await req('GET', '/v1/schedules/daily/preview?count=4&explain=true');
  expect(res.statusCode).toBe(200);
  const body = json(res);
  expect(body.occurrences).toEqual([
    { at: '2026-01-08T10:00:00.000Z', notes: [] },
    { at: '2026-01-08T12:00:00.000Z', notes: [{ kind: 'moved', from: '2026-01-06T10:00:00.000Z' }] },
    { at: '2026-01-09T10:00:00.000Z', notes: [{ kind: 'payloadOverridden' }] },
    { at: '2026-01-10T10:00:00.000Z', notes: [] },
  ]);
  expect(body.next).toEqual(body.occurrences.map((o: { at: string }) => o.at));
  expect(body.dropped).toEqual([
    { at: '2026-01-05T10:00:00.000Z', reason: 'override' },
    { at: '2026-01-07T10:00:00.000Z', reason: 'calendar', calendar: 'closed', label: 'inventory' },
  ]);
  // Without explain, no dropped list; count defaults to 10.
  const plain = json(await req('GET', '/v1/schedules/daily/preview'));
  expect(plain.dropped).toBeUndefined();
  expect(plain.occurrences).toHaveLength(10);
});

it('404 for an unknown key or another tenant’s schedule, 400 for a bad count, nothing changed', async () => {
  t = await testApp();
  await req('PUT', '/v1/schedules/mine', scheduleBody());
  const before = await t.snapshot();
  const unknown = await req('GET', '/v1/schedules/nope/preview');
  expect(unknown.statusCode).toBe(404);
  expect(json(unknown).error.code).toBe('SCHEDULE_NOT_FOUND');
  const other = await req('GET', '/v1/schedules/mine/preview', undefined, 'globex');
  expect(other.statusCode).toBe(404);
  const bad = await req('GET', '/v1/schedules/mine/preview?count=0');
  expect(bad.statusCode).toBe(400);
  expect(await t.snapshot()).toBe(before);
});
