// The PostgreSQL store's connection context: the pool, the schema (validated and quoted once), the wake-up
// channel name, and `tx`, the one way store operations run a transaction (retried on deadlock). It must
// never interpolate a value into SQL (only the quoted schema identifier) and never read a clock.

import { PunctualError } from '../../errors.js';
import { withClient, type PgPool, type PgQueryable } from './postgres-driver.js';

const SCHEMA_RE = /^[a-z_][a-z0-9_]{0,62}$/;

/** Thrown inside `tx` to run the whole transaction again (e.g. a concurrent insert won a unique key). */
export class RetryTransaction extends Error {}

const RETRYABLE_CODES = new Set(['40001', '40P01']);
const MAX_TRIES = 5;

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
  #closed = false;

  constructor(
    readonly pool: PgPool,
    readonly schema: string,
  ) {
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

  /** One statement outside a transaction. */
  async query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<R[]> {
    this.assertOpen();
    return (await this.pool.query<R>(text, values)).rows;
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
      if (!retry || tries >= MAX_TRIES) throw e;
    }
  }

  /** Queues a wake-up hint for listeners; delivered when the surrounding transaction commits. */
  async notifyWake(c: PgQueryable, dueAt: number): Promise<void> {
    await c.query('SELECT pg_notify($1, $2)', [this.channel, String(dueAt)]);
  }
}
