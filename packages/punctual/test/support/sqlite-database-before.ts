// A SQLite database as the release before migration `below` left it, for migrate-forward tests: the file, the
// migrations table and every migration under `below` applied and recorded. Test support only: it writes the
// file it is given and never migrates past `below - 1`.

import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.js';

/** Creates the database at `path` at migration `below - 1`; answers it open (the caller closes it). */
export function sqliteDatabaseBefore(path: string, below: number): Database.Database {
  const db = new Database(path);
  db.exec('CREATE TABLE punctual_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT');
  const record = db.prepare('INSERT INTO punctual_migrations (version, name) VALUES (?, ?)');
  for (const m of MIGRATIONS.filter((x) => x.version < below)) {
    db.exec(m.sql);
    record.run(m.version, m.name);
  }
  return db;
}
