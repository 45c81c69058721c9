// /v1/runs through app.inject: listing with state, schedule and time filters and cursors; one run with its
// attempts and error; cancelling (200, then 409 once final); missing runs answer 404.

import { afterEach, describe, expect, it } from 'vitest';
import { json, scheduleBody, testApp, type TestApp } from '../support/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

async function seed(): Promise<void> {
  await t.request({
    method: 'PUT',
    url: '/v1/schedules/hourly',
    as: 'acme',
    payload: scheduleBody({ spec: '0 * * * *', tz: 'UTC' }),
  });
  await t.request({ method: 'PUT', url: '/v1/schedules/other', as: 'acme', payload: scheduleBody() });
  await t.request({
    method: 'POST',
    url: '/v1/schedules/hourly/backfill',
    as: 'acme',
    payload: { from: '2026-01-05T01:00:00Z', to: '2026-01-05T06:00:00Z' },
  });
  await t.request({ method: 'POST', url: '/v1/schedules/other/trigger', as: 'acme' });
}

const times = (page: { items?: { scheduledFor: string }[] }): string[] =>
  (page.items ?? []).map((r) => r.scheduledFor.slice(11, 16));

describe('GET /v1/runs', () => {
  it('lists every run of the tenant, newest first, with filters', async () => {
    t = await testApp();
    await seed();
    const all = json(await t.request({ method: 'GET', url: '/v1/runs', as: 'acme' }));
    expect(all.items).toHaveLength(6);
    expect(times(all)).toEqual(['09:00', '05:00', '04:00', '03:00', '02:00', '01:00']);
    const bySchedule = json(
      await t.request({ method: 'GET', url: '/v1/runs?scheduleKey=other', as: 'acme' }),
    );
    expect(bySchedule.items.map((r: { kind: string }) => r.kind)).toEqual(['manual']);
    const ranged = json(
      await t.request({
        method: 'GET',
        url: '/v1/runs?from=2026-01-05T02:00:00Z&to=2026-01-05T04:00:00Z',
        as: 'acme',
      }),
    );
    expect(times(ranged)).toEqual(['03:00', '02:00']);
    const cancelled = json(await t.request({ method: 'GET', url: '/v1/runs?state=cancelled', as: 'acme' }));
    expect(cancelled.items).toEqual([]);
    expect(json(await t.request({ method: 'GET', url: '/v1/runs', as: 'globex' })).items).toEqual([]);
  });

  it('pages by cursor without repeating or losing a run', async () => {
    t = await testApp();
    await seed();
    const seen: string[] = [];
    let url = '/v1/runs?limit=4';
    for (let i = 0; i < 10; i++) {
      const page = json(await t.request({ method: 'GET', url, as: 'acme' }));
      seen.push(...page.items.map((r: { id: string }) => r.id));
      if (page.nextCursor === null) break;
      url = `/v1/runs?limit=4&cursor=${encodeURIComponent(page.nextCursor)}`;
    }
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
  });
});

describe('GET /v1/runs/{id}', () => {
  it('shows a failed run with its attempts, error and timings', async () => {
    t = await testApp({ start: true });
    await t.request({
      method: 'PUT',
      url: '/v1/schedules/f',
      as: 'acme',
      payload: scheduleBody({ target: { handler: 'fails' }, policies: { retry: { maxAttempts: 1 } } }),
    });
    const dead = new Promise<void>((resolve) => t.scheduler.on('run:dead', () => resolve()));
    const run = json(await t.request({ method: 'POST', url: '/v1/schedules/f/trigger', as: 'acme' }));
    await dead;
    const res = await t.request({ method: 'GET', url: `/v1/runs/${run.id}`, as: 'acme' });
    expect(res.statusCode).toBe(200);
    const detail = json(res);
    expect(detail).toMatchObject({
      id: run.id,
      state: 'dead',
      attempt: 1,
      maxAttempts: 1,
      error: { message: 'handler failed' },
    });
    expect(detail.error).not.toHaveProperty('stack');
    expect(detail.attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        outcome: 'failed',
        error: expect.objectContaining({ message: 'handler failed' }),
      }),
    ]);
  });

  it('answers 404 RUN_NOT_FOUND for an unknown id', async () => {
    t = await testApp();
    for (const id of ['999', 'abc']) {
      const res = await t.request({ method: 'GET', url: `/v1/runs/${id}`, as: 'acme' });
      expect(res.statusCode).toBe(404);
      expect(json(res).error).toMatchObject({ code: 'RUN_NOT_FOUND', details: { id } });
    }
  });
});

