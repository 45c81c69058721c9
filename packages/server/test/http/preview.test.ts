// POST /v1/preview: the description and next instants of a spec (the same answer as `punctual preview`),
// from the given instant or the clock's now, and nothing saved.

import { afterEach, expect, it } from 'vitest';
import { json, START, testApp, type TestApp } from '../support/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

it('answers { description, next } across a DST change, saving nothing', async () => {
  t = await testApp();
  const before = await t.snapshot();
  const res = await t.request({
    method: 'POST',
    url: '/v1/preview',
    as: 'acme',
    payload: { spec: '30 2 * * *', tz: 'America/New_York', from: '2026-03-07T12:00:00Z', count: 3 },
  });
  expect(res.statusCode).toBe(200);
  const body = json(res);
  expect(Object.keys(body)).toEqual(['description', 'next']);
  expect(body.description).toMatch(/02:30/);
  // 2026-03-08 02:30 does not exist in New York: it runs at 03:00 EDT.
  expect(body.next).toEqual([
    '2026-03-08T07:00:00.000Z',
    '2026-03-09T06:30:00.000Z',
    '2026-03-10T06:30:00.000Z',
  ]);
  expect(await t.snapshot()).toBe(before);
});

it('starts from now and lists 5 by default', async () => {
  t = await testApp();
  const body = json(
    await t.request({ method: 'POST', url: '/v1/preview', as: 'acme', payload: { spec: '@every 1h' } }),
  );
  expect(body.next).toHaveLength(5);
  expect(body.next[0] >= START).toBe(true);
});

it.each([
  [{ spec: '61 * * * *' }, 'SPEC_INVALID'],
  [{ spec: '0 0 31 2 *' }, 'SPEC_NEVER_FIRES'],
  [{ spec: '* * * * *', tz: 'Nowhere/Land' }, 'TIME_ZONE_UNKNOWN'],
  [{ spec: '* * * * *', count: 1001 }, 'VALIDATION_FAILED'],
  [{ spec: '* * * * *', from: 'yesterday' }, 'VALIDATION_FAILED'],
  [{ spec: '* * * * *', extra: true }, 'VALIDATION_FAILED'],
])('refuses %j with 400 %s', async (payload, code) => {
  t = await testApp();
  const res = await t.request({ method: 'POST', url: '/v1/preview', as: 'acme', payload });
  expect(res.statusCode).toBe(400);
  expect(json(res).error.code).toBe(code);
});
