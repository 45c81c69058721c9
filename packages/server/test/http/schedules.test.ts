// /v1/schedules through app.inject on a real SQLite store: upsert (201/200, If-Match), list with filters and
// cursors, get, delete (pending runs cancelled), pause/resume, trigger (to a succeeded run, on the test
// clock), backfill, a schedule's runs, and the maxSchedules / maxRunsPerMinute quotas.

import { afterEach, describe, expect, it } from 'vitest';
import { json, scheduleBody, START, testApp, type TestApp } from '../support/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function put(
  key: string,
  body: Record<string, unknown> = scheduleBody(),
  headers: Record<string, string> = {},
) {
  return t.request({ method: 'PUT', url: `/v1/schedules/${key}`, as: 'acme', payload: body, headers });
}

describe('PUT /v1/schedules/{key}', () => {
  it('creates (201) with the documented shape, then updates (200) bumping the version', async () => {
    t = await testApp();
    const created = await put('reports.daily');
    expect(created.statusCode).toBe(201);
    const s = json(created);
    expect(Object.keys(s).sort()).toEqual(
      [
        'key',
        'spec',
        'tz',
        'description',
        'summary',
        'labels',
        'dst',
        'exclude',
        'businessDays',
        'expect',
        'target',
        'payload',
        'policies',
        'startAt',
        'endAt',
        'maxRuns',
        'jitterMs',
        'state',
        'version',
        'nextFireAt',
        'firedCount',
        'materializedCount',
        'lastFiredAt',
        'lastSucceededAt',
        'note',
        'pausedUntil',
        'createdAt',
        'updatedAt',
        // A put also says which occurrence overrides its change dropped.
        'droppedOverrides',
      ].sort(),
    );
    expect(s).toMatchObject({
      key: 'reports.daily',
      spec: '0 9 * * *',
      tz: 'Europe/Paris',
      target: { handler: 'noop' },
      payload: { hello: 'world' },
      state: 'active',
      version: 1,
      nextFireAt: '2026-01-06T08:00:00.000Z',
      createdAt: START,
    });
    expect(s.description).toMatch(/09:00/);
    expect(s.policies.retry.maxAttempts).toBe(3);
    expect(created.headers.etag).toBe('"1"');
    expect(created.headers.location).toBe('/v1/schedules/reports.daily');

    const same = await put('reports.daily');
    expect(same.statusCode).toBe(200);
    expect(json(same).version).toBe(1);

    const changed = await put('reports.daily', scheduleBody({ spec: '0 11 * * *' }));
    expect(changed.statusCode).toBe(200);
    expect(json(changed)).toMatchObject({ version: 2, nextFireAt: '2026-01-05T10:00:00.000Z' });
  });

  it('accepts every documented field, instants as ISO strings with offsets', async () => {
    t = await testApp();
    const res = await put(
      'full',
      scheduleBody({
        startAt: '2026-02-01T00:00:00+01:00',
        endAt: '2026-12-31T00:00:00Z',
        maxRuns: 5,
        jitter: '30s',
        policies: { retry: { maxAttempts: 5, backoff: 'fixed' }, overlap: 'skip', deadlineMs: 60_000 },
      }),
    );
    expect(res.statusCode).toBe(201);
    expect(json(res)).toMatchObject({
      startAt: '2026-01-31T23:00:00.000Z',
      endAt: '2026-12-31T00:00:00.000Z',
      maxRuns: 5,
      jitterMs: 30_000,
      policies: { retry: { maxAttempts: 5, backoff: 'fixed' }, overlap: 'skip', deadlineMs: 60_000 },
    });
    for (const k of ['startAt', 'endAt', 'nextFireAt', 'createdAt', 'updatedAt'])
      expect(json(res)[k]).toMatch(ISO_MS);
  });

  it('If-Match: the current version updates, a stale one answers 409 and changes nothing', async () => {
    t = await testApp();
    await put('k');
    await put('k', scheduleBody({ spec: '0 10 * * *' })); // version 2
    const before = await t.snapshot();
    const stale = await put('k', scheduleBody({ spec: '0 11 * * *' }), { 'if-match': '1' });
    expect(stale.statusCode).toBe(409);
    expect(json(stale).error).toMatchObject({
      code: 'VERSION_CONFLICT',
      details: { expected: 1, actual: 2 },
    });
    expect(await t.snapshot()).toBe(before);

    const fresh = await put('k', scheduleBody({ spec: '0 11 * * *' }), { 'if-match': '"2"' });
    expect(fresh.statusCode).toBe(200);
    expect(json(fresh).version).toBe(3);

    const missing = await put('nope', scheduleBody(), { 'if-match': '1' });
    expect(missing.statusCode).toBe(409);
    expect(json(missing).error.code).toBe('VERSION_CONFLICT');
  });

  it.each([
    ['an invalid cron', { spec: '61 * * * *' }, 'SPEC_INVALID', 'spec'],
    ['a spec that never fires', { spec: '0 0 31 2 *' }, 'SPEC_NEVER_FIRES', 'spec'],
    ['an unknown zone', { tz: 'Mars/Olympus' }, 'TIME_ZONE_UNKNOWN', 'tz'],
    ['a zone abbreviation', { tz: 'BST' }, 'TIME_ZONE_UNKNOWN', 'tz'],
    ['a fixed offset as a zone', { tz: '+05:30' }, 'TIME_ZONE_UNKNOWN', 'tz'],
    [
      'endAt before startAt',
      { startAt: '2026-03-01T00:00:00Z', endAt: '2026-02-01T00:00:00Z' },
      'BOUNDS_INVALID',
      'endAt',
    ],
    ['an unknown handler', { target: { handler: 'ghost' } }, 'HANDLER_UNKNOWN', 'target.handler'],
    [
      'a policy out of range',
      { policies: { retry: { maxAttempts: 0 } } },
      'SCHEDULE_INVALID',
      'policies.retry.maxAttempts',
    ],
    [
      'a loopback webhook',
      { target: { webhook: { url: 'http://127.0.0.1/x' } } },
      'TARGET_ADDRESS_REFUSED',
      undefined,
    ],
  ])('refuses %s with 400 and the library code, saving nothing', async (_name, override, code, field) => {
    t = await testApp();
    const before = await t.snapshot();
    const res = await put('bad', scheduleBody(override));
    expect(res.statusCode).toBe(400);
    expect(json(res).error.code).toBe(code);
    if (field) expect(json(res).error.details.field).toBe(field);
    expect(await t.snapshot()).toBe(before);
  });
});

