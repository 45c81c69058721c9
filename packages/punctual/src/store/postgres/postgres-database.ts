// The PostgreSQL store's connection context: the main and the hot pool, the schema (validated and quoted
// once), the wake-up channel name, the named (prepared) statements, the schedule cache, and `tx` and
// `hotQuery`, the ways store operations run (retried on deadlock). It must never interpolate a value into SQL
// (only the quoted schema identifier) and never read a clock.

import { PunctualError } from '../../errors.js';
import { withClient, type PgNamedQuery, type PgPool, type PgQueryable } from './postgres-driver.js';
import { ScheduleCache } from './postgres-schedule-cache.js';

const SCHEMA_RE = /^[a-z_][a-z0-9_]{0,62}$/;

/** Thrown inside `tx` to run the whole transaction again (e.g. a concurrent insert won a unique key). */
export class RetryTransaction extends Error {}

const RETRYABLE_CODES = new Set(['40001', '40P01']);
/** undefined_table, invalid_schema_name: the schema was never migrated. */
const NOT_MIGRATED_CODES = new Set(['42P01', '3F000']);

/**
 * A statement on a table (or schema) that does not exist means the database was never migrated (put()
 * before start()): that is STORE_NOT_MIGRATED, which says what to do, instead of PostgreSQL's "relation does
 * not exist". Anything else is returned as it is.
 */
export function notMigratedOr(e: unknown, schema: string): unknown {
  if (!NOT_MIGRATED_CODES.has((e as { code?: string } | null)?.code ?? '')) return e;
  return new PunctualError(
    'STORE_NOT_MIGRATED',
    `the PostgreSQL schema "${schema}" has no Punctual tables: call scheduler.start() or migrate() (or store.migrate()) first`,
    { schema },
    { cause: e },
  );
}
const MAX_TRIES = 5;

/**
 * The session of the hot pool's connections, which run only six named statements: the claim page, the
 * settlement, both together, the materializer's claim of due schedules, and its advance of one schedule and
 * of a batch. They run their generic plan from the first
 * execution: planning the claim
 * costs more than running it, and the automatic choice would keep planning it because a generic LIMIT $n
 * looks expensive. A generic plan is built once per connection, from the statistics of that moment, so the
 * session also rules out the plans those statements must never have (a sequential scan, a sort of the
 * runs): with a small table they can look cheapest, and the plan would outlive the table's growth. Each
 * statement keeps its index plan then (docs/postgres.md). JIT is off because a generic plan's estimates
 * would trigger a compile that costs hundreds of milliseconds for a statement that runs in a fraction of one.
 */
export const HOT_SESSION =
  'SET plan_cache_mode = force_generic_plan; SET jit = off; SET enable_seqscan = off; SET enable_sort = off';

/**
 * The session of the main pool's connections: JIT compilation off. The store's statements are short, and a
 * plan whose estimate crosses the JIT threshold (a history prune over many schedules, at 1,000,000) spent
 * 600 ms compiling a statement that ran in 75 ms.
 */
export const MAIN_SESSION = 'SET jit = off';

export function validateSchema(schema: string): string {
  if (!SCHEMA_RE.test(schema)) {
    throw new TypeError(`schema must match ${SCHEMA_RE} (got ${JSON.stringify(schema)})`);
  }
  return schema;
}

/** The LISTEN/NOTIFY channel of a schema (identifiers are at most 63 bytes). */
export function wakeChannel(schema: string): string {
  return `${schema}_wake`.slice(0, 63);
}

export class PgDb {
  /** The schema as a quoted identifier, ready to prefix table names. */
  readonly s: string;
  /** The LISTEN/NOTIFY channel for wake-ups. */
  readonly channel: string;
  /** Schedules parsed for claims, by id and version. */
  readonly schedules: ScheduleCache;
  readonly #statements = new Map<string, string>();
  #claimTurns = 0;
  #closed = false;

