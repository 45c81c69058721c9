// The tenancy part of the store contract, used by the service: tenants with their quotas and webhook signing
// secrets, and API keys kept only as hashes. Same rules as store.ts: atomic operations, `now` passed in,
// nothing here reads a clock. Both stores implement it beside `Store`.

export type TenantState = 'active' | 'disabled';

export interface TenantQuotas {
  /** Most schedules the tenant may have (null: unlimited). */
  maxSchedules: number | null;
  /** Most runs the tenant's schedules may start per minute, manual triggers included (null: unlimited). */
  maxRunsPerMinute: number | null;
  /** API requests per second for the tenant (null: the service default). */
  requestsPerSecond: number | null;
}

export interface Tenant {
  /** The tenant's name; also its id in every row (`tenant_id`). */
  id: string;
  state: TenantState;
  quotas: TenantQuotas;
  /** Standard Webhooks signing secret (`whsec_...`). */
  webhookSecret: string;
  /** The secret before the last rotation, still signed with until `previousSecretUntil`. */
  previousWebhookSecret: string | null;
  previousSecretUntil: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface ApiKey {
  id: string;
  tenantId: string;
  /** The key's visible start (e.g. `pk_live_ab12`), to recognise it in listings. */
  prefix: string;
  /** SHA-256 hex of the whole key; the key itself is never stored. */
  hash: string;
  name: string | null;
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

export interface TenantStore {
  /** Creates a tenant; throws TENANT_EXISTS when the name is taken. */
  createTenant(t: { id: string; quotas: TenantQuotas; webhookSecret: string; now: number }): Promise<Tenant>;
  getTenant(id: string): Promise<Tenant | undefined>;
  listTenants(): Promise<Tenant[]>;
  /** Returns undefined for an unknown tenant. */
  updateTenant(
    id: string,
    patch: Partial<
      Pick<Tenant, 'state' | 'quotas' | 'webhookSecret' | 'previousWebhookSecret' | 'previousSecretUntil'>
    >,
    now: number,
  ): Promise<Tenant | undefined>;

  createApiKey(k: {
    tenantId: string;
    prefix: string;
    hash: string;
    name: string | null;
    now: number;
  }): Promise<ApiKey>;
  /** The key with this hash and its tenant, if the key is not revoked (a disabled tenant is returned: callers check). */
  findApiKey(hash: string): Promise<{ key: ApiKey; tenant: Tenant } | undefined>;
  listApiKeys(tenantId: string): Promise<ApiKey[]>;
  /** Revokes by id within a tenant; false when there is no such live key. */
  revokeApiKey(tenantId: string, keyId: string, now: number): Promise<boolean>;
  /**
   * Records that the key was used at `now`, in one statement: lastUsedAt only moves forward (an earlier
   * instant changes nothing), and an unknown or malformed id is a no-op.
   */
  touchApiKey(keyId: string, now: number): Promise<void>;

  /** Schedules the tenant has (for the maxSchedules quota). */
  countSchedules(tenantId: string): Promise<number>;
  /** Runs of the tenant started since `since` (for the maxRunsPerMinute quota). */
  countRunsStartedSince(tenantId: string, since: number): Promise<number>;
}
