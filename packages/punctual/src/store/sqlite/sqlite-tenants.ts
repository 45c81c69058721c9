// Tenancy operations of the SQLite store: tenants (quotas, webhook secrets, state), API keys found by hash,
// and the counts behind the quotas. Each write is one BEGIN IMMEDIATE transaction; lookups stay on the
// indexes named beside each statement. It must never read a clock nor store a whole API key.

import { PunctualError } from '../../errors.js';
import { checkNewTenant, checkTenantPatch } from '../tenant-rules.js';
import type { ApiKey, Tenant, TenantQuotas, TenantStore } from '../tenant-store.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { parseId, toApiKey, toTenant, type ApiKeyRow, type TenantRow } from './sqlite-rows.js';

type TenantPatch = Parameters<TenantStore['updateTenant']>[1];

const GET = 'SELECT * FROM tenants WHERE id = ?';
const LIST = 'SELECT * FROM tenants ORDER BY id';

// A taken id inserts nothing and returns no row.
const INSERT = `
  INSERT INTO tenants (id, state, max_schedules, max_runs_per_minute, requests_per_second, webhook_secret,
    previous_webhook_secret, previous_secret_until, created_at, updated_at)
  VALUES (@id, 'active', @maxSchedules, @maxRunsPerMinute, @requestsPerSecond, @webhookSecret, NULL, NULL,
    @now, @now)
  ON CONFLICT (id) DO NOTHING
  RETURNING *`;

const UPDATE = `
  UPDATE tenants SET state = @state, max_schedules = @maxSchedules, max_runs_per_minute = @maxRunsPerMinute,
    requests_per_second = @requestsPerSecond, webhook_secret = @webhookSecret,
    previous_webhook_secret = @previousWebhookSecret, previous_secret_until = @previousSecretUntil,
    updated_at = @now
  WHERE id = @id
  RETURNING *`;

const INSERT_KEY = `
  INSERT INTO api_keys (tenant_id, prefix, hash, name, created_at, revoked_at, last_used_at)
  VALUES (?, ?, ?, ?, ?, NULL, NULL)
  RETURNING *`;

// api_keys_hash.
const FIND_KEY = 'SELECT * FROM api_keys WHERE hash = ? AND revoked_at IS NULL';
// api_keys_tenant.
const LIST_KEYS = 'SELECT * FROM api_keys WHERE tenant_id = ? ORDER BY id';
const REVOKE_KEY = 'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND tenant_id = ? AND revoked_at IS NULL';
// The primary key. Forward only: a late or concurrent touch never moves last_used_at back.
const TOUCH_KEY =
  'UPDATE api_keys SET last_used_at = @now WHERE id = @id AND (last_used_at IS NULL OR last_used_at < @now)';

// schedule_counts (kept by triggers, migration 0016): at most three rows of the tenant, never the schedules.
export const COUNT_SCHEDULES = 'SELECT COALESCE(SUM(n), 0) FROM schedule_counts WHERE tenant_id = ?';
// runs_tenant_started range, covering (`>=` implies the index's started_at IS NOT NULL).
export const COUNT_STARTED = 'SELECT COUNT(*) FROM runs WHERE tenant_id = ? AND started_at >= ?';

function quotaParams(q: TenantQuotas): Record<string, unknown> {
  return {
    maxSchedules: q.maxSchedules,
    maxRunsPerMinute: q.maxRunsPerMinute,
    requestsPerSecond: q.requestsPerSecond,
  };
}

export function createTenant(
  sql: SqliteDatabase,
  t: { id: string; quotas: TenantQuotas; webhookSecret: string; now: number },
): Tenant {
  checkNewTenant(t);
  const row = sql.write(() =>
    sql.stmt(INSERT).get({ id: t.id, ...quotaParams(t.quotas), webhookSecret: t.webhookSecret, now: t.now }),
  ) as TenantRow | undefined;
  if (row === undefined) {
    throw new PunctualError('TENANT_EXISTS', `a tenant named ${t.id} already exists`, { id: t.id });
  }
  return toTenant(row);
}

