// POST /v1/schedules/bulk through app.inject on a real SQLite store: a JSON array and NDJSON with mixed
// new, changed, unchanged and bad items (each bad one refused alone, with its index or line, code and
// message), a re-run that is all unchanged, a dry run, the item limit and the maxSchedules quota.

import { afterEach, expect, it } from 'vitest';
import { json, scheduleBody, testApp, type TestApp } from '../support/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

interface Result {
  index: number;
  line?: number;
  key: string | null;
  outcome: string;
  version?: number;
  error?: { code: string; message: string; details: Record<string, unknown> };
}

const item = (key: string, overrides: Record<string, unknown> = {}) => ({ key, ...scheduleBody(overrides) });

function bulk(payload: unknown, opts: { query?: string; ndjson?: boolean } = {}) {
  return t.request({
    method: 'POST',
    url: `/v1/schedules/bulk${opts.query ?? ''}`,
    as: 'acme',
    payload: payload as string,
    headers: { 'content-type': opts.ndjson ? 'application/x-ndjson' : 'application/json' },
  });
}

it('writes the valid items, refuses each bad one alone, and answers per item with totals', async () => {
  t = await testApp();
  expect((await bulk([item('same'), item('changed')])).statusCode).toBe(200);
  const res = await bulk([
    item('fresh'),
    item('changed', { spec: '30 9 * * *' }),
    item('same'),
    item('bad-spec', { spec: '61 9 * * *' }),
    item('bad-field', { colour: 'red' }),
    item('fresh'),
  ]);
  expect(res.statusCode).toBe(200);
  const body = json(res);
  expect(body.totals).toEqual({ created: 1, updated: 1, unchanged: 1, refused: 3 });
  expect(body.dryRun).toBe(false);
  expect((body.items as Result[]).map((i) => [i.index, i.key, i.outcome, i.version, i.error?.code])).toEqual([
    [0, 'fresh', 'created', 1, undefined],
    [1, 'changed', 'updated', 2, undefined],
    [2, 'same', 'unchanged', 1, undefined],
    [3, 'bad-spec', 'refused', undefined, 'SPEC_INVALID'],
    [4, 'bad-field', 'refused', undefined, 'VALIDATION_FAILED'],
    [5, 'fresh', 'refused', undefined, 'BULK_KEY_DUPLICATE'],
  ]);
  expect(body.items[4].error).toMatchObject({
    message: 'item 4.colour: is not a known field',
    details: { field: 'colour' },
  });
  expect(body.items[5].error.details).toMatchObject({ key: 'fresh', firstIndex: 0 });
  const api = t.scheduler.tenant('acme');
  expect(await api.get('bad-spec')).toBeUndefined();
  expect((await api.get('changed'))?.spec).toBe('30 9 * * *');
  // The revision names the API key that made the change.
  const history = await api.history('changed');
  expect(history.items[0]).toMatchObject({ version: 2, change: 'updated' });
  expect(history.items[0]!.actor).toBe('apiKey:1 (test)');
});

it('reads NDJSON line by line: a line that is not JSON is refused by its number, the rest written', async () => {
  t = await testApp();
  const text = [JSON.stringify(item('a')), '', '{"key": "b", oops', JSON.stringify(item('c'))].join('\n');
  const body = json(await bulk(text, { ndjson: true }));
  expect((body.items as Result[]).map((i) => [i.index, i.line, i.key, i.outcome, i.error?.code])).toEqual([
    [0, 1, 'a', 'created', undefined],
    [1, 3, null, 'refused', 'MALFORMED_JSON'],
    [2, 4, 'c', 'created', undefined],
  ]);
  expect(body.items[1].error.message).toMatch(/^line 3: not valid JSON/);
  const again = json(await bulk(text, { ndjson: true }));
  expect(again.totals).toEqual({ created: 0, updated: 0, unchanged: 2, refused: 1 });
});

it('writes nothing on a dry run, and refuses an empty or oversized body whole', async () => {
  t = await testApp();
  const before = await t.snapshot();
  const dry = json(await bulk([item('a'), item('b', { spec: 'nope' })], { query: '?dryRun=true' }));
  expect(dry).toMatchObject({ dryRun: true, totals: { created: 1, refused: 1 } });
  expect((await bulk([])).statusCode).toBe(400);
  const tooMany = await bulk(Array.from({ length: 5001 }, (_, i) => ({ key: `k${i}` })));
  expect(tooMany.statusCode).toBe(400);
  expect(json(tooMany).error.code).toBe('VALIDATION_FAILED');
  expect(await t.snapshot()).toBe(before);
});

it('counts the creates of the whole request against maxSchedules and writes nothing past it', async () => {
  t = await testApp({ quotas: { acme: { maxSchedules: 3 } } });
  await bulk([item('a')]);
  const before = await t.snapshot();
  const res = await bulk([item('a', { spec: '5 9 * * *' }), item('b'), item('c'), item('d')]);
  expect(res.statusCode).toBe(429);
  expect(json(res).error).toMatchObject({
    code: 'QUOTA_EXCEEDED',
    details: { limit: 3, current: 1, asked: 3 },
  });
  expect(await t.snapshot()).toBe(before);
  expect(json(await bulk([item('b'), item('c')])).totals.created).toBe(2);
});
