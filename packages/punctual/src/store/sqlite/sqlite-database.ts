// The one SQLite connection a store owns: opening it with the durability pragmas through the chosen driver,
// caching prepared statements by their text, and running writes as BEGIN IMMEDIATE transactions (a write
// inside a write is a savepoint). Every statement it prepares binds its values as parameters; it must never
// splice a value into SQL text.

import { PunctualError } from '../../errors.js';
import {
  DEFAULT_SQLITE_DRIVER,
  openConnection,
  type Connection,
  type SqliteDriver,
  type Statement,
} from './sqlite-driver.js';

export type { Statement } from './sqlite-driver.js';

export type Synchronous = 'FULL' | 'NORMAL';

export interface SqliteOptions {
  /** A file path, or ':memory:'. */
  path: string;
  /** FULL (default): an acknowledged write survives power loss. NORMAL: may lose the last commits. */
  synchronous?: Synchronous | undefined;
  /** How long a writer waits for another process's lock before failing (default 5000 ms). */
  busyTimeoutMs?: number | undefined;
  /** The driver: `better-sqlite3` (default) or `node:sqlite` (built into Node, no native addon). */
  driver?: SqliteDriver | undefined;
}

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
  readonly connection: Connection;
  private readonly statements = new Map<string, Statement>();
  /** How many write() calls are open: 0 outside a transaction, 1 in it, more in savepoints. */
  private depth = 0;

  constructor(opts: SqliteOptions) {
    this.connection = openConnection(opts.driver ?? DEFAULT_SQLITE_DRIVER, opts.path);
    // WAL lets readers run beside the writer; FULL syncs the WAL on every commit (kill -9 and power safe).
    this.connection.exec('PRAGMA journal_mode = WAL');
    this.connection.exec(`PRAGMA synchronous = ${opts.synchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
    this.connection.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(opts.busyTimeoutMs ?? 5000))}`);
    this.connection.exec('PRAGMA foreign_keys = ON');
    // Temporary storage in memory: statement journals, the materializer's TEMP claims table and transient
    // indexes. With the default (a file), SQLite wrote a statement's journal to a temporary file once it
    // outgrew 64 kB: 25 write calls and 54 kB per materialised run at 1,000,000 schedules
    // (bench/results/2026-11-26-sqlite-million-2.md). Nothing in them has to outlive the connection.
    this.connection.exec('PRAGMA temp_store = MEMORY');
  }

  get driver(): SqliteDriver {
    return this.connection.driver;
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
        s = this.connection.prepare(sql, pluck);
      } catch (e) {
        throw notMigratedOr(e);
      }
      this.statements.set(key, s);
    }
    return s;
  }

  /** Runs SQL text with no parameters (schema changes). */
  exec(sql: string): void {
    this.open();
    this.connection.exec(sql);
  }

  /**
   * Runs `fn` in one BEGIN IMMEDIATE transaction: the write lock is taken first, so it never upgrades. Called
   * inside another write, it runs in a savepoint that a throw rolls back alone.
   */
  write<T>(fn: () => T): T {
    this.open();
    const savepoint = this.depth > 0 ? `punctual_${this.depth}` : null;
    this.stmt(savepoint === null ? 'BEGIN IMMEDIATE' : `SAVEPOINT ${savepoint}`).run();
    this.depth++;
    let result: T;
    try {
      result = fn();
    } catch (error) {
      this.depth--;
      this.rollback(savepoint);
      throw error;
    }
    this.depth--;
    try {
      this.stmt(savepoint === null ? 'COMMIT' : `RELEASE ${savepoint}`).run();
    } catch (error) {
      this.rollback(savepoint);
      throw error;
    }
    return result;
  }

  private rollback(savepoint: string | null): void {
    try {
      if (savepoint === null) this.stmt('ROLLBACK').run();
      else {
        this.stmt(`ROLLBACK TO ${savepoint}`).run();
        this.stmt(`RELEASE ${savepoint}`).run();
      }
    } catch {
      // SQLite already ended the transaction (an I/O or full-disk error rolls it back itself).
    }
  }

  /** Runs a read outside any explicit transaction. */
  read<T>(fn: () => T): T {
    this.open();
    return fn();
  }

  /** The value of a pragma (its first column). */
  pragma(name: string): unknown {
    this.open();
    return this.connection.prepare(`PRAGMA ${name}`, true).get();
  }

  close(): void {
    if (this.connection.open) this.connection.close();
    this.statements.clear();
  }

  private open(): void {
    if (!this.connection.open) throw new PunctualError('STORE_CLOSED', 'the SQLite store was closed');
  }
}
