// Changing schedules without fear through the API: the revisions of a schedule (after create, update, pause,
// resume, delete), one version's full content, the rollback to an earlier version (its exact content as a
// new version, its pending runs following it), and the dry run of a put (nothing written).

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

const V1 = scheduleBody({
  spec: '50 * * * *',
  tz: 'UTC',
  payload: { v: 1, nested: { a: [1, 2] } },
  policies: { priority: 3, retry: { maxAttempts: 5 } },
  labels: { team: 'ops' },
  summary: 'first',
});
const V2 = scheduleBody({
  spec: '20 * * * *',
  tz: 'Europe/Paris',
  target: { handler: 'fails' },
  payload: { v: 2 },
  policies: { priority: 7, overlap: 'skip' },
  maxRuns: 10,
});

describe('GET /v1/schedules/{key}/revisions', () => {
  it('lists create, update, pause, resume and delete newest first, with actor and diff', async () => {
    t = await testApp();
    await req('PUT', '/v1/schedules/k', V1);
    await req('PUT', '/v1/schedules/k', V1); // unchanged: no revision
    await req('PUT', '/v1/schedules/k', V2);
    await req('POST', '/v1/schedules/k/pause');
    await req('POST', '/v1/schedules/k/resume');
    const res = await req('GET', '/v1/schedules/k/revisions');
    expect(res.statusCode).toBe(200);
    const page = json(res);
    expect(page.items.map((r: { version: number; change: string }) => [r.version, r.change])).toEqual([
      [2, 'resumed'],
      [2, 'paused'],
      [2, 'updated'],
      [1, 'created'],
    ]);
    const keyId = (await t.store.listApiKeys('acme'))[0]!.id;
    expect(page.items[0].actor).toBe(`apiKey:${keyId} (test)`);
    expect(page.items[2].diff).toMatchObject({
      spec: { from: '50 * * * *', to: '20 * * * *' },
      tz: { from: 'UTC', to: 'Europe/Paris' },
      target: { from: { handler: 'noop' }, to: { handler: 'fails' } },
      payload: { from: { v: 1, nested: { a: [1, 2] } }, to: { v: 2 } },
      maxRuns: { from: null, to: 10 },
    });
    expect(page.items[2].diff.policies.to.priority).toBe(7);
    expect(page.items[1].diff).toEqual({ state: { from: 'active', to: 'paused' } });

    // Paged, newest first.
    const first = json(await req('GET', '/v1/schedules/k/revisions?limit=3'));
    expect(first.items).toHaveLength(3);
    const rest = json(await req('GET', `/v1/schedules/k/revisions?limit=3&cursor=${first.nextCursor}`));
    expect(rest).toMatchObject({ items: [{ version: 1, change: 'created' }], nextCursor: null });

    // The history outlives the schedule.
    await req('DELETE', '/v1/schedules/k');
    const after = json(await req('GET', '/v1/schedules/k/revisions'));
    expect(after.items[0]).toMatchObject({ version: 2, change: 'deleted', state: 'deleted' });
    // Another tenant sees nothing; an unknown key is 404.
    const other = await t.request({ method: 'GET', url: '/v1/schedules/k/revisions', as: 'globex' });
    expect(other.statusCode).toBe(404);
    expect(json(other).error.code).toBe('SCHEDULE_NOT_FOUND');
  });

  it('reads one version with its full content; an unknown version is 404 REVISION_UNKNOWN', async () => {
    t = await testApp();
    const v1 = json(await req('PUT', '/v1/schedules/k', V1));
    await req('PUT', '/v1/schedules/k', V2);
    const res = await req('GET', '/v1/schedules/k/revisions/1');
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ version: 1, change: 'created' });
    const content = json(res).content;
    for (const f of ['spec', 'tz', 'target', 'payload', 'policies', 'labels', 'summary', 'maxRuns'])
      expect(content[f]).toEqual(v1[f]);
    const missing = await req('GET', '/v1/schedules/k/revisions/9');
    expect(missing.statusCode).toBe(404);
    expect(json(missing).error).toMatchObject({
      code: 'REVISION_UNKNOWN',
      details: { key: 'k', version: 9 },
    });
  });
});