describe('POST /v1/runs/{id}/cancel', () => {
  it('cancels a pending run (200), then answers 409 RUN_NOT_CANCELLABLE; unknown is 404', async () => {
    t = await testApp();
    await seed();
    const [run] = json(
      await t.request({ method: 'GET', url: '/v1/runs?scheduleKey=other', as: 'acme' }),
    ).items;
    const res = await t.request({ method: 'POST', url: `/v1/runs/${run.id}/cancel`, as: 'acme' });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ id: run.id, state: 'cancelled', reason: 'manual' });
    const before = await t.snapshot();
    const again = await t.request({ method: 'POST', url: `/v1/runs/${run.id}/cancel`, as: 'acme' });
    expect(again.statusCode).toBe(409);
    expect(json(again).error).toMatchObject({ code: 'RUN_NOT_CANCELLABLE', details: { state: 'cancelled' } });
    expect(await t.snapshot()).toBe(before);
    const unknown = await t.request({ method: 'POST', url: '/v1/runs/12345/cancel', as: 'acme' });
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown).error.code).toBe('RUN_NOT_FOUND');
  });
});

describe('reruns', () => {
  /** A schedule whose handler fails until `fixed.value` is true, and one dead manual run of it. */
  async function deadRun(fixed: {
    value: boolean;
  }): Promise<{ id: string; occurrenceId: string; scheduledFor: string }> {
    t.scheduler.handle('flaky', () => {
      if (!fixed.value) throw new Error('bug');
    });
    await t.request({
      method: 'PUT',
      url: '/v1/schedules/flaky',
      as: 'acme',
      payload: scheduleBody({ target: { handler: 'flaky' }, policies: { retry: { maxAttempts: 1 } } }),
    });
    const died = new Promise<void>((resolve) => t.scheduler.on('run:dead', () => resolve()));
    const run = json<{ id: string; occurrenceId: string; scheduledFor: string }>(
      await t.request({ method: 'POST', url: '/v1/schedules/flaky/trigger', as: 'acme' }),
    );
    await died;
    return run;
  }

  it('POST /v1/runs/{id}/rerun runs a dead run again as the same occurrence', async () => {
    t = await testApp({ start: true });
    const fixed = { value: false };
    const run = await deadRun(fixed);
    fixed.value = true;
    const succeeded = new Promise<string>((resolve) =>
      t.scheduler.on('run:succeeded', ({ run: r }) => resolve(r.id)),
    );
    const res = await t.request({ method: 'POST', url: `/v1/runs/${run.id}/rerun`, as: 'acme' });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({
      id: run.id,
      occurrenceId: run.occurrenceId,
      scheduledFor: run.scheduledFor,
      state: 'scheduled',
      reason: 'rerun',
    });
    expect(await succeeded).toBe(run.id);
    const detail = json(await t.request({ method: 'GET', url: `/v1/runs/${run.id}`, as: 'acme' }));
    expect(detail.attempts.map((a: { outcome: string }) => a.outcome)).toEqual(['failed', 'succeeded']);

    const missing = await t.request({ method: 'POST', url: '/v1/runs/424242/rerun', as: 'globex' });
    expect(missing.statusCode).toBe(404);
  });

  it('POST /v1/runs/{id}/rerun refuses a run not final yet with 409 RUN_NOT_RERUNNABLE', async () => {
    t = await testApp();
    await t.request({ method: 'PUT', url: '/v1/schedules/k', as: 'acme', payload: scheduleBody() });
    const pending = json(await t.request({ method: 'POST', url: '/v1/schedules/k/trigger', as: 'acme' }));
    const refused = await t.request({ method: 'POST', url: `/v1/runs/${pending.id}/rerun`, as: 'acme' });
    expect(refused.statusCode).toBe(409);
    expect(json(refused)).toMatchObject({
      error: { code: 'RUN_NOT_RERUNNABLE', details: { why: 'notFinal', state: 'scheduled' } },
    });
  });

  it('POST /v1/schedules/{key}/rerun reruns the dead runs of a range and checks the body', async () => {
    t = await testApp({ start: true });
    const fixed = { value: false };
    const run = await deadRun(fixed);
    const other = await t.request({
      method: 'POST',
      url: '/v1/schedules/flaky/rerun',
      as: 'acme',
      payload: { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' },
    });
    expect(json(other)).toEqual({ runs: [], refused: [] });
    const res = await t.request({
      method: 'POST',
      url: '/v1/schedules/flaky/rerun',
      as: 'acme',
      payload: { from: '2026-01-05T00:00:00Z', to: '2026-01-06T00:00:00Z', states: ['dead'] },
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({
      runs: [{ id: run.id, state: 'scheduled', reason: 'rerun' }],
      refused: [],
    });
    const bad = await t.request({
      method: 'POST',
      url: '/v1/schedules/flaky/rerun',
      as: 'acme',
      payload: { from: '2026-01-05T00:00:00Z', to: '2026-01-06T00:00:00Z', states: ['running'] },
    });
    expect(bad.statusCode).toBe(400);
    const missing = await t.request({
      method: 'POST',
      url: '/v1/schedules/flaky/rerun',
      as: 'globex',
      payload: { from: '2026-01-05T00:00:00Z', to: '2026-01-06T00:00:00Z' },
    });
    expect(missing.statusCode).toBe(404);
  });
});
