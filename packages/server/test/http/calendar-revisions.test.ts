// Calendar revisions through the API: the history of a calendar (create, update, delete, with actor and the
// dates added and removed), one version's full content, the rollback to an earlier version (its exact
// content as a new version, the schedules using it planned again), a rollback to a missing version (404,
// nothing changed), and tenant isolation. The service runs on a test clock; instants are fixed.

import { afterEach, describe, expect, it } from 'vitest';
import { json, scheduleBody, testApp, type TestApp } from '../support/app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const MINUTE = 60_000;

function req(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) {
  return t!.request({ method, url, as: 'acme', ...(payload === undefined ? {} : { payload }) });
}

// START is Monday 2026-01-05T09:00:00Z on the test clock.
const V1 = {
  tz: 'UTC',
  dates: [{ start: '2026-01-05', label: 'Closed' }, '2026-03-01'],
  workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
};
const V2 = { tz: 'UTC', dates: ['2026-03-01'], description: 'nothing today' };

type Rev = { version: number; change: string; fromVersion: number | null };
const changes = (items: Rev[]) => items.map((r) => [r.version, r.change, r.fromVersion]);

describe('GET /v1/calendars/{name}/revisions', () => {
  it('lists create, update and delete newest first with actor and date diff; kept after a delete', async () => {
    t = await testApp();
    await req('PUT', '/v1/calendars/off', V1);
    await req('PUT', '/v1/calendars/off', V1); // unchanged: no revision
    await req('PUT', '/v1/calendars/off', V2);
    const res = await req('GET', '/v1/calendars/off/revisions');
    expect(res.statusCode).toBe(200);
    const page = json(res);
    expect(changes(page.items)).toEqual([
      [2, 'updated', null],
      [1, 'created', null],
    ]);
    const keyId = (await t.store.listApiKeys('acme'))[0]!.id;
    expect(page.items[0].actor).toBe(`apiKey:${keyId} (test)`);
    expect(page.items[0].at).toBe('2026-01-05T09:00:00.000Z');
    expect(page.items[0].diff).toEqual({
      dates: { added: [], removed: [{ start: '2026-01-05', end: '2026-01-05', label: 'Closed' }] },
      workingDays: { from: ['mon', 'tue', 'wed', 'thu', 'fri'], to: null },
      description: { from: null, to: 'nothing today' },
    });
    const v1 = json(await req('GET', '/v1/calendars/off/revisions/1'));
    expect(v1.content).toEqual({
      tz: 'UTC',
      dates: [
        { start: '2026-01-05', end: '2026-01-05', label: 'Closed' },
        { start: '2026-03-01', end: '2026-03-01', label: null },
      ],
      workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
      description: null,
    });

    // Paged.
    const first = json(await req('GET', '/v1/calendars/off/revisions?limit=1'));
    const rest = json(await req('GET', `/v1/calendars/off/revisions?limit=1&cursor=${first.nextCursor}`));
    expect(rest).toMatchObject({ items: [{ version: 1 }], nextCursor: null });

    // Kept after a delete; another tenant and an unknown name are 404.
    expect((await req('DELETE', '/v1/calendars/off')).statusCode).toBe(204);
    expect(json(await req('GET', '/v1/calendars/off/revisions')).items[0]).toMatchObject({
      version: 2,
      change: 'deleted',
    });
    const other = await t.request({ method: 'GET', url: '/v1/calendars/off/revisions', as: 'globex' });
    expect(other.statusCode).toBe(404);
    expect(json(other).error.code).toBe('CALENDAR_NOT_FOUND');
    const none = await req('GET', '/v1/calendars/never/revisions');
    expect(json(none).error.code).toBe('CALENDAR_NOT_FOUND');
    const missing = await req('GET', '/v1/calendars/off/revisions/9');
    expect(missing.statusCode).toBe(404);
    expect(json(missing).error).toMatchObject({
      code: 'REVISION_UNKNOWN',
      details: { name: 'off', version: 9 },
    });
  });
});