describe('GET /v1/schedules', () => {
  it('filters by state, target and key prefix', async () => {
    t = await testApp();
    await put('billing.a');
    await put('billing.b', scheduleBody({ target: { webhook: { url: 'https://example.com/hook' } } }));
    await put('reports.a');
    await t.request({ method: 'POST', url: '/v1/schedules/billing.a/pause', as: 'acme' });
    const keys = async (query: string): Promise<string[]> =>
      json(await t.request({ method: 'GET', url: `/v1/schedules${query}`, as: 'acme' })).items.map(
        (s: { key: string }) => s.key,
      );
    expect(await keys('')).toEqual(['billing.a', 'billing.b', 'reports.a']);
    expect(await keys('?state=paused')).toEqual(['billing.a']);
    expect(await keys('?state=active')).toEqual(['billing.b', 'reports.a']);
    expect(await keys('?target=webhook')).toEqual(['billing.b']);
    expect(await keys('?keyPrefix=billing.')).toEqual(['billing.a', 'billing.b']);
    expect(await keys('?keyPrefix=billing.&target=handler')).toEqual(['billing.a']);
  });

  it('pages with limit and cursor until nextCursor is null', async () => {
    t = await testApp();
    for (const k of ['a', 'b', 'c', 'd', 'e']) await put(k);
    const seen: string[] = [];
    let url = '/v1/schedules?limit=2';
    for (let pages = 0; pages < 10; pages++) {
      const page = json(await t.request({ method: 'GET', url, as: 'acme' }));
      seen.push(...page.items.map((s: { key: string }) => s.key));
      if (page.nextCursor === null) break;
      url = `/v1/schedules?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`;
    }
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('GET and DELETE /v1/schedules/{key}', () => {
  it('gets one schedule with its ETag; a missing key is 404 SCHEDULE_NOT_FOUND', async () => {
    t = await testApp();
    await put('k');
    const got = await t.request({ method: 'GET', url: '/v1/schedules/k', as: 'acme' });
    expect(got.statusCode).toBe(200);
    expect(json(got).key).toBe('k');
    expect(got.headers.etag).toBe('"1"');
    const missing = await t.request({ method: 'GET', url: '/v1/schedules/none', as: 'acme' });
    expect(missing.statusCode).toBe(404);
    expect(json(missing).error).toEqual({
      code: 'SCHEDULE_NOT_FOUND',
      message: 'no schedule "none"',
      details: { key: 'none' },
    });
  });

  it('deletes (204): pending runs are cancelled, history kept; a second delete is 404', async () => {
    t = await testApp();
    await put('k');
    const run = json(await t.request({ method: 'POST', url: '/v1/schedules/k/trigger', as: 'acme' }));
    expect(run.state).toBe('scheduled');
    const del = await t.request({ method: 'DELETE', url: '/v1/schedules/k', as: 'acme' });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    const after = json(await t.request({ method: 'GET', url: `/v1/runs/${run.id}`, as: 'acme' }));
    expect(after).toMatchObject({ state: 'cancelled', reason: 'deleted' });
    expect((await t.request({ method: 'GET', url: '/v1/schedules/k', as: 'acme' })).statusCode).toBe(404);
    const again = await t.request({ method: 'DELETE', url: '/v1/schedules/k', as: 'acme' });
    expect(again.statusCode).toBe(404);
    expect(json(again).error.code).toBe('SCHEDULE_NOT_FOUND');
  });
});

describe('pause and resume', () => {
  it('pauses with cancelPending and a note, then resumes', async () => {
    t = await testApp();
    await put('k');
    const run = json(await t.request({ method: 'POST', url: '/v1/schedules/k/trigger', as: 'acme' }));
    const paused = await t.request({
      method: 'POST',
      url: '/v1/schedules/k/pause',
      as: 'acme',
      payload: { cancelPending: true, note: 'maintenance' },
    });
    expect(paused.statusCode).toBe(200);
    expect(json(paused)).toMatchObject({ state: 'paused', note: 'maintenance' });
    expect(json(await t.request({ method: 'GET', url: `/v1/runs/${run.id}`, as: 'acme' }))).toMatchObject({
      state: 'cancelled',
      reason: 'pausedCancel',
    });
    const resumed = await t.request({ method: 'POST', url: '/v1/schedules/k/resume', as: 'acme' });
    expect(resumed.statusCode).toBe(200);
    expect(json(resumed).state).toBe('active');
  });

  it('takes no body, an empty JSON body, or {} alike; a missing schedule is 404', async () => {
    t = await testApp();
    await put('k');
    const noBody = await t.request({ method: 'POST', url: '/v1/schedules/k/pause', as: 'acme' });
    expect(json(noBody).state).toBe('paused');
    const empty = await t.request({
      method: 'POST',
      url: '/v1/schedules/k/resume',
      as: 'acme',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(json(empty).state).toBe('active');
    const obj = await t.request({ method: 'POST', url: '/v1/schedules/k/pause', as: 'acme', payload: {} });
    expect(json(obj).state).toBe('paused');
    for (const action of ['pause', 'resume', 'trigger']) {
      const res = await t.request({ method: 'POST', url: `/v1/schedules/none/${action}`, as: 'acme' });
      expect(res.statusCode).toBe(404);
      expect(json(res).error.code).toBe('SCHEDULE_NOT_FOUND');
    }
  });
});

describe('POST /v1/schedules/{key}/trigger', () => {
  it('creates a manual run (201, Location) that the engine delivers to success', async () => {
    t = await testApp({ start: true });
    await put('k');
    const succeeded = new Promise<string>((resolve) =>
      t.scheduler.on('run:succeeded', ({ run }) => resolve(run.id)),
    );
    const res = await t.request({
      method: 'POST',
      url: '/v1/schedules/k/trigger',
      as: 'acme',
      payload: { payload: { n: 1 } },
    });
    expect(res.statusCode).toBe(201);
    const run = json(res);
    expect(run).toMatchObject({ scheduleKey: 'k', kind: 'manual', scheduledFor: START, attempt: 0 });
    expect(res.headers.location).toBe(`/v1/runs/${run.id}`);
    expect(await succeeded).toBe(run.id);
    const detail = json(await t.request({ method: 'GET', url: `/v1/runs/${run.id}`, as: 'acme' }));
    expect(detail).toMatchObject({ state: 'succeeded', attempt: 1, result: { done: true }, error: null });
    expect(detail.startedAt).toMatch(ISO_MS);
    expect(detail.finishedAt).toMatch(ISO_MS);
    expect(detail.attempts).toHaveLength(1);
    expect(detail.attempts[0]).toMatchObject({ attempt: 1, outcome: 'succeeded', result: { done: true } });
  });
});

describe('POST /v1/schedules/{key}/backfill', () => {
  it('creates one run per past occurrence in [from, to)', async () => {
    t = await testApp();
    await put('hourly', scheduleBody({ spec: '0 * * * *', tz: 'UTC' }));
    const res = await t.request({
      method: 'POST',
      url: '/v1/schedules/hourly/backfill',
      as: 'acme',
      payload: { from: '2026-01-05T05:00:00Z', to: '2026-01-05T08:00:00Z' },
    });
    expect(res.statusCode).toBe(200);
    expect(
      json(res).runs.map((r: { scheduledFor: string; kind: string }) => [r.kind, r.scheduledFor]),
    ).toEqual([
      ['backfill', '2026-01-05T05:00:00.000Z'],
      ['backfill', '2026-01-05T06:00:00.000Z'],
      ['backfill', '2026-01-05T07:00:00.000Z'],
    ]);
  });

  it('refuses a range into the future (400) and a missing body (400 VALIDATION_FAILED)', async () => {
    t = await testApp();
    await put('hourly', scheduleBody({ spec: '0 * * * *', tz: 'UTC' }));
    const before = await t.snapshot();
    const future = await t.request({
      method: 'POST',
      url: '/v1/schedules/hourly/backfill',
      as: 'acme',
      payload: { from: '2026-01-05T05:00:00Z', to: '2026-01-06T00:00:00Z' },
    });
    expect(future.statusCode).toBe(400);
    expect(json(future).error).toMatchObject({ code: 'SCHEDULE_INVALID', details: { field: 'to' } });
    const none = await t.request({ method: 'POST', url: '/v1/schedules/hourly/backfill', as: 'acme' });
    expect(none.statusCode).toBe(400);
    expect(json(none).error.code).toBe('VALIDATION_FAILED');
    expect(await t.snapshot()).toBe(before);
  });
});

describe('GET /v1/schedules/{key}/runs', () => {
  it("lists the schedule's runs newest first, with filters; a missing schedule is 404", async () => {
    t = await testApp();
    await put('a', scheduleBody({ spec: '0 * * * *', tz: 'UTC' }));
    await put('b');
    await t.request({
      method: 'POST',
      url: '/v1/schedules/a/backfill',
      as: 'acme',
      payload: { from: '2026-01-05T05:00:00Z', to: '2026-01-05T08:00:00Z' },
    });
    await t.request({ method: 'POST', url: '/v1/schedules/b/trigger', as: 'acme' });
    const page = json(await t.request({ method: 'GET', url: '/v1/schedules/a/runs', as: 'acme' }));
    expect(page.items.map((r: { scheduledFor: string }) => r.scheduledFor)).toEqual([
      '2026-01-05T07:00:00.000Z',
      '2026-01-05T06:00:00.000Z',
      '2026-01-05T05:00:00.000Z',
    ]);
    expect(page.nextCursor).toBeNull();
    const ranged = json(
      await t.request({
        method: 'GET',
        url: '/v1/schedules/a/runs?from=2026-01-05T06:00:00Z&to=2026-01-05T07:00:00Z&state=scheduled',
        as: 'acme',
      }),
    );
    expect(ranged.items.map((r: { scheduledFor: string }) => r.scheduledFor)).toEqual([
      '2026-01-05T06:00:00.000Z',
    ]);
    const missing = await t.request({ method: 'GET', url: '/v1/schedules/none/runs', as: 'acme' });
    expect(missing.statusCode).toBe(404);
    expect(json(missing).error.code).toBe('SCHEDULE_NOT_FOUND');
  });
});

describe('quotas', () => {
  it('maxSchedules: a create beyond it is 429 QUOTA_EXCEEDED; updates still work', async () => {
    t = await testApp({ quotas: { acme: { maxSchedules: 2 } } });
    expect((await put('a')).statusCode).toBe(201);
    expect((await put('b')).statusCode).toBe(201);
    const before = await t.snapshot();
    const third = await put('c');
    expect(third.statusCode).toBe(429);
    expect(json(third).error).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      details: { quota: 'maxSchedules', limit: 2, current: 2 },
    });
    expect(await t.snapshot()).toBe(before);
    expect((await put('a', scheduleBody({ spec: '0 8 * * *' }))).statusCode).toBe(200);
    // The other tenant has no such quota.
    expect(
      (await t.request({ method: 'PUT', url: '/v1/schedules/c', as: 'globex', payload: scheduleBody() }))
        .statusCode,
    ).toBe(201);
  });

  it('maxRunsPerMinute: a backfill asking for more runs than allowed is refused whole', async () => {
    t = await testApp({ quotas: { acme: { maxRunsPerMinute: 2 } } });
    await put('hourly', scheduleBody({ spec: '0 * * * *', tz: 'UTC' }));
    const before = await t.snapshot();
    const res = await t.request({
      method: 'POST',
      url: '/v1/schedules/hourly/backfill',
      as: 'acme',
      payload: { from: '2026-01-05T05:00:00Z', to: '2026-01-05T08:00:00Z' },
    });
    expect(res.statusCode).toBe(429);
    expect(json(res).error).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      details: { quota: 'maxRunsPerMinute', limit: 2, current: 0, asked: 3 },
    });
    expect(await t.snapshot()).toBe(before);
  });

  it('maxRunsPerMinute: runs started in the last minute count; a minute later there is room again', async () => {
    t = await testApp({ start: true, quotas: { acme: { maxRunsPerMinute: 1 } } });
    await put('k');
    const succeeded = new Promise<void>((resolve) => t.scheduler.on('run:succeeded', () => resolve()));
    expect((await t.request({ method: 'POST', url: '/v1/schedules/k/trigger', as: 'acme' })).statusCode).toBe(
      201,
    );
    await succeeded;
    const refused = await t.request({ method: 'POST', url: '/v1/schedules/k/trigger', as: 'acme' });
    expect(refused.statusCode).toBe(429);
    expect(json(refused).error).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      details: { quota: 'maxRunsPerMinute', current: 1 },
    });
    await t.clock.advance(61_000);
    expect((await t.request({ method: 'POST', url: '/v1/schedules/k/trigger', as: 'acme' })).statusCode).toBe(
      201,
    );
  });
});

