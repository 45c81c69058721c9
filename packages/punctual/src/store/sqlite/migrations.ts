// SQLite schema migrations: numbered, append-only, embedded as TS modules (nothing is read from disk at run
// time). `punctual_migrations` records each applied version; migrating runs inside BEGIN IMMEDIATE so two
// processes opening one file never apply a step twice. It must never rewrite an applied step, and it refuses
// a database migrated by a newer Punctual (SCHEMA_TOO_NEW) instead of guessing.

import type Database from 'better-sqlite3';
import { PunctualError } from '../../errors.js';
import * as m0001 from './migrations/0001-init.js';
import * as m0002 from './migrations/0002-tenancy.js';
import * as m0003 from './migrations/0003-kv.js';
import * as m0004 from './migrations/0004-tenant-claim.js';
import * as m0005 from './migrations/0005-schedule-fields.js';

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
];

export const LATEST_VERSION = MIGRATIONS.length;

/** Highest applied version, or 0 for a fresh database. */
export function schemaVersion(db: Database.Database): number {
  const exists = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'punctual_migrations'")
    .get();
  if (exists === undefined) return 0;
  const row = db.prepare('SELECT MAX(version) AS v FROM punctual_migrations').get() as { v: number | null };
  return row.v ?? 0;
}

/** Applies the pending migrations in one immediate transaction; returns the versions applied. */
export function migrate(db: Database.Database): number[] {
  const apply = db.transaction((): number[] => {
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
    const record = db.prepare('INSERT INTO punctual_migrations (version, name) VALUES (?, ?)');
    const applied: number[] = [];
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      db.exec(m.sql);
      record.run(m.version, m.name);
      applied.push(m.version);
    }
    return applied;
  });
  return apply.immediate();
}