  constructor(
    /** Every statement but the hot ones (MAIN_SESSION). */
    readonly pool: PgPool,
    /** The hot statements only (HOT_SESSION). */
    readonly hot: PgPool,
    readonly schema: string,
    /** The schedule cache's bound (postgresStore's scheduleCacheSize); its default when undefined. */
    scheduleCacheSize?: number,
  ) {
    this.schedules = new ScheduleCache(scheduleCacheSize);
    this.s = `"${validateSchema(schema)}"`;
    this.channel = wakeChannel(schema);
  }

  get closed(): boolean {
    return this.#closed;
  }

  markClosed(): void {
    this.#closed = true;
  }

  assertOpen(): void {
    if (this.#closed) throw new PunctualError('STORE_CLOSED', 'the PostgreSQL store was closed');
  }

  /**
   * A named statement: `pg` prepares it once per connection and afterwards only binds and executes it.
   * `sql` builds the text for this schema; it is built once per store.
   */
  named(name: string, sql: (s: string) => string, values: unknown[]): PgNamedQuery {
    let text = this.#statements.get(name);
    if (text === undefined) {
      text = sql(this.s);
      this.#statements.set(name, text);
    }
    return { name: `punctual.${name}`, text, values };
  }

  /** Which tenant a claim shared among tenants serves first: it rotates, claim after claim. */
  nextClaimTurn(): number {
    return this.#claimTurns++;
  }

  /** One statement outside a transaction. */
  async query<R = Record<string, unknown>>(q: string | PgNamedQuery, values?: unknown[]): Promise<R[]> {
    this.assertOpen();
    try {
      return (typeof q === 'string' ? await this.pool.query<R>(q, values) : await this.pool.query<R>(q)).rows;
    } catch (e) {
      throw notMigratedOr(e, this.schema);
    }
  }

  /**
   * One statement on the hot pool, as its own transaction; run again on deadlock or serialization failure
   * (the failed attempt was rolled back whole).
   */
  async hotQuery<R = Record<string, unknown>>(q: PgNamedQuery): Promise<R[]> {
    for (let tries = 1; ; tries++) {
      this.assertOpen();
      const outcome = await withClient(this.hot, async (client, markBroken) => {
        try {
          return { rows: (await client.query<R>(q)).rows };
        } catch (error) {
          // An error the server did not send (no severity) may have left the connection unusable.
          if ((error as { severity?: string }).severity === undefined) markBroken();
          return { error };
        }
      });
      if (!('error' in outcome)) return outcome.rows;
      const e = outcome.error;
      if (!RETRYABLE_CODES.has((e as { code?: string }).code ?? '') || tries >= MAX_TRIES)
        throw notMigratedOr(e, this.schema);
    }
  }

  /** Runs `fn` in one READ COMMITTED transaction; retried from the start on deadlock or RetryTransaction. */
  async tx<T>(fn: (c: PgQueryable) => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      this.assertOpen();
      const outcome = await withClient(this.pool, async (client, markBroken) => {
        try {
          await client.query('BEGIN');
          const value = await fn(client);
          await client.query('COMMIT');
          return { value };
        } catch (error) {
          await client.query('ROLLBACK').catch(markBroken);
          return { error };
        }
      });
      if (!('error' in outcome)) return outcome.value;
      const e = outcome.error;
      const retry = e instanceof RetryTransaction || RETRYABLE_CODES.has((e as { code?: string }).code ?? '');
      if (!retry || tries >= MAX_TRIES) throw notMigratedOr(e, this.schema);
    }
  }

  /** Queues a wake-up hint for listeners; delivered when the surrounding transaction commits. */
  async notifyWake(c: PgQueryable, dueAt: number): Promise<void> {
    await this.notify(c, String(dueAt));
  }

  /** Queues a payload (a wake-up's instant, or a store signal) for listeners, delivered at the commit. */
  async notify(c: PgQueryable, payload: string): Promise<void> {
    await c.query('SELECT pg_notify($1, $2)', [this.channel, payload]);
  }
}
