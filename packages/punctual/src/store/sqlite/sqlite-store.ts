// The embedded store: Store, TenantStore and KvStore on one SQLite file (or ':memory:') through the driver it
// is given (better-sqlite3 by default, or node:sqlite; see sqlite-driver.ts). One connection owns every write;
// each mutating method is one BEGIN IMMEDIATE transaction, so the store is safe for one process
// (capabilities.multiInstance is false). Methods are async to honour the contract but work synchronously
// inside. It must never read a clock: every instant is a parameter.

import type { Schedule } from '../../domain/schedule.js';
import type {
  PruneRequest,
  RunInsert,
  SchemaVersion,
  Store,
  StoreCapabilities,
  StoreSignal,
  Transition,
} from '../store.js';
import type { KvStore } from '../kv-store.js';
import type { CalendarStore } from '../calendar-store.js';
import type { TenantStore } from '../tenant-store.js';
import { storageFault } from '../storage-faults.js';
import { LATEST_VERSION, migrate, schemaVersion } from './migrations.js';
import * as materializer from './sqlite-materializer.js';
import { SqliteDatabase, type SqliteOptions } from './sqlite-database.js';
import { KeepScan } from '../keep-scan.js';
import type { SqliteDriver } from './sqlite-driver.js';
import { extendLeases } from './sqlite-leases.js';
import { pruneHistory } from './sqlite-queries.js';
import { insertRuns } from './sqlite-runs.js';
import type { AlertStore } from '../alert-store.js';
import { SQLITE_PARTS } from './sqlite-store-parts.js';
import { StoreOpsBase } from '../common/store-ops.js';

export type { SqliteOptions } from './sqlite-database.js';

export class SqliteStore
  extends StoreOpsBase<SqliteDatabase>
  implements Store, TenantStore, KvStore, CalendarStore, AlertStore
{
  readonly capabilities: StoreCapabilities = Object.freeze({
    multiInstance: false,
    wakeups: false,
    concurrentStatements: false,
  });
  private readonly sql: SqliteDatabase;
  // Not an ES private field: tests wrap stores in a Proxy, whose calls would not reach one.
  private readonly listeners = new Set<(signal: StoreSignal) => void>();
  /** Where the keep-per-schedule prune reads next (store/keep-scan.ts). */
  private readonly keepScan = new KeepScan();

  /** The operations handed straight to the modules (store/common/store-parts.ts). */
  protected readonly ops = SQLITE_PARTS;

  constructor(opts: SqliteOptions) {
    super();
    this.sql = new SqliteDatabase(opts);
  }

  /** Runs `f` at once (synchronously, as every operation here), its result or error as a promise. */
  protected async run<R>(f: (sql: SqliteDatabase) => R | Promise<R>): Promise<R> {
    return f(this.sql);
  }

  /** Connection facts for diagnostics (doctor, tests). */
  diagnostics(): {
    driver: SqliteDriver;
    journalMode: string;
    synchronous: 'OFF' | 'NORMAL' | 'FULL' | 'EXTRA';
    schemaVersion: number;
  } {
    const sync = ['OFF', 'NORMAL', 'FULL', 'EXTRA'] as const;
    return {
      driver: this.sql.driver,
      journalMode: String(this.sql.pragma('journal_mode')),
      synchronous: sync[Number(this.sql.pragma('synchronous'))] ?? 'FULL',
      schemaVersion: this.sql.read(() => schemaVersion(this.sql)),
    };
  }

  /**
   * SQLite's own check of the file: [] when it is sound, else up to `max` problems as SQLite words them.
   * `quick`: PRAGMA quick_check (linear time; does not check that indexes agree with their tables) instead
   * of integrity_check. Reads only.
   */
  integrityCheck(opts: { quick?: boolean; max?: number } = {}): string[] {
    const max = Math.max(1, Math.trunc(opts.max ?? 10));
    const pragma = `${opts.quick === true ? 'quick_check' : 'integrity_check'}(${max})`;
    try {
      const rows = this.sql.read(() => this.sql.stmt(`PRAGMA ${pragma}`).all()) as Record<string, unknown>[];
      const lines = rows.map((r) => String(Object.values(r)[0]));
      return lines.length === 1 && lines[0] === 'ok' ? [] : lines;
    } catch (e) {
      if (storageFault(e) === 'corrupt') return [e instanceof Error ? e.message : String(e)];
      throw e;
    }
  }

  async migrate(): Promise<void> {
    this.sql.read(() => migrate(this.sql));
  }

  async schemaVersion(): Promise<SchemaVersion> {
    return { applied: this.sql.read(() => schemaVersion(this.sql)), expected: LATEST_VERSION };
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.sql.close();
  }

  /** Signals reach the engines of this process only: they share this store object. */
  onSignal(listener: (signal: StoreSignal) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Calls the listeners on the next turn, once the operation's caller has its result (as a NOTIFY arrives
   * after the commit); a listener that throws is ignored.
   */
  protected signal(signals: StoreSignal[]): void {
    if (signals.length === 0 || this.listeners.size === 0) return;
    const listeners = [...this.listeners];
    setImmediate(() => {
      for (const signal of signals)
        for (const l of listeners) {
          try {
            l(signal);
          } catch {
            // a hint: a failing listener must not fail anything
          }
        }
    });
  }

  async claimDueSchedules(req: {
    now: number;
    horizon: number;
    limit: number;
    leaseMs: number;
    rollBackLeadMs?: number | undefined;
  }): Promise<Schedule[]> {
    return materializer.claimDueSchedules(this.sql, req);
  }

  async insertRuns(runs: RunInsert[], now: number): Promise<Transition[]> {
    if (runs.length === 0) return [];
    return this.sql.write(() => insertRuns(this.sql, runs, now));
  }

  async extendLeases(
    leases: { runId: string; token: string }[],
    until: number,
    _now: number,
  ): Promise<string[]> {
    return extendLeases(this.sql, leases, until);
  }

  async pruneHistory(req: PruneRequest): Promise<number> {
    return pruneHistory(this.sql, req, this.keepScan);
  }
}

/** Opens (creating if needed) a SQLite store. Call `migrate()` before using it. */
export function sqliteStore(opts: {
  path: string;
  synchronous?: 'FULL' | 'NORMAL';
  driver?: SqliteDriver | undefined;
}): SqliteStore {
  return new SqliteStore(opts);
}
