// `ctx.kv` from scripts: persisted in the tenant's store (what the API reads), with its quotas, and isolated
// by tenant whatever a script passes: other tenant ids as extra arguments or objects, keys with separators,
// prototype-polluting keys and values. The tenant is the run's, fixed by the host.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endOf, sandbox, TENANT_A, TENANT_B, valueOf, type Sandbox } from './support.js';

const LIMITS = { maxKeys: 1000, maxValueBytes: 16 * 1024 };

describe('script sandbox: ctx.kv', () => {
  let s: Sandbox;
  beforeAll(async () => {
    s = await sandbox({ poolSize: 1, limits: { kvMaxKeys: 20, kvMaxValueBytes: 1000 } });
  });
  afterAll(() => s.close());

  async function value(source: string, tenantId = TENANT_A): Promise<unknown> {
    return valueOf((await s.deliver(source, { tenantId })).outcome);
  }

  it('gets, sets, deletes and lists in the tenant’s store, seen by the API and seeing its writes', async () => {
    await s.store.kvSet(TENANT_A, 'from-api', { n: 1 }, 0, LIMITS);
    const found = await value(`export default async (ctx) => {
      const before = await ctx.kv.get('from-api');
      await ctx.kv.set('counter', 1);
      await ctx.kv.set('counter', (await ctx.kv.get('counter')) + 1);
      await ctx.kv.set('nothing', null);
      const missing = await ctx.kv.get('missing');
      const deleted = [await ctx.kv.delete('from-api'), await ctx.kv.delete('from-api')];
      return { before, counter: await ctx.kv.get('counter'), nothing: await ctx.kv.get('nothing'), missing: missing === undefined, deleted };
    }`);
    expect(found).toEqual({
      before: { n: 1 },
      counter: 2,
      nothing: null,
      missing: true,
      deleted: [true, false],
    });
    expect((await s.store.kvGet(TENANT_A, 'counter'))?.value).toBe(2);
    expect(await s.store.kvGet(TENANT_A, 'from-api')).toBeUndefined();
  });

  it('lists a page at a time with a prefix and a cursor', async () => {
    const found = await value(`export default async (ctx) => {
      for (const k of ['page/1', 'page/2', 'page/3', 'page/4', 'pager']) await ctx.kv.set(k, k);
      const keys = [];
      let cursor;
      do {
        const page = await ctx.kv.list({ prefix: 'page/', limit: 3, cursor });
        keys.push(page.items.map((i) => i.key + '=' + i.value).join());
        cursor = page.nextCursor;
      } while (cursor);
      return keys;
    }`);
    expect(found).toEqual(['page/1=page/1,page/2=page/2,page/3=page/3', 'page/4=page/4']);
  });

  it('isolates tenants whatever the arguments: ids, objects, separators and the receiver are ignored', async () => {
    await s.store.kvSet(TENANT_B, 'secret', 'b-secret', 0, LIMITS);
    await s.store.kvSet(TENANT_B, 'victim', 'b-victim', 0, LIMITS);
    await s.store.kvSet(TENANT_A, 'secret', 'a-secret', 0, LIMITS);
    const found = await value(`export default async (ctx) => {
      const B = '${TENANT_B}';
      Object.prototype.tenantId = B;
      const reads = [
        await ctx.kv.get('secret', B),
        await ctx.kv.get('secret', { tenantId: B }),
        await ctx.kv.get({ tenantId: B, key: 'secret' }),
        await ctx.kv.get(B + ':secret'),
        await ctx.kv.get(B + '/secret'),
        await ctx.kv.get('../' + B + '/secret'),
        await ctx.kv.get.call({ tenantId: B }, 'secret'),
        await Reflect.apply(ctx.kv.get, { tenant: B }, ['secret', B]),
      ];
      await ctx.kv.set('victim', 'overwritten by a', B);
      await ctx.kv.set(B + ':victim', 'a key of a');
      const deleted = await ctx.kv.delete('secret', B);
      const listed = (await ctx.kv.list({ prefix: '', tenantId: B, limit: 100 })).items.map((i) => i.key);
      return { reads, deleted, listed };
    }`);
    expect(found).toEqual({
      reads: ['a-secret', 'a-secret', undefined, undefined, undefined, undefined, 'a-secret', 'a-secret'].map(
        (v) => (v === undefined ? null : v),
      ),
      deleted: true,
      listed: expect.arrayContaining([`${TENANT_B}:victim`, 'victim']) as unknown,
    });
    // Tenant B's data is untouched; tenant A's writes landed in A's namespace.
    expect((await s.store.kvGet(TENANT_B, 'secret'))?.value).toBe('b-secret');
    expect((await s.store.kvGet(TENANT_B, 'victim'))?.value).toBe('b-victim');
    expect((await s.store.kvList(TENANT_B, { limit: 100 })).items.map((i) => i.key)).toEqual([
      'secret',
      'victim',
    ]);
    expect((await s.store.kvGet(TENANT_A, 'victim'))?.value).toBe('overwritten by a');
    expect(await s.store.kvGet(TENANT_A, 'secret')).toBeUndefined();
    // And tenant B, running the same script, sees only its own keys.
    expect(await value('export default async (ctx) => ctx.kv.get("secret")', TENANT_B)).toBe('b-secret');
  });

  it('keeps prototype-polluting keys and values as plain data, in the guest and in the host', async () => {
    const found = await value(`export default async (ctx) => {
      await ctx.kv.set('__proto__', { polluted: true });
      await ctx.kv.set('constructor', { prototype: { polluted: true } });
      await ctx.kv.set('p', JSON.parse('{"__proto__": {"polluted": true}}'));
      const p = await ctx.kv.get('p');
      return [(await ctx.kv.get('__proto__')).polluted, Object.keys(p).join(), ({}).polluted === undefined];
    }`);
    expect(found).toEqual([true, '__proto__', true]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await s.store.kvGet(TENANT_A, '__proto__'))?.value).toEqual({ polluted: true });
    expect(Object.keys((await s.store.kvGet(TENANT_A, 'p'))!.value as object)).toEqual(['__proto__']);
  });

  it('refuses bad keys with KV_INVALID, which the script can catch or let end the run', async () => {
    const caught = await value(`export default async (ctx) => {
      const codes = [];
      for (const k of ['', 'x'.repeat(257), 'a\\u0000b', 'line\\nbreak']) {
        try { await ctx.kv.set(k, 1); codes.push('stored'); } catch (e) { codes.push(e.code); }
      }
      try { await ctx.kv.set('k', undefined); } catch (e) { codes.push(e.name); }
      return codes;
    }`);
    expect(caught).toEqual(['KV_INVALID', 'KV_INVALID', 'KV_INVALID', 'KV_INVALID', 'TypeError']);
    const { outcome } = await s.deliver('export default (ctx) => ctx.kv.get("tab\\there")');
    expect(endOf(outcome)).toBe('retry:KV_INVALID');
  });

  it('enforces the key-count and value-size quotas with KV_QUOTA_EXCEEDED', async () => {
    const { outcome } = await s.deliver(`export default async (ctx) => {
      for (let i = 0; i < 100; i++) await ctx.kv.set('many/' + i, i);
    }`);
    expect(endOf(outcome)).toBe('retry:KV_QUOTA_EXCEEDED');
    expect(outcome.type === 'retry' && outcome.error.message).toMatch(/20 keys/);
    const sizes = await value(`export default async (ctx) => {
      const codes = [];
      for (const v of ['x'.repeat(900), 'x'.repeat(1100), 'x'.repeat(100000)]) {
        try { await ctx.kv.set('many/0', v); codes.push('stored'); } catch (e) { codes.push(e.code); }
      }
      return codes;
    }`);
    expect(sizes).toEqual(['stored', 'KV_QUOTA_EXCEEDED', 'KV_QUOTA_EXCEEDED']);
  });
});
