// The PostgreSQL schema's migrations: a numbered, append-only list embedded as TypeScript modules, the
// routine that applies the pending ones, and the read of the version applied. Several instances may start at
// once: everything runs in one transaction under a transaction-scoped advisory lock, so exactly one applies
// each migration. Each migration declares the oldest code that still works with the schema it leaves
// (`compatibleFrom`: the newest migration that code knows), recorded with it; a schema migrated by a newer
// Punctual is used as it is when every migration beyond this code's says it still works, and refused
// (SCHEMA_TOO_NEW) otherwise. Migrations are written expand-then-contract (docs/operations.md, Rolling
// deploys). Never edit or reorder a released migration.

import { PunctualError } from '../../errors.js';
import type { PgDb } from './postgres-database.js';
import * as m0001 from './migrations/0001-init.js';
import * as m0002 from './migrations/0002-tenancy.js';
import * as m0003 from './migrations/0003-tenant-claim.js';
import * as m0004 from './migrations/0004-kv.js';
import * as m0005 from './migrations/0005-succeeded-attempt.js';
import * as m0006 from './migrations/0006-schedule-fields.js';
import * as m0007 from './migrations/0007-schedule-not-fired.js';
import * as m0008 from './migrations/0008-schedule-dst.js';
import * as m0012 from './migrations/0012-schedule-revisions.js';
import * as m0013 from './migrations/0013-calendars.js';
import * as m0014 from './migrations/0014-occurrence-overrides.js';
import * as m0015 from './migrations/0015-alerts.js';
import * as m0016 from './migrations/0016-expectations.js';
import * as m0017 from './migrations/0017-compact-storage.js';
import * as m0018 from './migrations/0018-calendar-revisions.js';
import * as m0019 from './migrations/0019-roll-back-claims.js';
import * as m0020 from './migrations/0020-labelled-schedules-index.js';
import * as m0021 from './migrations/0021-storage-diet.js';
import * as m0022 from './migrations/0022-schedule-executions.js';
import * as m0023 from './migrations/0023-running-out-of-history-indexes.js';
import * as m0024 from './migrations/0024-pending-out-of-history-indexes.js';
import * as m0025 from './migrations/0025-deferred-creation-revisions.js';
import * as m0026 from './migrations/0026-unwritten-defaults.js';
import * as m0027 from './migrations/0027-held-occurrences.js';

export interface Migration {
  version: number;
  name: string;
  /** The DDL for the schema given as a quoted identifier. */
  sql(schema: string): string;
  /**
   * The oldest code, named by the newest migration it knows, that still works with the schema once this
   * migration is applied: an expand step (a new table, a nullable column, an index) keeps older code working
   * and names an earlier version; a contract step (dropping what older code uses) names its own.
   */
  compatibleFrom: number;
}

