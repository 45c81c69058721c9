// Conformance: the tenancy contract (tenants, API keys by hash, the quota counts) and the store stats.
// Tenancy is an optional part of a store: conformance.ts skips its group for a store that lacks it
// (hasTenancy); stats are required. Speaks only the contracts, never SQL; instants are fixed, never the clock.

import { expect, it } from 'vitest';
import type { Store } from '../../../src/store/store.js';
import type { TenantQuotas, TenantStore } from '../../../src/store/tenant-store.js';
import { draft, MINUTE, OTHER_TENANT, runInsert, T0, TENANT } from '../../support/fixtures.js';
import { addRuns, claim, create, ids, rejectsWithCode, settlement, type Ctx } from './helpers.js';

type TenantfulStore = Store & TenantStore;

export function hasTenancy(store: Store): store is TenantfulStore {
  return 'createTenant' in store;
}

const QUOTAS: TenantQuotas = { maxSchedules: 100, maxRunsPerMinute: 60, requestsPerSecond: 10 };
const UNLIMITED: TenantQuotas = { maxSchedules: null, maxRunsPerMinute: null, requestsPerSecond: null };
const DAY = 24 * 60 * MINUTE;
const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);
const HASH_C = 'c'.repeat(64);

export function tenantTests(ctx: Ctx): void {
  const store = (): TenantfulStore => ctx.store as TenantfulStore;

  async function tenant(id: string, quotas: TenantQuotas = QUOTAS, now = T0): Promise<void> {
    await store().createTenant({ id, quotas, webhookSecret: `whsec_${id}`, now });
  }

  async function key(tenantId: string, hash: string, name: string | null = null, now = T0) {
    return store().createApiKey({ tenantId, prefix: `pk_${hash.slice(0, 4)}`, hash, name, now });
  }

  it('creates an active tenant and reads it back', async () => {
    const created = await store().createTenant({
      id: 'acme',
      quotas: QUOTAS,
      webhookSecret: 'whsec_1',
      now: T0,
    });
    expect(created).toEqual({
      id: 'acme',
      state: 'active',
      quotas: QUOTAS,
      webhookSecret: 'whsec_1',
      previousWebhookSecret: null,
      previousSecretUntil: null,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(await store().getTenant('acme')).toEqual(created);
    expect(await store().getTenant('nobody')).toBeUndefined();
  });

  it('keeps unlimited (null) quotas and fractional requests per second', async () => {
    await tenant('free', UNLIMITED);
    await tenant('slow', { ...UNLIMITED, requestsPerSecond: 0.5 });
    expect((await store().getTenant('free'))?.quotas).toEqual(UNLIMITED);
    expect((await store().getTenant('slow'))?.quotas.requestsPerSecond).toBe(0.5);
  });

  it('lists every tenant by id', async () => {
    expect(await store().listTenants()).toEqual([]);
    for (const id of ['zeta', 'alpha', 'mid']) await tenant(id);
    expect(ids(await store().listTenants())).toEqual(['alpha', 'mid', 'zeta']);
  });

  it('refuses a taken id with TENANT_EXISTS and keeps the first tenant', async () => {
    await tenant('acme');
    const first = await store().getTenant('acme');
    const details = await rejectsWithCode(
      store().createTenant({ id: 'acme', quotas: UNLIMITED, webhookSecret: 'whsec_other', now: T0 + 1 }),
      'TENANT_EXISTS',
    );
    expect(details).toMatchObject({ id: 'acme' });
    expect(await store().getTenant('acme')).toEqual(first);
  });

  it('refuses a malformed id, quota or secret with TENANT_INVALID and writes nothing', async () => {
    for (const id of ['', 'Acme', '-acme', '_acme', 'a b', 'a/b', 'a.b', 'é', 'a'.repeat(64)]) {
      const details = await rejectsWithCode(
        store().createTenant({ id, quotas: QUOTAS, webhookSecret: 'whsec_1', now: T0 }),
        'TENANT_INVALID',
      );
      expect(details).toMatchObject({ field: 'id' });
    }
    const badQuotas: [Partial<TenantQuotas>, string][] = [
      [{ maxSchedules: -1 }, 'quotas.maxSchedules'],
      [{ maxSchedules: 1.5 }, 'quotas.maxSchedules'],
      [{ maxRunsPerMinute: Number.NaN }, 'quotas.maxRunsPerMinute'],
      [{ requestsPerSecond: 0 }, 'quotas.requestsPerSecond'],
      [{ requestsPerSecond: Number.POSITIVE_INFINITY }, 'quotas.requestsPerSecond'],
    ];
    for (const [bad, field] of badQuotas) {
      const details = await rejectsWithCode(
        store().createTenant({
          id: 'acme',
          quotas: { ...QUOTAS, ...bad },
          webhookSecret: 'whsec_1',
          now: T0,
        }),
        'TENANT_INVALID',
      );
      expect(details).toMatchObject({ field });
    }
    const details = await rejectsWithCode(
      store().createTenant({ id: 'acme', quotas: QUOTAS, webhookSecret: '', now: T0 }),
      'TENANT_INVALID',
    );
    expect(details).toMatchObject({ field: 'webhookSecret' });
    expect(await store().listTenants()).toEqual([]);

    for (const id of ['a', '0', 'a'.repeat(63), 'acme_eu-1']) await tenant(id);
    expect(await store().listTenants()).toHaveLength(4);
  });

  it('updates state, quotas and secret rotation fields, leaving the rest', async () => {
    await tenant('acme');
    const disabled = await store().updateTenant('acme', { state: 'disabled' }, T0 + 1);
    expect(disabled).toMatchObject({ state: 'disabled', quotas: QUOTAS, createdAt: T0, updatedAt: T0 + 1 });

    const requoted = await store().updateTenant(
      'acme',
      { quotas: { ...UNLIMITED, maxSchedules: 5 } },
      T0 + 2,
    );
    expect(requoted).toMatchObject({ state: 'disabled', quotas: { ...UNLIMITED, maxSchedules: 5 } });

    const rotated = await store().updateTenant(
      'acme',
      { webhookSecret: 'whsec_new', previousWebhookSecret: 'whsec_acme', previousSecretUntil: T0 + DAY },
      T0 + 3,
    );
    expect(rotated).toEqual({
      id: 'acme',
      state: 'disabled',
      quotas: { ...UNLIMITED, maxSchedules: 5 },
      webhookSecret: 'whsec_new',
      previousWebhookSecret: 'whsec_acme',
      previousSecretUntil: T0 + DAY,
      createdAt: T0,
      updatedAt: T0 + 3,
    });
    expect(await store().getTenant('acme')).toEqual(rotated);

    const cleared = await store().updateTenant(
      'acme',
      { state: 'active', previousWebhookSecret: null, previousSecretUntil: null },
      T0 + DAY,
    );
    expect(cleared).toMatchObject({
      state: 'active',
      webhookSecret: 'whsec_new',
      previousWebhookSecret: null,
      previousSecretUntil: null,
      updatedAt: T0 + DAY,
    });
    expect(await store().getTenant('acme')).toEqual(cleared);
  });

  it('answers undefined when updating an unknown tenant, and refuses an invalid patch', async () => {
    expect(await store().updateTenant('nobody', { state: 'disabled' }, T0)).toBeUndefined();
    expect(await store().getTenant('nobody')).toBeUndefined();
    await tenant('acme');
    const before = await store().getTenant('acme');
    const details = await rejectsWithCode(
      store().updateTenant('acme', { quotas: { ...QUOTAS, maxRunsPerMinute: -5 } }, T0 + 1),
      'TENANT_INVALID',
    );
    expect(details).toMatchObject({ field: 'quotas.maxRunsPerMinute' });
    await rejectsWithCode(
      store().updateTenant('acme', { state: 'gone' as unknown as 'active' }, T0 + 1),
      'TENANT_INVALID',
    );
    expect(await store().getTenant('acme')).toEqual(before);
  });

  it('creates API keys and finds them with their tenant by hash', async () => {
    await tenant('acme');
    const k = await key('acme', HASH_A, 'ci', T0 + 5);
    expect(k).toEqual({
      id: expect.any(String),
      tenantId: 'acme',
      prefix: 'pk_aaaa',
      hash: HASH_A,
      name: 'ci',
      createdAt: T0 + 5,
      revokedAt: null,
      lastUsedAt: null,
    });
    expect(await store().findApiKey(HASH_A)).toEqual({ key: k, tenant: await store().getTenant('acme') });
    expect(await store().findApiKey(HASH_B)).toBeUndefined();
  });

  it('refuses an API key for an unknown tenant with TENANT_NOT_FOUND', async () => {
    const details = await rejectsWithCode(key('nobody', HASH_A), 'TENANT_NOT_FOUND');
    expect(details).toMatchObject({ id: 'nobody' });
    expect(await store().findApiKey(HASH_A)).toBeUndefined();
  });

  it("finds a disabled tenant's key: the caller decides", async () => {
    await tenant('acme');
    await key('acme', HASH_A);
    await store().updateTenant('acme', { state: 'disabled' }, T0 + 1);
    expect((await store().findApiKey(HASH_A))?.tenant.state).toBe('disabled');
  });

  it("lists a tenant's keys oldest first, revoked ones included, never another tenant's", async () => {
    await tenant('acme');
    await tenant('other');
    const a = await key('acme', HASH_A, 'first', T0);
    const b = await key('acme', HASH_B, null, T0 + 1);
    await key('other', HASH_C, null, T0 + 2);
    expect(await store().revokeApiKey('acme', a.id, T0 + 3)).toBe(true);
    expect(await store().listApiKeys('acme')).toEqual([{ ...a, revokedAt: T0 + 3 }, b]);
    expect((await store().listApiKeys('other')).map((k) => k.hash)).toEqual([HASH_C]);
    expect(await store().listApiKeys('nobody')).toEqual([]);
  });

  it('revokes a key: it is no longer found, and revoking twice or across tenants is false', async () => {
    await tenant('acme');
    await tenant('other');
    const a = await key('acme', HASH_A);
    const c = await key('other', HASH_C);
    expect(await store().revokeApiKey('acme', c.id, T0 + 1)).toBe(false);
    expect(await store().findApiKey(HASH_C)).toMatchObject({ key: { id: c.id, revokedAt: null } });
    expect(await store().revokeApiKey('acme', 'not-an-id', T0 + 1)).toBe(false);
    expect(await store().revokeApiKey('acme', '999999', T0 + 1)).toBe(false);

    expect(await store().revokeApiKey('acme', a.id, T0 + 2)).toBe(true);
    expect(await store().findApiKey(HASH_A)).toBeUndefined();
    expect(await store().revokeApiKey('acme', a.id, T0 + 3)).toBe(false);
    expect((await store().listApiKeys('acme'))[0]?.revokedAt).toBe(T0 + 2);
    expect(await store().findApiKey(HASH_C)).toBeDefined();
  });

  it('touches a key: lastUsedAt moves forward only; an unknown or malformed id changes nothing', async () => {
    await tenant('acme');
    const a = await key('acme', HASH_A);
    const b = await key('acme', HASH_B);
    const lastUsed = async () => (await store().findApiKey(HASH_A))?.key.lastUsedAt;

    await store().touchApiKey(a.id, T0 + MINUTE);
    expect(await lastUsed()).toBe(T0 + MINUTE);
    await store().touchApiKey(a.id, T0 + 1);
    expect(await lastUsed()).toBe(T0 + MINUTE);
    await store().touchApiKey(a.id, T0 + MINUTE);
    expect(await lastUsed()).toBe(T0 + MINUTE);
    await store().touchApiKey(a.id, T0 + 2 * MINUTE);
    expect(await lastUsed()).toBe(T0 + 2 * MINUTE);

    for (const id of ['999999', '0', '-1', 'not-an-id', '', '9'.repeat(30)]) {
      await store().touchApiKey(id, T0 + DAY);
    }
    expect(await store().listApiKeys('acme')).toEqual([{ ...a, lastUsedAt: T0 + 2 * MINUTE }, b]);
  });

  it("counts a tenant's schedules, whatever their state, and no other tenant's", async () => {
    expect(await store().countSchedules(TENANT)).toBe(0);
    await create(ctx.store, { key: 'a' });
    await create(ctx.store, { key: 'b' });
    await create(ctx.store, { key: 'c' });
    await create(ctx.store, { key: 'a', tenantId: OTHER_TENANT });
    await ctx.store.pauseSchedule(TENANT, 'b', { cancelPending: false, note: null, now: T0 });
    expect(await store().countSchedules(TENANT)).toBe(3);
    expect(await store().countSchedules(OTHER_TENANT)).toBe(1);
    await ctx.store.deleteSchedule(TENANT, 'c', T0);
    expect(await store().countSchedules(TENANT)).toBe(2);
  });

  it('counts runs started since an instant, per tenant, never runs not started', async () => {
    const s = await create(ctx.store);
    const o = await create(ctx.store, { tenantId: OTHER_TENANT });
    await addRuns(ctx.store, s, [T0, T0 + MINUTE, T0 + 2 * MINUTE]);
    await addRuns(ctx.store, o, [T0 + MINUTE]);
    expect(await store().countRunsStartedSince(TENANT, 0)).toBe(0);

    const early = (await claim(ctx.store, T0)).claimed;
    expect(early).toHaveLength(1);
    expect((await claim(ctx.store, T0 + MINUTE)).claimed).toHaveLength(2);

    expect(await store().countRunsStartedSince(TENANT, 0)).toBe(2);
    expect(await store().countRunsStartedSince(TENANT, T0)).toBe(2);
    expect(await store().countRunsStartedSince(TENANT, T0 + 1)).toBe(1);
    expect(await store().countRunsStartedSince(TENANT, T0 + MINUTE)).toBe(1);
    expect(await store().countRunsStartedSince(TENANT, T0 + MINUTE + 1)).toBe(0);
    expect(await store().countRunsStartedSince(OTHER_TENANT, T0)).toBe(1);
    expect(await store().countRunsStartedSince('nobody', 0)).toBe(0);

    // A run that has ended still counts from its start: running or final, every started run is counted.
    await ctx.store.settleRuns(
      [settlement(early[0]!, { state: 'succeeded', result: null }, T0 + MINUTE)],
      T0 + MINUTE,
    );
    expect(await store().countRunsStartedSince(TENANT, T0)).toBe(2);
    expect(await store().countRunsStartedSince(TENANT, T0 + 1)).toBe(1);
  });
}

export function statsTests(ctx: Ctx): void {
  const stats = (now: number) => ctx.store.stats(now);

  it('reports zeros for an empty store', async () => {
    expect(await stats(T0)).toEqual({
      dueRuns: 0,
      runningRuns: 0,
      schedulesByState: { active: 0, paused: 0, completed: 0 },
      oldestDueAt: null,
    });
  });

  it('counts due runs apart from future and running ones, across priorities and tenants', async () => {
    const s = await create(ctx.store);
    const urgent = await create(ctx.store, { key: 'urgent', tenantId: OTHER_TENANT });
    await addRuns(ctx.store, s, [T0, T0 + MINUTE, T0 + 10 * MINUTE]);
    await ctx.store.insertRuns(
      [runInsert({ schedule: urgent, scheduledFor: T0 + 2 * MINUTE, priority: 5 })],
      T0,
    );
    expect(await stats(T0 - 1)).toMatchObject({ dueRuns: 0, runningRuns: 0, oldestDueAt: null });
    expect(await stats(T0 + 2 * MINUTE)).toMatchObject({ dueRuns: 3, runningRuns: 0, oldestDueAt: T0 });

    const { claimed } = await claim(ctx.store, T0, 1);
    expect(claimed.map((c) => c.run.dueAt)).toEqual([T0]);
    expect(await stats(T0 + 2 * MINUTE)).toMatchObject({
      dueRuns: 2,
      runningRuns: 1,
      oldestDueAt: T0 + MINUTE,
    });
    expect(await stats(T0 + MINUTE)).toMatchObject({ dueRuns: 1, runningRuns: 1, oldestDueAt: T0 + MINUTE });
    expect(await stats(T0 + 10 * MINUTE)).toMatchObject({ dueRuns: 3, runningRuns: 1 });

    await ctx.store.settleRuns(
      [settlement(claimed[0]!, { state: 'succeeded', result: null }, T0 + 1)],
      T0 + 1,
    );
    expect(await stats(T0 + 10 * MINUTE)).toMatchObject({
      dueRuns: 3,
      runningRuns: 0,
      oldestDueAt: T0 + MINUTE,
    });
  });

  it('counts schedules by state', async () => {
    const done = await create(ctx.store, { key: 'done' });
    await create(ctx.store, { key: 'live' });
    await create(ctx.store, { key: 'held' });
    await create(ctx.store, { key: 'live', tenantId: OTHER_TENANT });
    await ctx.store.pauseSchedule(TENANT, 'held', { cancelPending: false, note: null, now: T0 });
    const adv = await ctx.store.advanceSchedule({
      tenantId: TENANT,
      scheduleId: done.id,
      version: done.version,
      expectedNextFireAt: done.nextFireAt,
      nextFireAt: null,
      fired: 0,
      complete: true,
      runs: [],
      now: T0,
    });
    expect(adv.status).toBe('advanced');
    expect((await stats(T0)).schedulesByState).toEqual({ active: 2, paused: 1, completed: 1 });
  });

  it('keeps the counts by state through bulk puts, a refused bulk put, reopening, resume and delete', async () => {
    const tenancy = hasTenancy(ctx.store) ? ctx.store : undefined;
    const count = async () => [
      (await stats(T0)).schedulesByState,
      (await tenancy?.countSchedules(TENANT)) ?? 'n/a',
      (await tenancy?.countSchedules(OTHER_TENANT)) ?? 'n/a',
    ];
    const n = (v: number) => (tenancy === undefined ? 'n/a' : v);
    const bulk = (keys: string[], tenantId = TENANT, extra: { expectedVersion?: number } = {}) =>
      ctx.store.putSchedules(
        keys.map((key) => ({ draft: draft({ key, tenantId }), nextFireAt: T0, now: T0, ...extra })),
      );
    await bulk(['a', 'b', 'c', 'd']);
    await bulk(['x'], OTHER_TENANT);
    await ctx.store.putSchedule({
      draft: draft({ key: 'p' }),
      nextFireAt: T0,
      now: T0,
      initialState: 'paused',
    });
    expect(await count()).toEqual([{ active: 5, paused: 1, completed: 0 }, n(5), n(1)]);
    // A refused bulk put (one item conflicts) writes nothing, counts included.
    await expect(bulk(['e', 'a'], TENANT, { expectedVersion: 7 })).rejects.toMatchObject({
      code: 'VERSION_CONFLICT',
    });
    expect(await count()).toEqual([{ active: 5, paused: 1, completed: 0 }, n(5), n(1)]);
    const a = (await ctx.store.getSchedule(TENANT, 'a'))!;
    await ctx.store.advanceSchedule({
      tenantId: TENANT,
      scheduleId: a.id,
      version: a.version,
      expectedNextFireAt: a.nextFireAt,
      nextFireAt: null,
      fired: 0,
      complete: true,
      runs: [],
      now: T0,
    });
    await ctx.store.pauseSchedule(TENANT, 'b', { cancelPending: false, note: null, now: T0 });
    expect(await count()).toEqual([{ active: 3, paused: 2, completed: 1 }, n(5), n(1)]);
    // A change reopens the completed schedule; resume and delete move the rest.
    await ctx.store.putSchedule({ draft: draft({ key: 'a', spec: '@hourly' }), nextFireAt: T0, now: T0 });
    await ctx.store.resumeSchedule(TENANT, 'p', { nextFireAt: T0, skipped: [], now: T0 });
    await ctx.store.deleteSchedule(TENANT, 'b', T0);
    await ctx.store.deleteSchedule(OTHER_TENANT, 'x', T0);
    expect(await count()).toEqual([{ active: 4, paused: 0, completed: 0 }, n(4), n(0)]);
  });

  it('follows `now`, never the clock', async () => {
    const far = Date.UTC(2099, 0, 1);
    const s = await create(ctx.store, {}, { nextFireAt: far, now: far });
    await addRuns(ctx.store, s, [far, far + MINUTE], {}, far);
    expect(await stats(0)).toMatchObject({ dueRuns: 0, oldestDueAt: null });
    expect(await stats(far)).toMatchObject({ dueRuns: 1, oldestDueAt: far });
    expect(await stats(Date.UTC(2100, 0, 1))).toMatchObject({ dueRuns: 2, oldestDueAt: far });
  });
}
