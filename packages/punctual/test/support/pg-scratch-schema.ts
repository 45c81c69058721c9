// A PostgreSQL schema of its own for one test: a client, a fresh schema name (bare and quoted) and a store on
// it. The store is always closed and the client ended; the schema is dropped when the body succeeds and kept
// when it fails, so a failed test can be inspected (the error names the schema). Test support only: it never
// touches a schema it did not name.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  postgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
} from '../../src/store/postgres/postgres-store.js';

export interface ScratchSchema {
  /** A client of its own, outside the store (to build an old schema, or to look at the tables). */
  db: pg.Client;
  /** The schema's name, and the same quoted for SQL text. */
  schema: string;
  s: string;
  store: PostgresStore;
}

/** Runs `body` on a fresh schema; see the module header. */
export async function withScratchSchema<T>(
  url: string,
  body: (x: ScratchSchema) => Promise<T>,
  options: Omit<Partial<PostgresStoreOptions>, 'connectionString' | 'schema'> = {},
): Promise<T> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const s = `"${schema}"`;
  const store = postgresStore({ ...options, connectionString: url, schema });
  try {
    const result = await body({ db, schema, s, store });
    await store.close();
    await db.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
    return result;
  } catch (e) {
    if (e instanceof Error) e.message = `${e.message}\n(schema ${schema} kept for inspection)`;
    throw e;
  } finally {
    await store.close();
    await db.end();
  }
}
