// Per-occurrence overrides and the timed pause through the API: list a schedule's upcoming occurrences with
// their overrides, override one (skip, move, payload) and remove it, the codes of bad input (nothing
// changed), the overrides a change drops (in the put's answer and its dry run), and `pause { until }`.

import { afterEach, describe, expect, it } from 'vitest';
import { json, scheduleBody, testApp, type TestApp } from '../support/app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

function req(method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) {
  return t!.request({ method, url, as: 'acme', ...(payload === undefined ? {} : { payload }) });
}

const HOURLY = scheduleBody({ spec: '0 * * * *', tz: 'UTC' });

describe('/v1/schedules/{key}/occurrences', () => {
  it('overrides occurrences, lists them, and removes an override', async () => {
    t = await testApp();
    await req('PUT', '/v1/schedules/k', HOURLY);
    const skip = await req('PUT', '/v1/schedules/k/occurrences/2026-01-05T10:00:00Z', {
      kind: 'skip',
      note: 'holiday',
    });
    expect(skip.statusCode).toBe(200);
    expect(json(skip).override).toMatchObject({ instant: '2026-01-05T10:00:00.000Z', kind: 'skip' });
    const move = await req('PUT', '/v1/schedules/k/occurrences/2026-01-05T11:00:00Z', {
      kind: 'move',
      moveTo: '2026-01-05T11:45:00Z',
    });
    expect(move.statusCode).toBe(200);
    const list = json(await req('GET', '/v1/schedules/k/occurrences?count=4'));
    expect(list.occurrences).toEqual([
      // The server's clock is at 09:00: that occurrence is the first still to come.
      { scheduledFor: '2026-01-05T09:00:00.000Z', at: '2026-01-05T09:00:00.000Z', override: null },
      {
        scheduledFor: '2026-01-05T10:00:00.000Z',
        at: null,
        override: expect.objectContaining({ kind: 'skip', note: 'holiday' }),
      },
      {
        scheduledFor: '2026-01-05T11:00:00.000Z',
        at: '2026-01-05T11:45:00.000Z',
        override: expect.objectContaining({ kind: 'move', moveTo: '2026-01-05T11:45:00.000Z' }),
      },
      { scheduledFor: '2026-01-05T12:00:00.000Z', at: '2026-01-05T12:00:00.000Z', override: null },
    ]);
    expect((await req('DELETE', '/v1/schedules/k/occurrences/2026-01-05T10:00:00Z')).statusCode).toBe(204);
    const again = await req('DELETE', '/v1/schedules/k/occurrences/2026-01-05T10:00:00Z');
    expect([again.statusCode, json(again).error.code]).toEqual([404, 'OVERRIDE_NOT_FOUND']);
  });

  it('answers each kind of bad input with its code and changes nothing', async () => {
    t = await testApp();
    await req('PUT', '/v1/schedules/k', HOURLY);
    const cases: [string, Record<string, unknown>, number, string][] = [
      ['2026-01-05T10:30:00Z', { kind: 'skip' }, 400, 'OCCURRENCE_UNKNOWN'],
      ['2026-01-05T10:00:00Z', { kind: 'move' }, 400, 'OVERRIDE_INVALID'],
      ['2026-01-05T10:00:00Z', { kind: 'payload' }, 400, 'OVERRIDE_INVALID'],
      ['2026-01-05T10:00:00Z', { kind: 'move', moveTo: '2026-01-01T00:00:00Z' }, 400, 'OVERRIDE_INVALID'],
    ];
    for (const [at, body, status, code] of cases) {
      const res = await req('PUT', `/v1/schedules/k/occurrences/${at}`, body);
      expect([status, code]).toEqual([res.statusCode, json(res).error.code]);
    }
    const list = json(await req('GET', '/v1/schedules/k/occurrences'));
    expect(list.occurrences.filter((x: { override: unknown }) => x.override !== null)).toEqual([]);
  });

  it('reports the overrides a change drops, in the dry run and in the put', async () => {
    t = await testApp();
    await req('PUT', '/v1/schedules/k', HOURLY);
    await req('PUT', '/v1/schedules/k/occurrences/2026-01-05T11:00:00Z', { kind: 'skip' });
    const everyTwo = scheduleBody({ spec: '0 */2 * * *', tz: 'UTC' });
    const dry = json(await req('PUT', '/v1/schedules/k?dryRun=true', everyTwo));
    expect(dry.droppedOverrides.map((o: { instant: string }) => o.instant)).toEqual([
      '2026-01-05T11:00:00.000Z',
    ]);
    const put = await req('PUT', '/v1/schedules/k', everyTwo);
    expect(json(put).droppedOverrides).toEqual([expect.objectContaining({ kind: 'skip' })]);
  });
});

describe('POST /v1/schedules/{key}/pause with until', () => {
  it('pauses until an instant, and refuses one in the past', async () => {
    t = await testApp();
    await req('PUT', '/v1/schedules/k', HOURLY);
    const bad = await req('POST', '/v1/schedules/k/pause', { until: '2026-01-05T08:00:00Z' });
    expect([bad.statusCode, json(bad).error.code]).toEqual([400, 'PAUSE_UNTIL_INVALID']);
    const res = await req('POST', '/v1/schedules/k/pause', { until: '2026-01-05T12:00:00Z' });
    expect(json(res)).toMatchObject({ state: 'paused', pausedUntil: '2026-01-05T12:00:00.000Z' });
  });
});
