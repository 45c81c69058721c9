// Migration 4: the tenant key-value store behind `ctx.kv` and `/v1/kv`. One row per (tenant, key), the value
// as JSONB; keys in byte order (COLLATE "C", as in SQLite) so listings and prefix ranges are index ranges.
// Append-only: once released, this text never changes. `s` is the already-quoted schema name; DDL only, never
// a value. The name matches SQLite's.

export const name = 'kv';

export function sql(s: string): string {
  return `
CREATE TABLE ${s}.kv (
  tenant_id  TEXT   COLLATE "C" NOT NULL,
  key        TEXT   COLLATE "C" NOT NULL,           -- 1 to 256 characters, no control characters
  value      JSONB  NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, key)                       -- get, set, delete, list and the key count: one range
);
`;
}
