// Tenancy operations of the PostgreSQL store: tenants (quotas, webhook secrets, state), API keys found by
// hash, and the counts behind the quotas. Each write is one statement or one transaction; lookups stay on
// the indexes named beside each statement. It must never read a clock nor store a whole API key.

import { PunctualError } from '../../errors.js';
import { checkNewTenant, checkTenantPatch } from '../tenant-rules.js';
import type { ApiKey, Tenant, TenantQuotas, TenantStore } from '../tenant-store.js';
import type { PgDb } from './postgres-database.js';
import { ID_RE, toApiKey, toTenant, type ApiKeyRow, type TenantRow } from './postgres-rows.js';

type TenantPatch = Parameters<TenantStore['updateTenant']>[1];

function quotaValues(q: TenantQuotas): unknown[] {
  return [q.maxSchedules, q.maxRunsPerMinute, q.requestsPerSecond];
}

export async function createTenant(
  db: PgDb,
  t: { id: string; quotas: TenantQuotas; webhookSecret: string; now: number },
): Promise<Tenant> {
  checkNewTenant(t);
  // A taken id inserts nothing and returns no row.
  const rows = await db.query<TenantRow>(
    `INSERT INTO ${db.s}.tenants (id, state, max_schedules, max_runs_per_minute, requests_per_second,
       webhook_secret, previous_webhook_secret, previous_secret_until, created_at, updated_at)
     VALUES ($1, 'active', $2, $3, $4, $5, NULL, NULL, $6, $6)
     ON CONFLICT (id) DO NOTHING
     RETURNING *`,
    [t.id, ...quotaValues(t.quotas), t.webhookSecret, t.now],
  );
  if (rows[0] === undefined) {
    throw new PunctualError('TENANT_EXISTS', `a tenant named ${t.id} already exists`, { id: t.id });
  }
  return toTenant(rows[0]);
}

export async function getTenant(db: PgDb, id: string): Promise<Tenant | undefined> {
  const rows = await db.query<TenantRow>(`SELECT * FROM ${db.s}.tenants WHERE id = $1`, [id]);
  return rows[0] === undefined ? undefined : toTenant(rows[0]);
}

export async function listTenants(db: PgDb): Promise<Tenant[]> {
  const rows = await db.query<TenantRow>(`SELECT * FROM ${db.s}.tenants ORDER BY id`);
  return rows.map(toTenant);
}

/** Merges the patch into the stored tenant (read under a row lock and written in one transaction). */
export async function updateTenant(
  db: PgDb,
  id: string,
  patch: TenantPatch,
  now: number,
): Promise<Tenant | undefined> {
  checkTenantPatch(patch);
  return db.tx(async (c) => {
    const { rows } = await c.query<TenantRow>(`SELECT * FROM ${db.s}.tenants WHERE id = $1 FOR UPDATE`, [id]);
    if (rows[0] === undefined) return undefined;
    // An explicit undefined leaves the stored value.
    const defined = Object.fromEntries(
      Object.entries(patch).filter(([, v]) => v !== undefined),
    ) as TenantPatch;
    const t = { ...toTenant(rows[0]), ...defined };
    const { rows: updated } = await c.query<TenantRow>(
      `UPDATE ${db.s}.tenants
          SET state = $2, max_schedules = $3, max_runs_per_minute = $4, requests_per_second = $5,
              webhook_secret = $6, previous_webhook_secret = $7, previous_secret_until = $8, updated_at = $9
        WHERE id = $1
        RETURNING *`,
      [
        id,
        t.state,
        ...quotaValues(t.quotas),
        t.webhookSecret,
        t.previousWebhookSecret,
        t.previousSecretUntil,
        now,
      ],
    );
    return toTenant(updated[0]!);
  });
}

export async function createApiKey(
  db: PgDb,
  k: { tenantId: string; prefix: string; hash: string; name: string | null; now: number },
): Promise<ApiKey> {
  return db.tx(async (c) => {
    // FOR SHARE: the tenant cannot vanish before the key referencing it is written.
    const { rows: tenant } = await c.query(`SELECT 1 FROM ${db.s}.tenants WHERE id = $1 FOR SHARE`, [
      k.tenantId,
    ]);
    if (tenant.length === 0) {
      throw new PunctualError('TENANT_NOT_FOUND', `no tenant named ${k.tenantId}`, { id: k.tenantId });
    }
    const { rows } = await c.query<ApiKeyRow>(
      `INSERT INTO ${db.s}.api_keys (tenant_id, prefix, hash, name, created_at, revoked_at, last_used_at)
       VALUES ($1, $2, $3, $4, $5, NULL, NULL)
       RETURNING *`,
      [k.tenantId, k.prefix, k.hash, k.name, k.now],
    );
    return toApiKey(rows[0]!);
  });
}

export async function findApiKey(
  db: PgDb,
  hash: string,
): Promise<{ key: ApiKey; tenant: Tenant } | undefined> {
  // api_keys_hash, then the tenant's primary key (the foreign key guarantees the row).
  const rows = await db.query<ApiKeyRow & { t: TenantRow }>(
    `SELECT k.*, to_jsonb(t) AS t
       FROM ${db.s}.api_keys AS k JOIN ${db.s}.tenants AS t ON t.id = k.tenant_id
      WHERE k.hash = $1 AND k.revoked_at IS NULL`,
    [hash],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return { key: toApiKey(row), tenant: toTenant(row.t) };
}

/** Every key of the tenant, revoked ones included, oldest first (api_keys_tenant). */
export async function listApiKeys(db: PgDb, tenantId: string): Promise<ApiKey[]> {
  const rows = await db.query<ApiKeyRow>(`SELECT * FROM ${db.s}.api_keys WHERE tenant_id = $1 ORDER BY id`, [
    tenantId,
  ]);
  return rows.map(toApiKey);
}

export async function revokeApiKey(db: PgDb, tenantId: string, keyId: string, now: number): Promise<boolean> {
  if (!ID_RE.test(keyId)) return false;
  const rows = await db.query(
    `UPDATE ${db.s}.api_keys SET revoked_at = $1
      WHERE id = $2 AND tenant_id = $3 AND revoked_at IS NULL
      RETURNING id`,
    [now, keyId, tenantId],
  );
  return rows.length > 0;
}

/** The primary key. Forward only: a late or concurrent touch never moves last_used_at back. */
export async function touchApiKey(db: PgDb, keyId: string, now: number): Promise<void> {
  if (!ID_RE.test(keyId)) return;
  await db.query(
    `UPDATE ${db.s}.api_keys SET last_used_at = $1
      WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $1)`,
    [now, keyId],
  );
}

/** schedule_counts (kept by triggers, migration 17): the tenant's few rows, never the schedules. */
export async function countSchedules(db: PgDb, tenantId: string): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT coalesce(sum(n), 0)::int AS n FROM ${db.s}.schedule_counts WHERE tenant_id = $1`,
    [tenantId],
  );
  return rows[0]?.n ?? 0;
}

/**
 * A runs_tenant_started range (`>=` implies the index's started_at IS NOT NULL; the index holds no running
 * run, migration 23) plus the tenant's running runs started since, from runs_lease.
 */
export async function countRunsStartedSince(db: PgDb, tenantId: string, since: number): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM ${db.s}.runs WHERE tenant_id = $1 AND started_at >= $2 AND state <> 'running')
          + (SELECT count(*) FROM ${db.s}.runs WHERE tenant_id = $1 AND started_at >= $2 AND state = 'running')
            AS n`,
    [tenantId, since],
  );
  return rows[0]?.n ?? 0;
}