describe('time zone hints', () => {
  it('answers an abbreviation with the zone it probably means', async () => {
    t = await testApp();
    const res = await put('bst', scheduleBody({ tz: 'BST' }));
    expect(res.statusCode).toBe(400);
    expect(json(res).error).toMatchObject({
      code: 'TIME_ZONE_UNKNOWN',
      message: expect.stringContaining('"BST": did you mean Europe/London?'),
      details: { field: 'tz', value: 'BST', suggestion: 'Europe/London' },
    });
  });
});

describe('schedule DST choice', () => {
  it('shows the choice in force, keeps one given, and refuses one for @every with DST_INVALID', async () => {
    t = await testApp();
    expect(json(await put('cron')).dst).toEqual({ gap: 'shift', repeat: 'first' });
    expect(json(await put('rrule', scheduleBody({ spec: 'FREQ=DAILY' }))).dst).toEqual({
      gap: 'skip',
      repeat: 'first',
    });
    expect(json(await put('every', scheduleBody({ spec: '@every 1h' }))).dst).toBeNull();
    const chosen = json(await put('chosen', scheduleBody({ dst: { repeat: 'both' } })));
    expect(chosen).toMatchObject({ dst: { gap: 'shift', repeat: 'both' }, version: 1 });
    const got = json(await t.request({ method: 'GET', url: '/v1/schedules/chosen', as: 'acme' }));
    expect(got.dst).toEqual({ gap: 'shift', repeat: 'both' });
    // Back to the default: a new version, and the default shows.
    const back = json(await put('chosen', scheduleBody({ dst: null })));
    expect(back).toMatchObject({ dst: { gap: 'shift', repeat: 'first' }, version: 2 });
    const refused = await put('every', scheduleBody({ spec: '@every 1h', dst: { gap: 'skip' } }));
    expect(refused.statusCode).toBe(400);
    expect(json(refused)).toMatchObject({ error: { code: 'DST_INVALID', details: { field: 'dst' } } });
    const bad = await put('cron', scheduleBody({ dst: { gap: 'later' } }));
    expect(bad.statusCode).toBe(400);
    expect(json(bad).error.code).toBe('VALIDATION_FAILED');
  });
});

