// A PostgreSQL schema as the release before migration `below` left it, for migrate-forward tests: the schema,
// the migrations table with its compatibility column, and every migration under `below` applied and recorded.
// Test support only: it writes through the client it is given and never migrates past `below - 1`.

import type pg from 'pg';
import { MIGRATIONS } from '../../src/store/postgres/migrations.js';

/** Builds `s` (already quoted) at migration `below - 1`. */
export async function pgSchemaBefore(db: pg.Client, s: string, below: number): Promise<void> {
  await db.query(`CREATE SCHEMA ${s}`);
  await db.query(
    `CREATE TABLE ${s}.punctual_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
       compatible_from INTEGER)`,
  );
  for (const m of MIGRATIONS.filter((x) => x.version < below)) {
    await db.query(m.sql(s));
    await db.query(
      `INSERT INTO ${s}.punctual_migrations (version, name, compatible_from) VALUES ($1, $2, $3)`,
      [m.version, m.name, m.compatibleFrom],
    );
  }
}
