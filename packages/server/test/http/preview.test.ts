// POST /v1/preview: the description and next instants of a spec (the same answer as `punctual preview`),
// from the given instant or the clock's now, and nothing saved.

import { afterEach, expect, it } from 'vitest';
import { json, START, testApp, type TestApp } from '../support/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

it('answers { description, next, occurrences, dst } across a DST change, saving nothing', async () => {
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
  expect(Object.keys(body)).toEqual(['description', 'next', 'occurrences', 'dst']);
  expect(body.description).toMatch(/02:30/);
  // 2026-03-08 02:30 does not exist in New York: it runs at 03:00 EDT.
  expect(body.next).toEqual([
    '2026-03-08T07:00:00.000Z',
    '2026-03-09T06:30:00.000Z',
    '2026-03-10T06:30:00.000Z',
  ]);
  expect(body.occurrences[0]).toEqual({
    at: '2026-03-08T07:00:00.000Z',
    notes: [{ kind: 'dstShifted', asked: '2026-03-08T02:30:00', used: '2026-03-08T03:00:00' }],
  });
  expect(body.occurrences[1]).toEqual({ at: '2026-03-09T06:30:00.000Z', notes: [] });
  expect(body.dst).toEqual({ gap: 'shift', repeat: 'first' });
  expect(await t.snapshot()).toBe(before);
});

it('with a DST choice and explain: both passes of a repeated hour, and the dropped candidates', async () => {
  t = await testApp();
  const both = json(
    await t.request({
      method: 'POST',
      url: '/v1/preview',
      as: 'acme',
      payload: {
        spec: 'FREQ=DAILY;BYHOUR=1;BYMINUTE=30',
        tz: 'America/New_York',
        from: '2026-10-31T12:00:00Z',
        count: 3,
        dst: { repeat: 'both' },
        explain: true,
      },
    }),
  );
  expect(both.occurrences).toEqual([
    { at: '2026-11-01T05:30:00.000Z', notes: [{ kind: 'dstRepeat', pass: 1 }] },
    { at: '2026-11-01T06:30:00.000Z', notes: [{ kind: 'dstRepeat', pass: 2 }] },
    { at: '2026-11-02T06:30:00.000Z', notes: [] },
  ]);
  expect(both.dropped).toEqual([]);
  expect(both.dst).toEqual({ gap: 'skip', repeat: 'both' });

  const bounded = json(
    await t.request({
      method: 'POST',
      url: '/v1/preview',
      as: 'acme',
      payload: {
        spec: '0 9 * * *\n',
        tz: 'Europe/Berlin',
        from: '2026-12-20T00:00:00Z',
        count: 10,
        startAt: '2026-12-22T00:00:00Z',
        endAt: '2026-12-23T12:00:00Z',
        explain: true,
      },
    }),
  );
  expect(bounded.next).toEqual(['2026-12-22T08:00:00.000Z', '2026-12-23T08:00:00.000Z']);
  expect(bounded.dropped).toEqual([
    { at: '2026-12-20T08:00:00.000Z', reason: 'beforeStart' },
    { at: '2026-12-21T08:00:00.000Z', reason: 'beforeStart' },
    { at: '2026-12-24T08:00:00.000Z', reason: 'afterEnd' },
  ]);
});

it('an RRULE EXDATE shows as dropped with explain', async () => {
  t = await testApp();
  const body = json(
    await t.request({
      method: 'POST',
      url: '/v1/preview',
      as: 'acme',
      payload: {
        spec: 'DTSTART;TZID=Europe/Berlin:20260101T090000\nRRULE:FREQ=DAILY\nEXDATE;TZID=Europe/Berlin:20260102T090000',
        from: '2026-01-01T00:00:00Z',
        count: 2,
        explain: true,
      },
    }),
  );
  expect(body.next).toEqual(['2026-01-01T08:00:00.000Z', '2026-01-03T08:00:00.000Z']);
  expect(body.dropped).toEqual([{ at: '2026-01-02T08:00:00.000Z', reason: 'exdate' }]);
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
  [{ spec: '@every 1h', dst: { gap: 'skip' } }, 'DST_INVALID'],
  [{ spec: '* * * * *', dst: { gap: 'later' } }, 'VALIDATION_FAILED'],
])('refuses %j with 400 %s', async (payload, code) => {
  t = await testApp();
  const res = await t.request({ method: 'POST', url: '/v1/preview', as: 'acme', payload });
  expect(res.statusCode).toBe(400);
  expect(json(res).error.code).toBe(code);
});
