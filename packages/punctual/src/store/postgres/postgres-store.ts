// The PostgreSQL store: the Store and TenantStore contracts over pooled `pg` connections, for one or many
// Punctual processes sharing a database (capabilities.multiInstance). This file owns the store's lifecycle:
// the lazy driver load, the two pools, the LISTEN connection for wake-ups, close; each operation lives in a
// sibling postgres-*.ts file. It never reads a clock for data decisions (`now` is always a parameter), never
// interpolates a value into SQL, and never lets a connection error crash the process.

import { PunctualError } from '../../errors.js';
import { KeepScan } from '../keep-scan.js';
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
import { decodeSignal, encodeSignal } from '../store-signals.js';
import type { TenantStore } from '../tenant-store.js';
import { appliedVersion, LATEST_VERSION, migrate, requiredVersion, type Migration } from './migrations.js';
import { measureClockOffset, type ClockOffset } from './postgres-clock-offset.js';
import {
  HOT_SESSION,
  MAIN_SESSION,
  notMigratedOr,
  PgDb,
  validateSchema,
  wakeChannel,
} from './postgres-database.js';
import { createClient, createPool } from './postgres-driver.js';
import { extendLeases } from './postgres-leases.js';
import { pruneHistory } from './postgres-queries.js';
import { insertRunRows } from './postgres-runs.js';
import * as materializer from './postgres-materializer.js';
import type { AlertStore } from '../alert-store.js';
import { Wakeups } from './postgres-wakeups.js';
import { POSTGRES_PARTS } from './postgres-store-parts.js';
import { StoreOpsBase } from '../common/store-ops.js';

export interface PostgresStoreOptions {
  connectionString: string;
  /** Schema holding Punctual's tables (created by migrate). Default `punctual`. */
  schema?: string;
  /** Connections in the main pool: every statement but the hot ones (hotPoolSize). Default 10. */
  poolSize?: number;
  /**
   * Connections that run only the hot statements: the claim page, the settlement, the materializer's advance
   * (a worker uses at most three at once: its claim loop and two settlement transactions; a materializer
   * one). Default 4.
   */
  hotPoolSize?: number;
  /**
   * Parsed schedules kept in memory for claims, by id and version. Keep it above the schedules that fire
   * within the look-ahead plus the claims' lateness (a minute boundary of a million hourly schedules is
   * 16,667), or every claimed run reads its schedule again. About 1 KB each. Default 50,000; 0 keeps none.
   */
  scheduleCacheSize?: number;
  /** Open a LISTEN connection for wake-ups when the first listener registers. Default true. */
  listen?: boolean;
  /** Connection errors no operation can report (an idle pool client, the LISTEN connection). */
  onError?: (err: unknown) => void;
  /** @internal The migrations this code knows (default: all of this release's); tests play a newer release. */
  migrations?: readonly Migration[];
}

const DEFAULT_POOL_SIZE = 10;
const DEFAULT_HOT_POOL_SIZE = 4;