describe('schedule fields: summary, labels, create paused, execution record', () => {
  it('keeps summary and labels, lists by ?label=, and refuses a malformed filter with 400', async () => {
    t = await testApp();
    const created = json(
      await put(
        'mail',
        scheduleBody({ summary: 'Digest for sales', labels: { jobType: 'email', team: 'sales' } }),
      ),
    );
    expect(created).toMatchObject({
      summary: 'Digest for sales',
      labels: { jobType: 'email', team: 'sales' },
    });
    expect(created.description).toMatch(/09:00/);
    await put('sms', scheduleBody({ labels: { jobType: 'sms' } }));
    await put('plain');
    const keys = async (query: string) =>
      json(await t.request({ method: 'GET', url: `/v1/schedules?${query}`, as: 'acme' })).items.map(
        (x: { key: string }) => x.key,
      );
    expect(await keys('label=jobType:email')).toEqual(['mail']);
    expect(await keys('label=jobType:email&label=team:sales')).toEqual(['mail']);
    expect(await keys('label=jobType:email&label=team:ops')).toEqual([]);
    expect(await keys('label=jobType%3Dsms')).toEqual(['sms']);
    const bad = await t.request({ method: 'GET', url: '/v1/schedules?label=jobType', as: 'acme' });
    expect(bad.statusCode).toBe(400);
    expect(json(bad)).toMatchObject({ error: { code: 'SCHEDULE_INVALID', details: { field: 'label' } } });
    const badLabel = await put('x', scheduleBody({ labels: { 'no spaces': 'v' } }));
    expect(badLabel.statusCode).toBe(400);
    expect(json(badLabel)).toMatchObject({
      error: { code: 'SCHEDULE_INVALID', details: { field: 'labels' } },
    });
  });

  it('creates a schedule paused with state: "paused"', async () => {
    t = await testApp();
    const res = await put('p', scheduleBody({ state: 'paused' }));
    expect(res.statusCode).toBe(201);
    expect(json(res)).toMatchObject({ state: 'paused', nextFireAt: null });
    expect(json(await put('p', scheduleBody({ state: 'active', spec: '0 10 * * *' })))).toMatchObject({
      state: 'paused',
      version: 2,
    });
  });

  it('shows firedCount, lastFiredAt and lastSucceededAt once a run has executed', async () => {
    t = await testApp({ start: true });
    expect(json(await put('k'))).toMatchObject({
      firedCount: 0,
      materializedCount: 0,
      lastFiredAt: null,
      lastSucceededAt: null,
    });
    const succeeded = new Promise<void>((resolve) => t.scheduler.on('run:succeeded', () => resolve()));
    await t.request({ method: 'POST', url: '/v1/schedules/k/trigger', as: 'acme' });
    await succeeded;
    const s = json(await t.request({ method: 'GET', url: '/v1/schedules/k', as: 'acme' }));
    expect(s).toMatchObject({ firedCount: 1, lastFiredAt: START, lastSucceededAt: START });
  });
});

describe('message id templates', () => {
  it('saves a webhook idTemplate and refuses an unknown placeholder with 400 ID_TEMPLATE_INVALID', async () => {
    t = await testApp();
    const target = (idTemplate: string) => ({ webhook: { url: 'https://example.com/hook', idTemplate } });
    const ok = await put('ids', scheduleBody({ target: target('{key}-{scheduledForSeconds}') }));
    expect(ok.statusCode).toBe(201);
    expect(json(ok).target).toEqual(target('{key}-{scheduledForSeconds}'));
    const bad = await put('ids2', scheduleBody({ target: target('{key}-{when}') }));
    expect(bad.statusCode).toBe(400);
    expect(json(bad)).toMatchObject({
      error: {
        code: 'ID_TEMPLATE_INVALID',
        details: { field: 'target.webhook.idTemplate', placeholder: 'when' },
      },
    });
    expect((await t.request({ method: 'GET', url: '/v1/schedules/ids2', as: 'acme' })).statusCode).toBe(404);
  });
});