export function getTenant(sql: SqliteDatabase, id: string): Tenant | undefined {
  const row = sql.read(() => sql.stmt(GET).get(id)) as TenantRow | undefined;
  return row === undefined ? undefined : toTenant(row);
}

export function listTenants(sql: SqliteDatabase): Tenant[] {
  const rows = sql.read(() => sql.stmt(LIST).all()) as TenantRow[];
  return rows.map(toTenant);
}

/** Merges the patch into the stored tenant (read and write in one transaction); undefined when unknown. */
export function updateTenant(
  sql: SqliteDatabase,
  id: string,
  patch: TenantPatch,
  now: number,
): Tenant | undefined {
  checkTenantPatch(patch);
  return sql.write(() => {
    const row = sql.stmt(GET).get(id) as TenantRow | undefined;
    if (row === undefined) return undefined;
    const t = { ...toTenant(row), ...definedOnly(patch) };
    const updated = sql.stmt(UPDATE).get({
      id,
      state: t.state,
      ...quotaParams(t.quotas),
      webhookSecret: t.webhookSecret,
      previousWebhookSecret: t.previousWebhookSecret,
      previousSecretUntil: t.previousSecretUntil,
      now,
    }) as TenantRow;
    return toTenant(updated);
  });
}

/** The patch without its undefined fields (an explicit undefined leaves the stored value). */
function definedOnly(patch: TenantPatch): TenantPatch {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as TenantPatch;
}

export function createApiKey(
  sql: SqliteDatabase,
  k: { tenantId: string; prefix: string; hash: string; name: string | null; now: number },
): ApiKey {
  return sql.write(() => {
    if (sql.stmt(GET).get(k.tenantId) === undefined) {
      throw new PunctualError('TENANT_NOT_FOUND', `no tenant named ${k.tenantId}`, { id: k.tenantId });
    }
    const row = sql.stmt(INSERT_KEY).get(k.tenantId, k.prefix, k.hash, k.name, k.now) as ApiKeyRow;
    return toApiKey(row);
  });
}

export function findApiKey(sql: SqliteDatabase, hash: string): { key: ApiKey; tenant: Tenant } | undefined {
  return sql.read(() => {
    const key = sql.stmt(FIND_KEY).get(hash) as ApiKeyRow | undefined;
    if (key === undefined) return undefined;
    // The foreign key guarantees the tenant row.
    const tenant = sql.stmt(GET).get(key.tenant_id) as TenantRow;
    return { key: toApiKey(key), tenant: toTenant(tenant) };
  });
}

/** Every key of the tenant, revoked ones included, oldest first. */
export function listApiKeys(sql: SqliteDatabase, tenantId: string): ApiKey[] {
  const rows = sql.read(() => sql.stmt(LIST_KEYS).all(tenantId)) as ApiKeyRow[];
  return rows.map(toApiKey);
}

export function revokeApiKey(sql: SqliteDatabase, tenantId: string, keyId: string, now: number): boolean {
  const id = parseId(keyId);
  if (id === undefined) return false;
  return sql.write(() => sql.stmt(REVOKE_KEY).run(now, id, tenantId).changes > 0);
}

export function touchApiKey(sql: SqliteDatabase, keyId: string, now: number): void {
  const id = parseId(keyId);
  if (id === undefined) return;
  sql.write(() => sql.stmt(TOUCH_KEY).run({ id, now }));
}

export function countSchedules(sql: SqliteDatabase, tenantId: string): number {
  return sql.read(() => sql.pluck(COUNT_SCHEDULES).get(tenantId)) as number;
}

export function countRunsStartedSince(sql: SqliteDatabase, tenantId: string, since: number): number {
  return sql.read(() => sql.pluck(COUNT_STARTED).get(tenantId, since)) as number;
}
