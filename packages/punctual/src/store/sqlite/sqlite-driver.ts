// The SQLite drivers a store can open a connection with, behind one small synchronous interface: prepare a
// statement (optionally returning each row's first column), run SQL text, close. better-sqlite3 13 (Node-API,
// prebuilt) is the default, chosen by measurement (docs/stores.md); Node's own `node:sqlite` is selectable and
// needs no native addon. Each driver's module is loaded only when it is chosen, so neither is a cost to a
// process that uses the other. This module owns the differences between the two drivers; it must never hold
// SQL of the store's own.

import { createRequire } from 'node:module';
import { PunctualError } from '../../errors.js';

/** The SQLite drivers, in order of preference. */
export const SQLITE_DRIVERS = ['better-sqlite3', 'node:sqlite'] as const;
export type SqliteDriver = (typeof SQLITE_DRIVERS)[number];
export const DEFAULT_SQLITE_DRIVER: SqliteDriver = 'better-sqlite3';

/** Parameters as the store passes them: positional values, or one object for `@name` placeholders. */
export type Params = unknown[];

export interface Statement {
  run(...params: Params): { changes: number };
  get(...params: Params): unknown;
  all(...params: Params): unknown[];
}

export interface Connection {
  readonly driver: SqliteDriver;
  readonly open: boolean;
  /** `pluck`: each row comes back as its first column's value. */
  prepare(sql: string, pluck: boolean): Statement;
  exec(sql: string): void;
  close(): void;
}

/** Opens `path` (a file, or ':memory:') with the chosen driver. */
export function openConnection(driver: SqliteDriver, path: string): Connection {
  if (driver === 'better-sqlite3') return openBetterSqlite3(path);
  if (driver === 'node:sqlite') return openNodeSqlite(path);
  throw new PunctualError('STORE_DRIVER_UNAVAILABLE', `unknown SQLite driver "${String(driver)}"`, {
    allowed: SQLITE_DRIVERS,
  });
}

// ---- node:sqlite (without a flag from Node 22.13; unknown named parameters ignored from 22.15) ----

interface NodeStatement {
  run(...p: unknown[]): { changes: number };
  get(...p: unknown[]): Record<string, unknown> | undefined;
  all(...p: unknown[]): Record<string, unknown>[];
  setAllowUnknownNamedParameters?(on: boolean): void;
}
interface NodeDatabase {
  readonly isOpen: boolean;
  prepare(sql: string): NodeStatement;
  exec(sql: string): void;
  close(): void;
}
type NodeSqliteModule = { DatabaseSync: new (path: string) => NodeDatabase };

function openNodeSqlite(path: string): Connection {
  const mod = process.getBuiltinModule?.('node:sqlite') as NodeSqliteModule | undefined;
  if (mod === undefined) {
    throw new PunctualError(
      'STORE_DRIVER_UNAVAILABLE',
      `node:sqlite is not available in Node ${process.versions.node}; Punctual needs Node 22.13 or later`,
    );
  }
  const db = new mod.DatabaseSync(path);
  return {
    driver: 'node:sqlite',
    get open() {
      return db.isOpen;
    },
    prepare(sql, pluck) {
      const s = db.prepare(sql);
      // The store passes one object for every statement of a query family; a name a statement does not use
      // is not an error (as with better-sqlite3).
      s.setAllowUnknownNamedParameters?.(true);
      if (!pluck) return s;
      return {
        run: (...p) => s.run(...p),
        get: (...p) => firstColumn(s.get(...p)),
        all: (...p) => s.all(...p).map(firstColumn),
      };
    },
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
  };
}

function firstColumn(row: Record<string, unknown> | undefined): unknown {
  if (row === undefined) return undefined;
  for (const key in row) return row[key];
  return undefined;
}

// ---- better-sqlite3 (a Node-API addon, prebuilt in its package) ----

interface BetterStatement extends Statement {
  pluck(on?: boolean): unknown;
}
interface BetterDatabase {
  readonly open: boolean;
  prepare(sql: string): BetterStatement;
  exec(sql: string): void;
  close(): void;
}

function openBetterSqlite3(path: string): Connection {
  let Database: new (path: string) => BetterDatabase;
  try {
    Database = createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  } catch (error) {
    throw new PunctualError(
      'STORE_DRIVER_UNAVAILABLE',
      'the better-sqlite3 driver was asked for but cannot be loaded (install better-sqlite3)',
      { driver: 'better-sqlite3' },
      { cause: error },
    );
  }
  const db = new Database(path);
  return {
    driver: 'better-sqlite3',
    get open() {
      return db.open;
    },
    prepare(sql, pluck) {
      const s = db.prepare(sql);
      if (pluck) s.pluck();
      return s;
    },
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
  };
}
