// The tenant key-value store on SQLite: get, set (with the key-count and value-size quotas checked in the
// same BEGIN IMMEDIATE transaction as the write), delete and keyset-paged listing, every statement on the
// (tenant_id, key) primary key. It must never read a clock, nor build a statement from a key or prefix.

import type { Json } from '../../domain/json.js';
import {
  checkKvKey,
  checkKvLimits,
  checkKvListLimit,
  checkKvPrefix,
  decodeKvCursor,
  decodeKvValue,
  encodeKvCursor,
  encodeKvValue,
  keyQuotaExceeded,
} from '../kv-rules.js';
import type { KvEntry, KvLimits, KvListQuery } from '../kv-store.js';
import type { Page } from '../store.js';
import type { SqliteDatabase } from './sqlite-database.js';

interface KvRow {
  key: string;
  value: string;
  updated_at: number;
}

const GET = 'SELECT key, value, updated_at FROM kv WHERE tenant_id = ? AND key = ?';
const EXISTS = 'SELECT 1 FROM kv WHERE tenant_id = ? AND key = ?';
// Counts at most `limit` keys: the quota check never walks more of the range than the quota itself.
const COUNT_UP_TO = 'SELECT COUNT(*) FROM (SELECT 1 FROM kv WHERE tenant_id = ? LIMIT ?)';
const UPSERT = `
  INSERT INTO kv (tenant_id, key, value, updated_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (tenant_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`;
const DELETE = 'DELETE FROM kv WHERE tenant_id = ? AND key = ?';
// Keys with a prefix are contiguous in byte order: start at the prefix (or after the cursor) and stop at the
// first key that does not start with it (the caller reads one row past the page to know whether more follow).
const LIST = `
  SELECT key, value, updated_at FROM kv
  WHERE tenant_id = @tenantId AND key >= @prefix AND key > @after
  ORDER BY key LIMIT @limit`;

export function kvGet(
  sql: SqliteDatabase,
  tenantId: string,
  key: string,
): { value: Json; updatedAt: number } | undefined {
  checkKvKey(key);
  const row = sql.read(() => sql.stmt(GET).get(tenantId, key)) as KvRow | undefined;
  return row === undefined ? undefined : { value: decodeKvValue(row.value), updatedAt: row.updated_at };
}

export function kvSet(
  sql: SqliteDatabase,
  tenantId: string,
  key: string,
  value: Json,
  now: number,
  limits: KvLimits,
): void {
  checkKvKey(key);
  checkKvLimits(limits);
  const text = encodeKvValue(value, limits.maxValueBytes);
  sql.write(() => {
    if (sql.stmt(EXISTS).get(tenantId, key) === undefined) {
      const held = sql.pluck(COUNT_UP_TO).get(tenantId, limits.maxKeys) as number;
      if (held >= limits.maxKeys) throw keyQuotaExceeded(limits.maxKeys);
    }
    sql.stmt(UPSERT).run(tenantId, key, text, now);
  });
}

export function kvDelete(sql: SqliteDatabase, tenantId: string, key: string): boolean {
  checkKvKey(key);
  return sql.write(() => sql.stmt(DELETE).run(tenantId, key).changes > 0);
}

export function kvList(sql: SqliteDatabase, tenantId: string, q: KvListQuery): Page<KvEntry> {
  const prefix = q.prefix ?? '';
  checkKvPrefix(prefix);
  checkKvListLimit(q.limit);
  const after = q.cursor === undefined ? '' : decodeKvCursor(q.cursor);
  const rows = sql.read(() => sql.stmt(LIST).all({ tenantId, prefix, after, limit: q.limit + 1 })) as KvRow[];
  const items: KvEntry[] = [];
  let more = false;
  for (const row of rows) {
    if (!row.key.startsWith(prefix)) break;
    if (items.length === q.limit) {
      more = true;
      break;
    }
    items.push({ key: row.key, value: decodeKvValue(row.value), updatedAt: row.updated_at });
  }
  const last = items.at(-1);
  return more && last !== undefined ? { items, nextCursor: encodeKvCursor(last.key) } : { items };
}
