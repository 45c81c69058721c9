// Migration 2: tenancy (tenants with quotas and webhook signing secrets, API keys kept only as hashes) and the
// indexes behind the runs-per-minute quota and the schedule counts of stats. Append-only: once released, this
// text never changes. `s` is the already-quoted schema name; DDL only, never a value. Names match SQLite's.

export const name = 'tenancy';

export function sql(s: string): string {
  return `
CREATE TABLE ${s}.tenants (
  id                      TEXT    COLLATE "C" PRIMARY KEY, -- the tenant's name, as in every tenant_id
  state                   TEXT    NOT NULL CHECK (state IN ('active', 'disabled')),
  max_schedules           INTEGER,                         -- NULL: unlimited
  max_runs_per_minute     INTEGER,                         -- NULL: unlimited
  requests_per_second     DOUBLE PRECISION,                -- NULL: the service default
  webhook_secret          TEXT    NOT NULL,
  previous_webhook_secret TEXT,                            -- still signed with until previous_secret_until
  previous_secret_until   BIGINT,
  created_at              BIGINT  NOT NULL,
  updated_at              BIGINT  NOT NULL
);

CREATE TABLE ${s}.api_keys (
  id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, -- never reused
  tenant_id    TEXT   COLLATE "C" NOT NULL REFERENCES ${s}.tenants (id),
  prefix       TEXT   NOT NULL,
  hash         TEXT   NOT NULL,                              -- SHA-256 hex of the whole key, never the key
  name         TEXT,
  created_at   BIGINT NOT NULL,
  revoked_at   BIGINT,
  last_used_at BIGINT
);

-- findApiKey: one lookup by hash (unique: one key, one tenant).
CREATE UNIQUE INDEX api_keys_hash ON ${s}.api_keys (hash);
-- listApiKeys, and the foreign key's child lookup.
CREATE INDEX api_keys_tenant ON ${s}.api_keys (tenant_id, id);

-- countRunsStartedSince: a range of one tenant's started runs (never-started runs are left out).
CREATE INDEX runs_tenant_started ON ${s}.runs (tenant_id, started_at) WHERE started_at IS NOT NULL;
-- stats: schedules counted per state from the index alone.
CREATE INDEX schedules_state ON ${s}.schedules (state);
`;
}