/**
 * Every migration, in order. Append only. Those released before the compatibility marker name their own
 * version: code older than each was never checked against it.
 */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: m0001.name, sql: m0001.sql, compatibleFrom: 1 },
  { version: 2, name: m0002.name, sql: m0002.sql, compatibleFrom: 2 },
  { version: 3, name: m0003.name, sql: m0003.sql, compatibleFrom: 3 },
  { version: 4, name: m0004.name, sql: m0004.sql, compatibleFrom: 4 },
  { version: 5, name: m0005.name, sql: m0005.sql, compatibleFrom: 5 },
  // 6 and 7 only add columns with defaults and an index: code of version 5 still works beside them (it does
  // not keep the executed counts or the not-fired marks up to date while it runs).
  { version: 6, name: m0006.name, sql: m0006.sql, compatibleFrom: 5 },
  { version: 7, name: m0007.name, sql: m0007.sql, compatibleFrom: 5 },
  // 8 adds a nullable column (the DST choice): older code leaves it NULL, which means the defaults.
  { version: 8, name: m0008.name, sql: m0008.sql, compatibleFrom: 5 },
  // 12 adds a table only: older code works beside it (it writes no revisions while it runs).
  { version: 12, name: m0012.name, sql: m0012.sql, compatibleFrom: 5 },
  // 13 adds a table and a nullable column (calendar rules): older code leaves it NULL (no calendars).
  { version: 13, name: m0013.name, sql: m0013.sql, compatibleFrom: 5 },
  // 14 adds a table and a nullable column: older code works beside them (it applies no overrides and does
  // not resume timed pauses while it runs).
  { version: 14, name: m0014.name, sql: m0014.sql, compatibleFrom: 5 },
  // 15 adds tables only (alerting): older code works beside them (it evaluates and delivers no alerts).
  { version: 15, name: m0015.name, sql: m0015.sql, compatibleFrom: 5 },
  // 16 adds nullable columns and a partial index (expectations, deadline checks): older code leaves them
  // NULL (it writes no expectations and keeps no deadline checks while it runs).
  { version: 16, name: m0016.name, sql: m0016.sql, compatibleFrom: 5 },
  // 17 clears derivable revision parts and this release writes policies compact (contract): older code
  // reads both as always written out, so it must not run beside it.
  { version: 17, name: m0017.name, sql: m0017.sql, compatibleFrom: 17 },
  // 18 adds a table only (calendar revisions): older code works beside it (it writes no calendar revisions).
  { version: 18, name: m0018.name, sql: m0018.sql, compatibleFrom: 5 },
  // 19 adds an index only (schedules that roll back, claimed early): older code works beside it.
  { version: 19, name: m0019.name, sql: m0019.sql, compatibleFrom: 5 },
  // 20 rebuilds an index as a partial one (schedules with labels): older code works beside it (its label
  // filter reads the tenant's schedules instead of the index).
  { version: 20, name: m0020.name, sql: m0020.sql, compatibleFrom: 5 },
  // 21 drops two indexes and adds a partial one (storage diet): older code works beside it, every read
  // answered as before; its earliest-due, not-fired and stats reads, which read runs_due, walk runs_claim
  // whole until it is replaced (roll without lingering).
  { version: 21, name: m0021.name, sql: m0021.sql, compatibleFrom: 5 },
  // 22 adds a table and a function (execution counts): older code works beside it, still counting in the
  // schedule row, which this release's reads add to the new table; its own reads miss what newer instances
  // counted until it is replaced.
  { version: 22, name: m0022.name, sql: m0022.sql, compatibleFrom: 5 },
  // 23 rebuilds three run indexes without running runs: older code works beside it, every read answered as
  // before; its lists and quota count, which do not repeat the new predicate, read the table until it is
  // replaced (roll without lingering).
  { version: 23, name: m0023.name, sql: m0023.sql, compatibleFrom: 5 },
  // 24 rebuilds two run indexes without scheduled runs: older code works beside it, every read answered as
  // before; its lists, deadline check and override check, which do not repeat the new predicate, read the
  // table until it is replaced (roll without lingering).
  { version: 24, name: m0024.name, sql: m0024.sql, compatibleFrom: 5 },
  // 25 adds two columns (creations kept in the schedule row): a contract step, since older code would change
  // such a schedule without writing its creation out first, losing that revision, and would read the runs
  // this release writes (no occurrence_id: derived) as manual runs; stop every instance.
  { version: 25, name: m0025.name, sql: m0025.sql, compatibleFrom: 25 },
  // 26 lets five schedule columns be NULL for their default (unwritten defaults): a contract step, since
  // older code reads NULL labels as no object; stop every instance (this release's 25 asks it already).
  { version: 26, name: m0026.name, sql: m0026.sql, compatibleFrom: 26 },
  // 27 replaces the occurrence key by a flag and a unique index on (schedule, instant): a contract step,
  // since older code inserts runs ON CONFLICT on the dropped key; stop every instance (as 25 and 26 ask).
  { version: 27, name: m0027.name, sql: m0027.sql, compatibleFrom: 27 },
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

/**
 * The oldest code (by the newest migration it knows) that works with the schema as it is: the largest
 * compatibility marker applied (a row without one needs its own version). 0 without migrations; reads only.
 */
export async function requiredVersion(db: PgDb): Promise<number> {
  const [table] = await db.query<{ exists: boolean; marked: boolean }>(
    `SELECT to_regclass($1) IS NOT NULL AS exists,
            EXISTS (SELECT 1 FROM information_schema.columns
                     WHERE table_schema = $2 AND table_name = 'punctual_migrations'
                       AND column_name = 'compatible_from') AS marked`,
    [`${db.s}.punctual_migrations`, db.schema],
  );
  if (table?.exists !== true) return 0;
  const needs = table.marked ? 'coalesce(compatible_from, version)' : 'version';
  const [row] = await db.query<{ v: number }>(
    `SELECT coalesce(max(${needs}), 0) AS v FROM ${db.s}.punctual_migrations`,
  );
  return row?.v ?? 0;
}

/**
 * Applies the pending migrations to the store's schema, in one transaction. `known` is the list this code
 * has (tests pass a longer one to play a newer release).
 */
export async function migrate(db: PgDb, known: readonly Migration[] = MIGRATIONS): Promise<void> {
  // The newest migration it knows (numbers are reserved per change, so the list may skip some).
  const codeVersion = known[known.length - 1]?.version ?? 0;
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
    // The compatibility marker; rows written before it existed count as needing their own version.
    await client.query(
      `ALTER TABLE ${s}.punctual_migrations ADD COLUMN IF NOT EXISTS compatible_from INTEGER`,
    );
    const { rows } = await client.query<{ v: number | null; needs: number | null }>(
      `SELECT max(version) AS v, max(coalesce(compatible_from, version)) AS needs
         FROM ${s}.punctual_migrations`,
    );
    const current = rows[0]?.v ?? 0;
    const needs = rows[0]?.needs ?? 0;
    if (current > codeVersion && needs > codeVersion) {
      throw new PunctualError(
        'SCHEMA_TOO_NEW',
        `schema "${schema}" is at version ${current} and works only with code that knows version ${needs}; ` +
          `this Punctual knows up to ${codeVersion}`,
        { schema, databaseVersion: current, codeVersion, requiredCodeVersion: needs },
      );
    }
    for (const m of known) {
      if (m.version <= current) continue;
      await client.query(m.sql(s));
      await client.query(
        `INSERT INTO ${s}.punctual_migrations (version, name, compatible_from) VALUES ($1, $2, $3)`,
        [m.version, m.name, m.compatibleFrom],
      );
    }
  });
}
