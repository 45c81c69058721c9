// The tenant key-value store on PostgreSQL: get, set (the key-count quota checked in the same transaction as
// the upsert, under a per-tenant advisory lock when the key is new), delete and keyset-paged listing, every
// statement a range of the kv (tenant_id, key) primary key. It must never read a clock (`now` is a
// parameter), nor put a key, prefix or value into SQL text: values are always bound.

import type { Json } from '../../domain/json.js';
import { PunctualError } from '../../errors.js';
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
import type { PgDb } from './postgres-database.js';

interface KvRow {
  key: string;
  value: string;
  updated_at: number;
}

// JSONB input errors: a string holding U+0000 (22P05) or an escaped unpaired surrogate (22P02). The value
// passed kv-rules, so these are the only JSON texts PostgreSQL refuses.
const JSONB_REFUSED = new Set(['22P05', '22P02']);

/**
 * The least string above every string starting with `prefix`, in code point (UTF-8 byte) order: trailing
 * U+10FFFF dropped, the last code point incremented (skipping the surrogate block). Undefined when there is
 * none (an empty prefix, or one of only U+10FFFF): the range is then open-ended.
 */
export function prefixEnd(prefix: string): string | undefined {
  const cps = Array.from(prefix, (c) => c.codePointAt(0)!);
  while (cps.length > 0 && cps.at(-1) === 0x10ffff) cps.pop();
  const last = cps.pop();
  if (last === undefined) return undefined;
  return String.fromCodePoint(...cps, last + 1 === 0xd800 ? 0xe000 : last + 1);
}

export async function kvGet(
  db: PgDb,
  tenantId: string,
  key: string,
): Promise<{ value: Json; updatedAt: number } | undefined> {
  checkKvKey(key);
  const rows = await db.query<KvRow>(
    `SELECT value::text AS value, updated_at FROM ${db.s}.kv WHERE tenant_id = $1 AND key = $2`,
    [tenantId, key],
  );
  const row = rows[0];
  return row === undefined ? undefined : { value: decodeKvValue(row.value), updatedAt: row.updated_at };
}

export async function kvSet(
  db: PgDb,
  tenantId: string,
  key: string,
  value: Json,
  now: number,
  limits: KvLimits,
): Promise<void> {
  checkKvKey(key);
  checkKvLimits(limits);
  const text = encodeKvValue(value, limits.maxValueBytes);
  await db.tx(async (c) => {
    const { rows: existing } = await c.query(`SELECT 1 FROM ${db.s}.kv WHERE tenant_id = $1 AND key = $2`, [
      tenantId,
      key,
    ]);
    if (existing.length === 0) {
      // A new key: writers of new keys for this tenant take turns, so two cannot both fill the last slot.
      // Replacing a key never waits for this lock. Counts at most maxKeys rows of the primary key.
      await c.query(`SELECT pg_advisory_xact_lock(hashtextextended($1 || '.kv.' || $2, 0))`, [
        db.schema,
        tenantId,
      ]);
      const { rows } = await c.query<{ present: boolean; held: number }>(
        `SELECT EXISTS (SELECT 1 FROM ${db.s}.kv WHERE tenant_id = $1 AND key = $2) AS present,
                (SELECT count(*) FROM (SELECT 1 FROM ${db.s}.kv WHERE tenant_id = $1 LIMIT $3) AS k) AS held`,
        [tenantId, key, limits.maxKeys],
      );
      const r = rows[0]!;
      if (!r.present && r.held >= limits.maxKeys) throw keyQuotaExceeded(limits.maxKeys);
    }
    try {
      await c.query(
        `INSERT INTO ${db.s}.kv (tenant_id, key, value, updated_at) VALUES ($1, $2, $3::jsonb, $4)
         ON CONFLICT (tenant_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        [tenantId, key, text, now],
      );
    } catch (error) {
      if (!JSONB_REFUSED.has((error as { code?: string }).code ?? '')) throw error;
      throw new PunctualError(
        'KV_INVALID',
        'a value must be JSON that PostgreSQL can store: no U+0000 character and no unpaired surrogate',
        { field: 'value' },
      );
    }
  });
}

export async function kvDelete(db: PgDb, tenantId: string, key: string): Promise<boolean> {
  checkKvKey(key);
  const rows = await db.query(`DELETE FROM ${db.s}.kv WHERE tenant_id = $1 AND key = $2 RETURNING key`, [
    tenantId,
    key,
  ]);
  return rows.length > 0;
}

export async function kvList(db: PgDb, tenantId: string, q: KvListQuery): Promise<Page<KvEntry>> {
  const prefix = q.prefix ?? '';
  checkKvPrefix(prefix);
  checkKvListLimit(q.limit);
  const after = q.cursor === undefined ? '' : decodeKvCursor(q.cursor);
  const end = prefixEnd(prefix);
  // Keys with a prefix are one range of the primary key, [prefix, prefixEnd(prefix)); read one row past the
  // page to know whether more follow.
  const values: unknown[] = [tenantId, prefix, after, q.limit + 1];
  if (end !== undefined) values.push(end);
  const rows = await db.query<KvRow>(
    `SELECT key, value::text AS value, updated_at FROM ${db.s}.kv
      WHERE tenant_id = $1 AND key >= $2 AND key > $3${end === undefined ? '' : ' AND key < $5'}
      ORDER BY key LIMIT $4`,
    values,
  );
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