describe('POST /v1/schedules/{key}/rollback', () => {
  it('restores the exact earlier schedule as a new version; its pending runs follow it', async () => {
    // START is 2026-01-05T09:00:00Z on the test clock.
    t = await testApp({ start: true });
    const v1 = json(await req('PUT', '/v1/schedules/k', V1));
    await req('PUT', '/v1/schedules/k', V2);
    // 09:19:55: the v2 run of 09:20 is queued (look-ahead).
    await t.clock.advance(20 * MINUTE - 5_000);
    const queued = json(await req('GET', '/v1/schedules/k/runs')).items;
    expect(queued.map((r: { scheduledFor: string; state: string }) => [r.scheduledFor, r.state])).toEqual([
      ['2026-01-05T09:20:00.000Z', 'scheduled'],
    ]);

    const res = await req('POST', '/v1/schedules/k/rollback', { version: 1 });
    expect(res.statusCode).toBe(200);
    const body = json(res);
    expect(body).toMatchObject({ changed: true, fromVersion: 1, schedule: { version: 3 } });
    const keep = ['spec', 'tz', 'target', 'payload', 'policies', 'labels', 'summary', 'maxRuns', 'startAt'];
    for (const f of keep) expect(body.schedule[f]).toEqual(v1[f]);
    const v3 = json(await req('GET', '/v1/schedules/k/revisions/3'));
    expect(v3).toMatchObject({ change: 'rolledBack', fromVersion: 1 });
    expect(v3.content).toEqual(json(await req('GET', '/v1/schedules/k/revisions/1')).content);

    // The v2 run is cancelled (updated); the restored spec materialises its 09:50 run.
    await t.clock.advance(30 * MINUTE);
    const runs = json(await req('GET', '/v1/schedules/k/runs')).items;
    expect(
      runs.map((r: { scheduledFor: string; state: string; reason: string | null }) => [
        r.scheduledFor,
        r.state,
        r.reason,
      ]),
    ).toEqual([
      ['2026-01-05T09:50:00.000Z', 'scheduled', null],
      ['2026-01-05T09:20:00.000Z', 'cancelled', 'updated'],
    ]);

    // Rolling back to the content in place changes nothing.
    const same = json(await req('POST', '/v1/schedules/k/rollback', { version: 1 }));
    expect(same).toMatchObject({ changed: false, fromVersion: 1, schedule: { version: 3 } });
    expect(json(await req('GET', '/v1/schedules/k/revisions')).items).toHaveLength(3);
  });

  it('refuses an unknown version with REVISION_UNKNOWN, changing nothing', async () => {
    t = await testApp();
    await req('PUT', '/v1/schedules/k', V1);
    await req('PUT', '/v1/schedules/k', V2);
    const before = await t.snapshot();
    const history = (await req('GET', '/v1/schedules/k/revisions')).body;
    for (const version of [3, 99]) {
      const res = await req('POST', '/v1/schedules/k/rollback', { version });
      expect(res.statusCode).toBe(404);
      expect(json(res).error.code).toBe('REVISION_UNKNOWN');
    }
    const bad = await req('POST', '/v1/schedules/k/rollback', { version: 'one' });
    expect(bad.statusCode).toBe(400);
    const none = await req('POST', '/v1/schedules/none/rollback', { version: 1 });
    expect(json(none).error.code).toBe('SCHEDULE_NOT_FOUND');
    expect(await t.snapshot()).toBe(before);
    expect((await req('GET', '/v1/schedules/k/revisions')).body).toBe(history);
  });
});