describe('POST /v1/calendars/{name}/rollback', () => {
  it('restores the earlier content as a new version and plans its schedules again', async () => {
    t = await testApp({ start: true });
    await req('PUT', '/v1/calendars/off', V1);
    await req('PUT', '/v1/schedules/k', scheduleBody({ spec: '20 9 * * *', tz: 'UTC', exclude: ['off'] }));
    await req('PUT', '/v1/calendars/off', V2);
    expect(json(await req('GET', '/v1/calendars/off')).usedBy).toEqual(['k']);
    // 09:19:55: today is no longer excluded, so the 09:20 run is queued.
    await t.clock.advance(20 * MINUTE - 5_000);
    const runs = async () =>
      json(await req('GET', '/v1/schedules/k/runs')).items.map(
        (r: { scheduledFor: string; state: string; reason: string | null }) => [
          r.scheduledFor,
          r.state,
          r.reason,
        ],
      );
    expect(await runs()).toEqual([['2026-01-05T09:20:00.000Z', 'scheduled', null]]);

    const res = await req('POST', '/v1/calendars/off/rollback', { version: 1 });
    expect(res.statusCode).toBe(200);
    const body = json(res);
    expect(body).toMatchObject({ changed: true, fromVersion: 1, calendar: { version: 3 } });
    expect(body.calendar.dates).toEqual(
      json(await req('GET', '/v1/calendars/off/revisions/1')).content.dates,
    );
    expect(json(await req('GET', '/v1/calendars/off/revisions/3'))).toMatchObject({
      change: 'rolledBack',
      fromVersion: 1,
    });

    // The queued run is cancelled (calendarChanged) and today's occurrence skipped by the calendar again.
    await t.clock.advance(MINUTE);
    expect(await runs()).toEqual(
      expect.arrayContaining([
        ['2026-01-05T09:20:00.000Z', 'cancelled', 'calendarChanged'],
        ['2026-01-05T09:20:00.000Z', 'skipped', 'calendar'],
      ]),
    );

    // Rolling back to the content in place writes nothing.
    const same = json(await req('POST', '/v1/calendars/off/rollback', { version: 1 }));
    expect(same).toMatchObject({ changed: false, fromVersion: 1, calendar: { version: 3 } });
  });

  it('refuses a version that is not kept, or a stale If-Match, changing nothing', async () => {
    t = await testApp();
    await req('PUT', '/v1/calendars/off', V1);
    await req('PUT', '/v1/calendars/off', V2);
    const before = await t.snapshot();
    const missing = await req('POST', '/v1/calendars/off/rollback', { version: 7 });
    expect(missing.statusCode).toBe(404);
    expect(json(missing).error).toMatchObject({
      code: 'REVISION_UNKNOWN',
      details: { name: 'off', version: 7 },
    });
    const stale = await t.request({
      method: 'POST',
      url: '/v1/calendars/off/rollback',
      as: 'acme',
      headers: { 'if-match': '1' },
      payload: { version: 1 },
    });
    expect(stale.statusCode).toBe(409);
    expect(json(stale).error.code).toBe('VERSION_CONFLICT');
    const other = await t.request({
      method: 'POST',
      url: '/v1/calendars/off/rollback',
      as: 'globex',
      payload: { version: 1 },
    });
    expect(json(other).error.code).toBe('REVISION_UNKNOWN');
    const bad = await req('POST', '/v1/calendars/off/rollback', { version: 0 });
    expect(bad.statusCode).toBe(400);
    expect(await t.snapshot()).toBe(before);
    expect(json(await req('GET', '/v1/calendars/off')).version).toBe(2);
  });

  it('brings a deleted calendar back, continuing its version numbers', async () => {
    t = await testApp();
    await req('PUT', '/v1/calendars/off', V1);
    expect(json(await req('GET', '/v1/calendars/off')).usedBy).toEqual([]);
    await req('DELETE', '/v1/calendars/off');
    expect((await req('GET', '/v1/calendars/off')).statusCode).toBe(404);
    const res = json(await req('POST', '/v1/calendars/off/rollback', { version: 1 }));
    expect(res).toMatchObject({ changed: true, fromVersion: 1, calendar: { version: 2 } });
    expect(json(await req('GET', '/v1/calendars/off')).dates).toHaveLength(2);
    expect(changes(json(await req('GET', '/v1/calendars/off/revisions')).items)).toEqual([
      [2, 'rolledBack', 1],
      [1, 'deleted', null],
      [1, 'created', null],
    ]);
  });
});
