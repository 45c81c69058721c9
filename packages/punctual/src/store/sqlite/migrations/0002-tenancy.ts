// Migration 0002: tenancy (tenants with quotas and webhook signing secrets, API keys kept only as hashes) and
// the runs index behind the runs-per-minute quota. Append-only: once released, this text never changes.
// Schedules and runs keep no foreign key to tenants (their rows predate it). Never put a value here: DDL only.

export const name = 'tenancy';

export const sql = `
CREATE TABLE tenants (
  id                      TEXT    PRIMARY KEY,       -- the tenant's name, as in every tenant_id
  state                   TEXT    NOT NULL CHECK (state IN ('active', 'disabled')),
  max_schedules           INTEGER,                   -- NULL: unlimited
  max_runs_per_minute     INTEGER,                   -- NULL: unlimited
  requests_per_second     REAL,                      -- NULL: the service default
  webhook_secret          TEXT    NOT NULL,
  previous_webhook_secret TEXT,                      -- still signed with until previous_secret_until
  previous_secret_until   INTEGER,
  created_at              INTEGER NOT NULL,
  updated_at              INTEGER NOT NULL
) STRICT;

CREATE TABLE api_keys (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,    -- never reused: a revoked key's id stays its own
  tenant_id    TEXT    NOT NULL REFERENCES tenants (id),
  prefix       TEXT    NOT NULL,
  hash         TEXT    NOT NULL,                     -- SHA-256 hex of the whole key; the key is never stored
  name         TEXT,
  created_at   INTEGER NOT NULL,
  revoked_at   INTEGER,
  last_used_at INTEGER
) STRICT;

-- findApiKey: one lookup by hash (unique: one key, one tenant).
CREATE UNIQUE INDEX api_keys_hash ON api_keys (hash);
-- listApiKeys, and the foreign key's child lookup.
CREATE INDEX api_keys_tenant ON api_keys (tenant_id, id);

-- countRunsStartedSince: a range of one tenant's started runs (never-started runs are left out).
CREATE INDEX runs_tenant_started ON runs (tenant_id, started_at) WHERE started_at IS NOT NULL;
-- stats: schedules counted per state from the index alone.
CREATE INDEX schedules_state ON schedules (state);
`;