export class PostgresStore
  extends StoreOpsBase<PgDb>
  implements Store, TenantStore, KvStore, CalendarStore, AlertStore
{
  readonly capabilities: StoreCapabilities = Object.freeze({
    multiInstance: true,
    wakeups: true,
    concurrentStatements: true,
  });
  readonly schema: string;
  readonly #opts: PostgresStoreOptions;
  #db: Promise<PgDb> | undefined;
  #wakeups: Wakeups | undefined;
  #closed = false;
  /** Where the keep-per-schedule prune reads next (store/keep-scan.ts). */
  readonly #keepScan = new KeepScan();
  /** The schema was seen migrated (by this store's migrate() or a check): data operations may run. */
  #migrated = false;

  /** The operations handed straight to the modules (store/common/store-parts.ts). */
  protected readonly ops = POSTGRES_PARTS;

  constructor(opts: PostgresStoreOptions) {
    super();
    this.#opts = { ...opts };
    this.schema = validateSchema(opts.schema ?? 'punctual');
    const size = opts.scheduleCacheSize;
    if (size !== undefined && !(Number.isSafeInteger(size) && size >= 0)) {
      throw new TypeError(`scheduleCacheSize must be a whole number >= 0 (got ${String(size)})`);
    }
  }

  /**
   * The connection context of a data operation: the schema must have been migrated (checked once, then
   * remembered), else STORE_NOT_MIGRATED says to call start() or migrate() instead of "relation does not
   * exist".
   */
  #conn(): Promise<PgDb> {
    if (this.#migrated) return this.#open();
    return this.#open().then(async (db) => {
      if ((await appliedVersion(db)) === 0) throw notMigratedOr({ code: '42P01' }, this.schema);
      this.#migrated = true;
      return db;
    });
  }

  protected async run<R>(f: (db: PgDb) => R | Promise<R>): Promise<R> {
    return f(await this.#conn());
  }

  /** The connection context, created (and `pg` loaded) on first use. */
  #open(): Promise<PgDb> {
    if (this.#closed)
      return Promise.reject(new PunctualError('STORE_CLOSED', 'the PostgreSQL store was closed'));
    const url = this.#opts.connectionString;
    this.#db ??= Promise.all([
      createPool(url, this.#opts.poolSize ?? DEFAULT_POOL_SIZE, MAIN_SESSION),
      createPool(url, this.#opts.hotPoolSize ?? DEFAULT_HOT_POOL_SIZE, HOT_SESSION),
    ]).then(
      ([pool, hot]) => {
        // An idle client losing its connection emits on the pool; without a listener that would crash.
        pool.on('error', (err) => this.#report(err));
        hot.on('error', (err) => this.#report(err));
        return new PgDb(pool, hot, this.schema, this.#opts.scheduleCacheSize);
      },
      (err: unknown) => {
        this.#db = undefined;
        throw err;
      },
    );
    return this.#db;
  }

  #report(err: unknown): void {
    try {
      this.#opts.onError?.(err);
    } catch {
      // an error reporter that throws must not take the process down
    }
  }

  async migrate(): Promise<void> {
    const db = await this.#open();
    await migrate(db, this.#opts.migrations);
    this.#migrated = true;
  }

  async schemaVersion(): Promise<SchemaVersion> {
    const db = await this.#open();
    return {
      applied: await appliedVersion(db),
      expected: this.#opts.migrations?.at(-1)?.version ?? LATEST_VERSION,
      required: await requiredVersion(db),
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#wakeups?.close();
    const db = await this.#db?.catch(() => undefined);
    if (db) {
      db.markClosed();
      await Promise.all([db.pool.end(), db.hot.end()]);
    }
  }

  // ── schedules ────────────────────────────────────────────────────────────────────────────────────

  // ── materializer ─────────────────────────────────────────────────────────────────────────────────

  async claimDueSchedules(req: {
    now: number;
    horizon: number;
    limit: number;
    leaseMs: number;
    rollBackLeadMs?: number | undefined;
  }): Promise<Schedule[]> {
    if (req.limit <= 0) return [];
    return materializer.claimDueSchedules(await this.#conn(), req);
  }

  // ── runs ─────────────────────────────────────────────────────────────────────────────────────────
  async insertRuns(runs: RunInsert[], now: number): Promise<Transition[]> {
    if (runs.length === 0) return [];
    const db = await this.#conn();
    return db.tx((c) => insertRunRows(db, c, runs, now));
  }

  async extendLeases(
    leases: { runId: string; token: string }[],
    until: number,
    _now: number,
  ): Promise<string[]> {
    return extendLeases(await this.#conn(), leases, until);
  }

  async pruneHistory(req: PruneRequest): Promise<number> {
    return pruneHistory(await this.#conn(), req, this.#keepScan);
  }

  /** Signals every instance on this schema (NOTIFY, after the operation committed); a latency hint only. */
  protected async signal(signals: StoreSignal[]): Promise<void> {
    if (signals.length === 0) return;
    const db = await this.#conn();
    for (const payload of signals.flatMap(encodeSignal)) await db.notify(db.pool, payload);
  }

  /** Registers a signal listener (the wake-up channel carries them); a latency hint only. */
  onSignal(listener: (signal: StoreSignal) => void): () => void {
    return this.#listen((payload) => {
      const signal = decodeSignal(payload);
      if (signal !== undefined) listener(signal);
    });
  }

  // ── beyond the contract ──────────────────────────────────────────────────────────────────────────
  /** Registers a wake-up listener (LISTEN/NOTIFY on `<schema>_wake`); a latency hint only. */
  onWake(listener: (dueAt: number) => void): () => void {
    return this.#listen((payload) => {
      const dueAt = payload.startsWith('{') ? NaN : Number(payload);
      if (payload !== '' && Number.isFinite(dueAt)) listener(dueAt);
    });
  }

  #listen(listener: (payload: string) => void): () => void {
    if (this.#closed || this.#opts.listen === false) return () => undefined;
    this.#wakeups ??= new Wakeups({
      channel: wakeChannel(this.schema),
      connect: () => createClient(this.#opts.connectionString),
      onError: (err) => this.#report(err),
      resync: () => this.nextRunDueAt(),
    });
    return this.#wakeups.add(listener);
  }

  /** Resolves once the LISTEN connection is up (after the first onWake); for tests and health checks. */
  async wakeupsReady(): Promise<void> {
    await this.#wakeups?.ready();
  }

  /** The database server's clock minus `localNow()`, in ms, from the lowest-latency of a few samples. */
  async measureClockOffset(localNow: () => number = Date.now): Promise<number> {
    return (await this.clockOffset(localNow)).offsetMs;
  }

  /** The offset with the round trip of the sample it was taken from. */
  async clockOffset(localNow: () => number = Date.now, samples = 5): Promise<ClockOffset> {
    return measureClockOffset((await this.#open()).pool, localNow, samples);
  }
}

/** Creates a PostgreSQL store; `pg` is loaded and the pool opened on first use. Call `migrate()` first. */
export function postgresStore(opts: PostgresStoreOptions): PostgresStore {
  return new PostgresStore(opts);
}
