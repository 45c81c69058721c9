// The one SQLite connection a store owns: opening it with the durability pragmas, caching prepared
// statements by their text, and running writes as BEGIN IMMEDIATE transactions. Every statement it prepares
// binds its values as parameters; it must never splice a value into SQL text.

import Database from 'better-sqlite3';
import { PunctualError } from '../../errors.js';

export type Synchronous = 'FULL' | 'NORMAL';

export interface SqliteOptions {
  /** A file path, or ':memory:'. */
  path: string;
  /** FULL (default): an acknowledged write survives power loss. NORMAL: may lose the last commits. */
  synchronous?: Synchronous | undefined;
  /** How long a writer waits for another process's lock before failing (default 5000 ms). */
  busyTimeoutMs?: number | undefined;
}

export type Statement = Database.Statement<unknown[], unknown>;

/**
 * A statement on a table that does not exist means the database was never migrated (put() before start()):
 * that is STORE_NOT_MIGRATED, which says what to do, instead of SQLite's "no such table". Anything else is
 * returned as it is.
 */
function notMigratedOr(e: unknown): unknown {
  const table = e instanceof Error ? /^no such table: (\S+)/.exec(e.message)?.[1] : undefined;
  if (table === undefined) return e;
  return new PunctualError(
    'STORE_NOT_MIGRATED',
    `the SQLite database has no table ${table}: call scheduler.start() or migrate() (or store.migrate()) first`,
    { table },
    { cause: e },
  );
}

export class SqliteDatabase {
  readonly db: Database.Database;
  private readonly statements = new Map<string, Statement>();
  private readonly transaction: Database.Transaction<(fn: () => unknown) => unknown>;

  constructor(opts: SqliteOptions) {
    this.db = new Database(opts.path);
    // WAL lets readers run beside the writer; FULL syncs the WAL on every commit (kill -9 and power safe).
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${opts.synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(opts.busyTimeoutMs ?? 5000))}`);
    this.db.pragma('foreign_keys = ON');
    this.transaction = this.db.transaction((fn: () => unknown) => fn());
  }

  /** A prepared statement for this text, prepared once per connection. */
  stmt(sql: string): Statement {
    return this.cached(sql, false);
  }

  /** Like stmt, but rows come back as their first column's value. */
  pluck(sql: string): Statement {
    return this.cached(sql, true);
  }

  private cached(sql: string, pluck: boolean): Statement {
    const key = pluck ? `pluck:${sql}` : sql;
    let s = this.statements.get(key);
    if (s === undefined) {
      this.open();
      try {
        s = this.db.prepare(sql);
      } catch (e) {
        throw notMigratedOr(e);
      }
      if (pluck) s.pluck();
      this.statements.set(key, s);
    }
    return s;
  }

  /** Runs `fn` in one BEGIN IMMEDIATE transaction: the write lock is taken first, so it never upgrades. */
  write<T>(fn: () => T): T {
    this.open();
    return this.transaction.immediate(fn) as T;
  }

  /** Runs a read outside any explicit transaction. */
  read<T>(fn: () => T): T {
    this.open();
    return fn();
  }

  pragma(name: string): unknown {
    this.open();
    return this.db.pragma(name, { simple: true });
  }

  close(): void {
    if (this.db.open) this.db.close();
    this.statements.clear();
  }

  private open(): void {
    if (!this.db.open) throw new PunctualError('STORE_CLOSED', 'the SQLite store was closed');
  }
}
