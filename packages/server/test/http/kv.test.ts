// /v1/kv through app.inject on a real SQLite store: write (201, then 200), read, list by prefix with cursors,
// delete (204, then 404); keys that need percent-encoding (separators, spaces, `%`, `?`, `#`, non-ASCII, the
// longest key); any JSON value as the body; KV_INVALID, the key and size quotas (429, 413); and tenant
// isolation: globex never sees, reads, overwrites or deletes acme's keys.

import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SCRIPT_LIMITS } from 'punctual';
import { json, START, testApp, type TenantName, type TestApp } from '../support/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const path = (key: string): string => `/v1/kv/${encodeURIComponent(key)}`;
const put = (key: string, value: unknown, as: TenantName = 'acme') =>
  t.request({
    method: 'PUT',
    url: path(key),
    as,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(value),
  });
const get = (key: string, as: TenantName = 'acme') => t.request({ method: 'GET', url: path(key), as });
const del = (key: string, as: TenantName = 'acme') => t.request({ method: 'DELETE', url: path(key), as });
const list = (query = '', as: TenantName = 'acme') => t.request({ method: 'GET', url: `/v1/kv${query}`, as });

describe('one key', () => {
  it('writes (201 then 200), reads, and deletes (204 then 404)', async () => {
    t = await testApp();
    const created = await put('shop-token', { token: 'abc', n: 1 });
    expect(created.statusCode).toBe(201);
    expect(json(created)).toEqual({ key: 'shop-token', value: { token: 'abc', n: 1 }, updatedAt: START });
    expect(created.headers.location).toBe('/v1/kv/shop-token');

    await t.clock.advance(5000);
    const replaced = await put('shop-token', [1, 2, 3]);
    expect(replaced.statusCode).toBe(200);
    expect(json(replaced)).toEqual({
      key: 'shop-token',
      value: [1, 2, 3],
      updatedAt: '2026-01-05T09:00:05.000Z',
    });

    const read = await get('shop-token');
    expect(read.statusCode).toBe(200);
    expect(json(read)).toEqual(json(replaced));

    expect((await del('shop-token')).statusCode).toBe(204);
    const gone = await get('shop-token');
    expect(gone.statusCode).toBe(404);
    expect(json(gone).error).toMatchObject({ code: 'NOT_FOUND', details: { key: 'shop-token' } });
    expect((await del('shop-token')).statusCode).toBe(404);
  });

  it.each([
    ['an object', { a: { b: [1, null, true] } }],
    ['an array', ['x', 2]],
    ['a string', 'hello'],
    ['a number', 42.5],
    ['false', false],
    ['null', null],
  ])('stores %s as the value', async (_name, value) => {
    t = await testApp();
    expect((await put('v', value)).statusCode).toBe(201);
    expect(json(await get('v')).value).toEqual(value);
  });

  it.each([
    ['a slash', 'orders/2026/01'],
    ['spaces and a plus', 'a b+c'],
    ['percent, question mark, hash, ampersand', '100%?x=1#frag&y'],
    ['colons and dots', 'other-tenant:secret.v1'],
    ['non-ASCII letters', 'clé-été-東京'],
    ['an emoji', 'count-😀'],
    ['a backslash and quotes', `a\\b"c'`],
    ['the longest key (256 characters of 3 UTF-8 bytes)', '€'.repeat(256)],
  ])('addresses a key with %s through percent-encoding', async (_name, key) => {
    t = await testApp();
    const created = await put(key, { key });
    expect(created.statusCode).toBe(201);
    expect(json(created).key).toBe(key);
    expect(created.headers.location).toBe(path(key));
    const read = await get(key);
    expect(read.statusCode).toBe(200);
    expect(json(read)).toMatchObject({ key, value: { key } });
    expect(json(await list()).items.map((i: { key: string }) => i.key)).toEqual([key]);
    expect((await t.store.kvGet('acme', key))?.value).toEqual({ key });
    expect((await del(key)).statusCode).toBe(204);
  });

  it('refuses bad keys and values with KV_INVALID, and a missing body', async () => {
    t = await testApp();
    const tooLong = await put('k'.repeat(257), 1);
    expect(tooLong.statusCode).toBe(400);
    expect(json(tooLong).error).toMatchObject({ code: 'KV_INVALID', details: { field: 'key' } });
    const control = await put('a\nb', 1);
    expect(json(control).error).toMatchObject({ code: 'KV_INVALID', details: { field: 'key' } });
    const lone = await t.request({ method: 'GET', url: '/v1/kv/%ED%A0%80', as: 'acme' });
    expect(lone.statusCode).toBe(400);

    let deep: unknown = 1;
    for (let i = 0; i < 70; i++) deep = [deep];
    const tooDeep = await put('deep', deep);
    expect(tooDeep.statusCode).toBe(400);
    expect(json(tooDeep).error).toMatchObject({ code: 'KV_INVALID', details: { field: 'value' } });

    const empty = await t.request({
      method: 'PUT',
      url: '/v1/kv/x',
      as: 'acme',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.statusCode).toBe(400);
    expect(json(empty).error.code).toBe('VALIDATION_FAILED');
    // No body and no Content-Type at all: refused too (Fastify would otherwise validate it as null).
    const none = await t.request({ method: 'PUT', url: '/v1/kv/x', as: 'acme' });
    expect(none.statusCode).toBe(400);
    expect(json(none).error).toMatchObject({ code: 'VALIDATION_FAILED', details: { in: 'body' } });
    const text = await t.request({
      method: 'PUT',
      url: '/v1/kv/x',
      as: 'acme',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(text.statusCode).toBe(415);
    expect(await t.store.kvList('acme', { limit: 10 })).toEqual({ items: [] });
  });

  it('answers 413 for a value over the size limit and 429 for a key beyond the key quota', async () => {
    t = await testApp();
    const big = await put('big', 'x'.repeat(DEFAULT_SCRIPT_LIMITS.kvMaxValueBytes));
    expect(big.statusCode).toBe(413);
    expect(json(big).error).toMatchObject({
      code: 'KV_QUOTA_EXCEEDED',
      details: { field: 'value', limit: DEFAULT_SCRIPT_LIMITS.kvMaxValueBytes },
    });

    const limits = { maxKeys: DEFAULT_SCRIPT_LIMITS.kvMaxKeys, maxValueBytes: 1024 };
    for (let i = 0; i < limits.maxKeys; i++) await t.store.kvSet('acme', `k${i}`, i, 0, limits);
    const full = await put('one-more', 1);
    expect(full.statusCode).toBe(429);
    expect(json(full).error).toMatchObject({
      code: 'KV_QUOTA_EXCEEDED',
      details: { field: 'key', limit: limits.maxKeys },
    });
    // Replacing an existing key never counts as a new one; another tenant has its own quota.
    expect((await put('k7', 'seven')).statusCode).toBe(200);
    expect((await put('one-more', 1, 'globex')).statusCode).toBe(201);
  });
});

describe('GET /v1/kv', () => {
  it('lists in key order by literal prefix, a page at a time', async () => {
    t = await testApp();
    for (const k of ['b/2', 'a/1', 'b/1', 'b%', 'b_x', 'c', 'b/3'])
      expect((await put(k, k)).statusCode).toBe(201);

    const all = json(await list());
    expect(all.items.map((i: { key: string }) => i.key)).toEqual([
      'a/1',
      'b%',
      'b/1',
      'b/2',
      'b/3',
      'b_x',
      'c',
    ]);
    expect(all.items[0]).toEqual({ key: 'a/1', value: 'a/1', updatedAt: START });
    expect(all.nextCursor).toBeNull();

    const first = json(await list(`?prefix=${encodeURIComponent('b/')}&limit=2`));
    expect(first.items.map((i: { key: string }) => i.key)).toEqual(['b/1', 'b/2']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = json(await list(`?prefix=${encodeURIComponent('b/')}&limit=2&cursor=${first.nextCursor}`));
    expect(second.items.map((i: { key: string }) => i.key)).toEqual(['b/3']);
    expect(second.nextCursor).toBeNull();

    // `%` and `_` are characters, not wildcards.
    const percent = json(await list(`?prefix=${encodeURIComponent('b%')}`));
    expect(percent.items.map((i: { key: string }) => i.key)).toEqual(['b%']);
    const underscore = json(await list('?prefix=b_'));
    expect(underscore.items.map((i: { key: string }) => i.key)).toEqual(['b_x']);
  });

  it('refuses a bad cursor, limit or query field', async () => {
    t = await testApp();
    expect(json(await list('?cursor=nope')).error.code).toBe('CURSOR_INVALID');
    expect((await list('?limit=0')).statusCode).toBe(400);
    expect((await list('?limit=1001')).statusCode).toBe(400);
    expect(json(await list('?keyPrefix=a')).error.code).toBe('VALIDATION_FAILED');
  });
});

describe('tenant isolation', () => {
  it("never shows, reads, overwrites or deletes another tenant's keys", async () => {
    t = await testApp();
    expect((await put('secret', { owner: 'acme' })).statusCode).toBe(201);
    expect((await put('acme:secret', 'x')).statusCode).toBe(201);

    expect(json(await list('', 'globex'))).toEqual({ items: [], nextCursor: null });
    expect(json(await list('?prefix=secret', 'globex')).items).toEqual([]);
    expect((await get('secret', 'globex')).statusCode).toBe(404);
    expect((await get('acme:secret', 'globex')).statusCode).toBe(404);
    expect((await del('secret', 'globex')).statusCode).toBe(404);

    // globex writing the same key makes its own entry; acme's stays as it was.
    expect((await put('secret', { owner: 'globex' }, 'globex')).statusCode).toBe(201);
    expect(json(await get('secret')).value).toEqual({ owner: 'acme' });
    expect(json(await get('secret', 'globex')).value).toEqual({ owner: 'globex' });
    expect((await del('secret', 'globex')).statusCode).toBe(204);
    expect(json(await get('secret')).value).toEqual({ owner: 'acme' });
  });

  it('needs an API key', async () => {
    t = await testApp();
    expect((await t.request({ method: 'GET', url: '/v1/kv' })).statusCode).toBe(401);
    expect((await t.request({ method: 'PUT', url: '/v1/kv/x', payload: { a: 1 } })).statusCode).toBe(401);
  });
});

describe('OpenAPI', () => {
  it('documents the kv routes, with the value as a required body', async () => {
    t = await testApp();
    const doc = json(await t.request({ method: 'GET', url: '/openapi.json' }));
    expect(Object.keys(doc.paths['/v1/kv'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/v1/kv/{key}']).sort()).toEqual(['delete', 'get', 'put']);
    const putOp = doc.paths['/v1/kv/{key}'].put;
    expect(putOp.requestBody.required).toBe(true);
    expect(Object.keys(putOp.responses)).toEqual(expect.arrayContaining(['200', '201', '400', '413', '429']));
    expect(doc.components.schemas.KvEntry).toBeDefined();
  });
});
