// Conformance: the tenant key-value store (KvStore), an optional part of a store: conformance.ts runs this
// group only for a store that has it (hasKv). Covers get/set/delete/list, the key and value rules, both
// quotas, paging, and tenant isolation. Speaks only the contract, never SQL; instants are fixed.

import { expect, it } from 'vitest';
import type { KvLimits, KvStore } from '../../../src/store/kv-store.js';
import type { Store } from '../../../src/store/store.js';
import { OTHER_TENANT, T0, TENANT } from '../../support/fixtures.js';
import { rejectsWithCode, type Ctx } from './helpers.js';

export { hasKv } from '../../../src/store/kv-store.js';

const LIMITS: KvLimits = { maxKeys: 100, maxValueBytes: 1024 };

export function kvTests(ctx: Ctx): void {
  const store = (): Store & KvStore => ctx.store as Store & KvStore;
  const set = (
    key: string,
    value: unknown,
    opts: { tenant?: string; now?: number; limits?: KvLimits } = {},
  ) => store().kvSet(opts.tenant ?? TENANT, key, value as never, opts.now ?? T0, opts.limits ?? LIMITS);
  const keys = async (tenant: string, prefix?: string): Promise<string[]> => {
    const out: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store().kvList(tenant, { prefix, cursor, limit: 2 });
      out.push(...page.items.map((i) => i.key));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return out;
  };

  it('writes, reads back, replaces and deletes a value', async () => {
    expect(await store().kvGet(TENANT, 'greeting')).toBeUndefined();
    await set('greeting', { text: 'héllo ✓ 🎉', n: [1, 2.5, null, true] });
    expect(await store().kvGet(TENANT, 'greeting')).toEqual({
      value: { text: 'héllo ✓ 🎉', n: [1, 2.5, null, true] },
      updatedAt: T0,
    });
    await set('greeting', 'bye', { now: T0 + 5 });
    expect(await store().kvGet(TENANT, 'greeting')).toEqual({ value: 'bye', updatedAt: T0 + 5 });
    expect(await store().kvDelete(TENANT, 'greeting')).toBe(true);
    expect(await store().kvDelete(TENANT, 'greeting')).toBe(false);
    expect(await store().kvGet(TENANT, 'greeting')).toBeUndefined();
  });

  it('keeps null, scalars and empty containers as values', async () => {
    for (const [k, v] of [
      ['null', null],
      ['zero', 0],
      ['false', false],
      ['empty-string', ''],
      ['empty-array', []],
      ['empty-object', {}],
    ] as const) {
      await set(k, v);
      expect((await store().kvGet(TENANT, k))?.value).toEqual(v);
    }
  });

  it('accepts keys of 1 to 256 characters with separators and unicode, refuses the rest with KV_INVALID', async () => {
    for (const k of [
      'a',
      'x'.repeat(256),
      'orders/2026:01',
      'tenant-b:secret',
      '%_*?[',
      'ключ 🔑',
      '__proto__',
    ]) {
      await set(k, k);
      expect((await store().kvGet(TENANT, k))?.value).toBe(k);
    }
    for (const k of ['', 'x'.repeat(257), 'a\u0000b', 'line\nbreak', 'del\u007f', 'c1\u0085', 'lone\ud800']) {
      await rejectsWithCode(set(k, 1), 'KV_INVALID');
      await rejectsWithCode(store().kvGet(TENANT, k), 'KV_INVALID');
      await rejectsWithCode(store().kvDelete(TENANT, k), 'KV_INVALID');
    }
    await rejectsWithCode(set(42 as unknown as string, 1), 'KV_INVALID');
  });

  it('refuses values that are not plain JSON with KV_INVALID', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    for (const v of [
      undefined,
      () => 1,
      Number.NaN,
      Infinity,
      { a: undefined },
      cyclic,
      new Date(T0),
      deep,
    ]) {
      await rejectsWithCode(set('k', v), 'KV_INVALID');
    }
    expect(await store().kvGet(TENANT, 'k')).toBeUndefined();
  });

  it('refuses a value over maxValueBytes (UTF-8 bytes of its JSON) with KV_QUOTA_EXCEEDED', async () => {
    const limits = { maxKeys: 10, maxValueBytes: 10 };
    await set('fits', 'x'.repeat(8), { limits }); // "xxxxxxxx" is 10 bytes
    const details = await rejectsWithCode(set('big', 'x'.repeat(9), { limits }), 'KV_QUOTA_EXCEEDED');
    expect(details).toMatchObject({ bytes: 11, limit: 10 });
    await rejectsWithCode(set('wide', 'ééééé', { limits }), 'KV_QUOTA_EXCEEDED'); // 5 characters, 12 bytes
    expect(await store().kvGet(TENANT, 'big')).toBeUndefined();
  });

  it('refuses a new key beyond maxKeys, but replaces existing keys and counts per tenant', async () => {
    const limits = { maxKeys: 3, maxValueBytes: 100 };
    for (const k of ['a', 'b', 'c']) await set(k, 1, { limits });
    const details = await rejectsWithCode(set('d', 1, { limits }), 'KV_QUOTA_EXCEEDED');
    expect(details).toMatchObject({ limit: 3 });
    await set('c', 2, { limits }); // replacing does not add a key
    expect((await store().kvGet(TENANT, 'c'))?.value).toBe(2);
    await set('d', 1, { limits, tenant: OTHER_TENANT }); // the other tenant has its own count
    expect(await store().kvDelete(TENANT, 'a')).toBe(true);
    await set('d', 1, { limits });
    expect(await keys(TENANT)).toEqual(['b', 'c', 'd']);
  });

  it('lists in key order, a page at a time, each key exactly once', async () => {
    const all = ['b', 'a', 'c/1', 'c/2', 'c/3', 'd', 'ab', 'é', 'z'];
    for (const k of all) await set(k, { k });
    expect(await keys(TENANT)).toEqual(['a', 'ab', 'b', 'c/1', 'c/2', 'c/3', 'd', 'z', 'é']);
    const page = await store().kvList(TENANT, { limit: 3 });
    expect(page.items).toEqual([
      { key: 'a', value: { k: 'a' }, updatedAt: T0 },
      { key: 'ab', value: { k: 'ab' }, updatedAt: T0 },
      { key: 'b', value: { k: 'b' }, updatedAt: T0 },
    ]);
    expect(page.nextCursor).toBeDefined();
    const rest = await store().kvList(TENANT, { limit: 1000, cursor: page.nextCursor });
    expect(rest.items.map((i) => i.key)).toEqual(['c/1', 'c/2', 'c/3', 'd', 'z', 'é']);
    expect(rest.nextCursor).toBeUndefined();
  });

  it('lists by literal prefix (no wildcard), stopping at the end of the prefix', async () => {
    for (const k of ['c/1', 'c/2', 'c/3', 'c0', 'c', 'b/1', 'd/1', '%x', '_y', 'a%x']) await set(k, 1);
    expect(await keys(TENANT, 'c/')).toEqual(['c/1', 'c/2', 'c/3']);
    expect(await keys(TENANT, 'c')).toEqual(['c', 'c/1', 'c/2', 'c/3', 'c0']);
    expect(await keys(TENANT, '%')).toEqual(['%x']);
    expect(await keys(TENANT, '_')).toEqual(['_y']);
    expect(await keys(TENANT, 'nothing')).toEqual([]);
    const exact = await store().kvList(TENANT, { prefix: 'c/', limit: 3 });
    expect(exact.items).toHaveLength(3);
    expect(exact.nextCursor).toBeUndefined();
  });

  it('refuses a bad page size, prefix or cursor', async () => {
    await rejectsWithCode(store().kvList(TENANT, { limit: 0 }), 'KV_INVALID');
    await rejectsWithCode(store().kvList(TENANT, { limit: 1001 }), 'KV_INVALID');
    await rejectsWithCode(store().kvList(TENANT, { limit: 1.5 }), 'KV_INVALID');
    await rejectsWithCode(store().kvList(TENANT, { limit: 10, prefix: 'a\nb' }), 'KV_INVALID');
    await rejectsWithCode(store().kvList(TENANT, { limit: 10, cursor: 'not-a-cursor' }), 'CURSOR_INVALID');
  });

  it('isolates tenants: the same key is two entries, and no call reaches the other tenant', async () => {
    await set('shared', 'mine');
    await set('shared', 'theirs', { tenant: OTHER_TENANT });
    await set(`${OTHER_TENANT}:shared`, 'a key with the other tenant in it');
    await set('only-theirs', 1, { tenant: OTHER_TENANT });
    expect((await store().kvGet(TENANT, 'shared'))?.value).toBe('mine');
    expect((await store().kvGet(OTHER_TENANT, 'shared'))?.value).toBe('theirs');
    expect(await store().kvGet(TENANT, 'only-theirs')).toBeUndefined();
    expect(await store().kvDelete(TENANT, 'only-theirs')).toBe(false);
    expect(await keys(TENANT)).toEqual(['shared', `${OTHER_TENANT}:shared`]);
    expect(await keys(OTHER_TENANT)).toEqual(['only-theirs', 'shared']);
    // A cursor from one tenant's listing does not open the other's.
    const page = await store().kvList(OTHER_TENANT, { limit: 1 });
    const crossed = await store().kvList(TENANT, { limit: 10, cursor: page.nextCursor });
    expect(crossed.items.map((i) => i.key)).toEqual(['shared', `${OTHER_TENANT}:shared`]);
    expect(await store().kvDelete(TENANT, 'shared')).toBe(true);
    expect((await store().kvGet(OTHER_TENANT, 'shared'))?.value).toBe('theirs');
  });
}
