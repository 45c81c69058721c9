// Migration 0003: the tenant key-value store behind `ctx.kv` and `/v1/kv`. One row per (tenant, key), the
// value as JSON text. Append-only: once released, this text never changes. Never put a value here: DDL only.

export const name = 'kv';

export const sql = `
CREATE TABLE kv (
  tenant_id  TEXT    NOT NULL,
  key        TEXT    NOT NULL,                       -- 1 to 256 characters, no control characters
  value      TEXT    NOT NULL CHECK (json_valid(value)),
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, key)                       -- get, set, delete, list and the key count: one range
) STRICT, WITHOUT ROWID;
`;
