// The PostgreSQL schema's migrations: a numbered, append-only list embedded as TypeScript modules, the
// routine that applies the pending ones, and the read of the version applied. Several instances may start at
// once: everything runs in one transaction under a transaction-scoped advisory lock, so exactly one applies
// each migration. It refuses (SCHEMA_TOO_NEW) a schema migrated by a newer Punctual. Never edit or reorder a
// released migration.

import { PunctualError } from '../../errors.js';
import type { PgDb } from './postgres-database.js';
import * as m0001 from './migrations/0001-init.js';
import * as m0002 from './migrations/0002-tenancy.js';
import * as m0003 from './migrations/0003-tenant-claim.js';
import * as m0004 from './migrations/0004-kv.js';
import * as m0005 from './migrations/0005-succeeded-attempt.js';
import * as m0006 from './migrations/0006-schedule-fields.js';
import * as m0007 from './migrations/0007-schedule-not-fired.js';

export interface Migration {
  version: number;
  name: string;
  /** The DDL for the schema given as a quoted identifier. */
  sql(schema: string): string;
}

/** Every migration, in order. Append only. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: m0001.name, sql: m0001.sql },
  { version: 2, name: m0002.name, sql: m0002.sql },
  { version: 3, name: m0003.name, sql: m0003.sql },
  { version: 4, name: m0004.name, sql: m0004.sql },
  { version: 5, name: m0005.name, sql: m0005.sql },
  { version: 6, name: m0006.name, sql: m0006.sql },
  { version: 7, name: m0007.name, sql: m0007.sql },
];

/** The highest version (numbers are reserved per change, so the list may skip one until it is merged). */
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Highest migration applied to the store's schema, 0 when it has none (or no schema): reads only. */
export async function appliedVersion(db: PgDb): Promise<number> {
  const [table] = await db.query<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [
    `${db.s}.punctual_migrations`,
  ]);
  if (table?.exists !== true) return 0;
  const [row] = await db.query<{ v: number }>(
    `SELECT coalesce(max(version), 0) AS v FROM ${db.s}.punctual_migrations`,
  );
  return row?.v ?? 0;
}

/** Applies the pending migrations to the store's schema, in one transaction. */
export async function migrate(db: PgDb): Promise<void> {
  const { schema, s } = db;
  await db.tx(async (client) => {
    // One lock per schema name: instances migrating different schemas do not wait for each other.
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('punctual.migrate.' || $1, 0))`, [
      schema,
    ]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.punctual_migrations (
         version INTEGER PRIMARY KEY,
         name    TEXT NOT NULL
       )`,
    );
    const { rows } = await client.query<{ v: number | null }>(
      `SELECT max(version) AS v FROM ${s}.punctual_migrations`,
    );
    const current = rows[0]?.v ?? 0;
    if (current > LATEST_VERSION) {
      throw new PunctualError(
        'SCHEMA_TOO_NEW',
        `schema "${schema}" is at version ${current}; this Punctual knows up to ${LATEST_VERSION}`,
        { schema, databaseVersion: current, codeVersion: LATEST_VERSION },
      );
    }
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      await client.query(m.sql(s));
      await client.query(`INSERT INTO ${s}.punctual_migrations (version, name) VALUES ($1, $2)`, [
        m.version,
        m.name,
      ]);
    }
  });
}