describe('PUT /v1/schedules/{key}?dryRun=true', () => {
  it('reports the diff, the next fire times and the runs it would cancel, writing nothing', async () => {
    t = await testApp();
    await req('PUT', '/v1/schedules/k', V1);
    const run = json(await req('POST', '/v1/schedules/k/trigger'));
    const before = await t.snapshot();
    const res = await req('PUT', '/v1/schedules/k?dryRun=true', { ...V1, spec: '5 * * * *' });
    expect(res.statusCode).toBe(200);
    const dry = json(res);
    expect(dry).toMatchObject({
      dryRun: true,
      outcome: 'updated',
      currentVersion: 1,
      nextVersion: 2,
      diff: { spec: { from: '50 * * * *', to: '5 * * * *' } },
      cancelled: [{ id: run.id, scheduledFor: run.scheduledFor }],
      cancelledTruncated: false,
    });
    expect(Object.keys(dry.diff)).toEqual(['spec', 'description']);
    expect(dry.nextBefore.slice(0, 2)).toEqual(['2026-01-05T09:50:00.000Z', '2026-01-05T10:50:00.000Z']);
    expect(dry.nextAfter.slice(0, 2)).toEqual(['2026-01-05T09:05:00.000Z', '2026-01-05T10:05:00.000Z']);
    expect(dry.nextBefore).toHaveLength(10);
    expect(dry.nextAfter).toHaveLength(10);
    expect(await t.snapshot()).toBe(before);
    expect(json(await req('GET', '/v1/schedules/k/revisions')).items).toHaveLength(1);

    const same = json(await req('PUT', '/v1/schedules/k?dryRun=true', V1));
    expect(same).toMatchObject({ outcome: 'unchanged', nextVersion: 1, diff: {}, cancelled: [] });
    const fresh = await req('PUT', '/v1/schedules/new?dryRun=true', V2);
    expect(json(fresh)).toMatchObject({
      outcome: 'created',
      currentVersion: null,
      nextVersion: 1,
      nextBefore: [],
    });
    expect(json(fresh).diff.spec).toEqual({ from: null, to: '20 * * * *' });
    expect(await t.snapshot()).toBe(before);
  });

  it('answers the errors of the real put, writing nothing', async () => {
    t = await testApp();
    await req('PUT', '/v1/schedules/k', V1);
    const before = await t.snapshot();
    const bad = await req('PUT', '/v1/schedules/k?dryRun=true', { ...V1, spec: 'every tuesday-ish' });
    const real = await req('PUT', '/v1/schedules/k', { ...V1, spec: 'every tuesday-ish' });
    expect(bad.statusCode).toBe(400);
    expect(json(bad).error.code).toBe(json(real).error.code);
    const stale = await t.request({
      method: 'PUT',
      url: '/v1/schedules/k?dryRun=true',
      as: 'acme',
      payload: V2,
      headers: { 'if-match': '"4"' },
    });
    expect(stale.statusCode).toBe(409);
    expect(json(stale).error.code).toBe('VERSION_CONFLICT');
    expect(await t.snapshot()).toBe(before);
  });
});

describe('a schedule expect through the API', () => {
  it('is shown, carried by the dry run and the diff, and restored by a rollback', async () => {
    t = await testApp();
    const put = await req('PUT', '/v1/schedules/k', { ...V1, expect: { successWithin: '15m' } });
    expect(put.statusCode).toBe(201);
    expect(json(put).expect).toEqual({ successWithinMs: 15 * MINUTE });
    const dry = json(await req('PUT', '/v1/schedules/k?dryRun=true', { ...V1, expect: null }));
    expect(dry.diff.expect).toEqual({ from: { successWithinMs: 15 * MINUTE }, to: null });
    const v2 = json(await req('PUT', '/v1/schedules/k', { ...V1, expect: { successWithin: 90_000 } }));
    expect(v2).toMatchObject({ version: 2, expect: { successWithinMs: 90_000 } });
    const detail = json(await req('GET', '/v1/schedules/k/revisions/1'));
    expect(detail.content.expect).toEqual({ successWithinMs: 15 * MINUTE });
    const back = json(await req('POST', '/v1/schedules/k/rollback', { version: 1 }));
    expect(back.schedule).toMatchObject({ version: 3, expect: { successWithinMs: 15 * MINUTE } });
  });

  it('refuses a bad successWithin with EXPECT_INVALID, writing nothing', async () => {
    t = await testApp();
    const before = await t.snapshot();
    for (const expectation of [{ successWithin: '0s' }, { successWithin: '40d' }, { successWithin: 10 }]) {
      const res = await req('PUT', '/v1/schedules/k', { ...V1, expect: expectation });
      expect(res.statusCode).toBe(400);
      expect(json(res).error).toMatchObject({
        code: 'EXPECT_INVALID',
        details: { field: 'expect.successWithin' },
      });
    }
    const extra = await req('PUT', '/v1/schedules/k', { ...V1, expect: { within: '1m' } });
    expect(extra.statusCode).toBe(400);
    expect(await t.snapshot()).toBe(before);
  });
});
