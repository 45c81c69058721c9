// SQLite schema migrations: numbered, append-only, embedded as TS modules (nothing is read from disk at run
// time). `punctual_migrations` records each applied version; migrating runs inside BEGIN IMMEDIATE so two
// processes opening one file never apply a step twice. It must never rewrite an applied step, and it refuses
// a database migrated by a newer Punctual (SCHEMA_TOO_NEW) instead of guessing.

import type { SqliteDatabase } from './sqlite-database.js';
import { PunctualError } from '../../errors.js';
import * as m0001 from './migrations/0001-init.js';
import * as m0002 from './migrations/0002-tenancy.js';
import * as m0003 from './migrations/0003-kv.js';
import * as m0004 from './migrations/0004-tenant-claim.js';
import * as m0005 from './migrations/0005-schedule-fields.js';
import * as m0006 from './migrations/0006-schedule-not-fired.js';
import * as m0007 from './migrations/0007-schedule-dst.js';
import * as m0011 from './migrations/0011-schedule-revisions.js';
import * as m0012 from './migrations/0012-calendars.js';
import * as m0013 from './migrations/0013-occurrence-overrides.js';
import * as m0014 from './migrations/0014-alerts.js';
import * as m0015 from './migrations/0015-expectations.js';
import * as m0016 from './migrations/0016-compact-storage.js';
import * as m0017 from './migrations/0017-calendar-revisions.js';
import * as m0018 from './migrations/0018-roll-back-claims.js';
import * as m0019 from './migrations/0019-storage-diet.js';
import * as m0020 from './migrations/0020-settlement-pages.js';
import * as m0021 from './migrations/0021-deferred-creation-revisions.js';
import * as m0022 from './migrations/0022-held-occurrences.js';
import * as m0023 from './migrations/0023-empty-defaults.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
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
  { version: 11, name: m0011.name, sql: m0011.sql },
  { version: 12, name: m0012.name, sql: m0012.sql },
  { version: 13, name: m0013.name, sql: m0013.sql },
  { version: 14, name: m0014.name, sql: m0014.sql },
  { version: 15, name: m0015.name, sql: m0015.sql },
  { version: 16, name: m0016.name, sql: m0016.sql },
  { version: 17, name: m0017.name, sql: m0017.sql },
  { version: 18, name: m0018.name, sql: m0018.sql },
  { version: 19, name: m0019.name, sql: m0019.sql },
  { version: 20, name: m0020.name, sql: m0020.sql },
  { version: 21, name: m0021.name, sql: m0021.sql },
  { version: 22, name: m0022.name, sql: m0022.sql },
  { version: 23, name: m0023.name, sql: m0023.sql },
];

/** The highest version (numbers are reserved per change, so the list may skip one until it is merged). */
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Highest applied version, or 0 for a fresh database. */
export function schemaVersion(db: SqliteDatabase): number {
  const exists = db
    .pluck("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'punctual_migrations'")
    .get();
  if (exists === undefined) return 0;
  const v = db.pluck('SELECT MAX(version) FROM punctual_migrations').get() as number | null;
  return v ?? 0;
}

/** Applies the pending migrations in one immediate transaction; returns the versions applied. */
export function migrate(db: SqliteDatabase): number[] {
  return db.write((): number[] => {
    db.exec(`CREATE TABLE IF NOT EXISTS punctual_migrations (
      version INTEGER PRIMARY KEY,
      name    TEXT NOT NULL
    ) STRICT`);
    const current = schemaVersion(db);
    if (current > LATEST_VERSION) {
      throw new PunctualError(
        'SCHEMA_TOO_NEW',
        `the database is at schema version ${current}; this Punctual knows up to ${LATEST_VERSION}`,
        { databaseVersion: current, codeVersion: LATEST_VERSION },
      );
    }
    const record = db.stmt('INSERT INTO punctual_migrations (version, name) VALUES (?, ?)');
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      db.exec(m.sql);
      record.run(m.version, m.name);
      applied.push(m.version);
    }
    return applied;
  });
}
