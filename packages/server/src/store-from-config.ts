// Opens the store the configuration names: the SQLite file at databasePath (its folder created), or
// PostgreSQL when databaseUrl is set. Shared by the service and the admin commands so both open the same
// database the same way. It never migrates, and never shows a database password (`database` is for people).

import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { postgresStore, sqliteStore, type Store, type TenantStore } from 'punctual';
import type { Config } from './config.js';
import type { Logger } from './logger.js';

export interface OpenedStore {
  store: Store & TenantStore;
  /** Which database, for people: `SQLite /abs/path.db` or `PostgreSQL host/db (schema punctual)`. */
  database: string;
}

function isTenantStore(store: Store): store is Store & TenantStore {
  const s = store as Partial<TenantStore>;
  return typeof s.createTenant === 'function' && typeof s.findApiKey === 'function';
}

/** A PostgreSQL URL without its credentials. */
export function describePostgres(url: string, schema: string): string {
  try {
    const u = new URL(url);
    return `PostgreSQL ${u.host}${u.pathname} (schema ${schema})`;
  } catch {
    return `PostgreSQL (schema ${schema})`;
  }
}

/**
 * The absolute path of the SQLite file: databasePath as configured, a relative one resolved against `cwd`
 * (the folder the command runs in, as for the service).
 */
export function sqlitePathOf(config: Pick<Config, 'databasePath'>, cwd: string = process.cwd()): string {
  return resolve(cwd, config.databasePath);
}

/** The database the configuration names, for people, without opening it. */
export function describeDatabase(config: Pick<Config, 'databaseUrl' | 'databasePath' | 'pgSchema'>): string {
  return config.databaseUrl === null
    ? `SQLite ${sqlitePathOf(config)}`
    : describePostgres(config.databaseUrl, config.pgSchema);
}

/**
 * Opens (does not migrate) the configured store. PostgreSQL connection errors no operation can report go to
 * `logger` when given. The PostgreSQL store loads `pg` on first use: a SQLite deployment never needs it.
 */
export async function openStore(
  config: Pick<Config, 'databaseUrl' | 'databasePath' | 'pgSchema'> &
    Partial<Pick<Config, 'pgScheduleCache'>>,
  logger?: Pick<Logger, 'error'>,
): Promise<OpenedStore> {
  const database = describeDatabase(config);
  let store: Store;
  if (config.databaseUrl === null) {
    const path = sqlitePathOf(config);
    mkdirSync(dirname(path), { recursive: true });
    store = sqliteStore({ path });
  } else {
    store = postgresStore({
      connectionString: config.databaseUrl,
      schema: config.pgSchema,
      scheduleCacheSize: config.pgScheduleCache,
      onError: (err) => logger?.error({ err }, 'PostgreSQL connection error'),
    });
  }
  if (!isTenantStore(store)) {
    await store.close();
    throw new Error(`the store for ${database} does not implement tenants (TenantStore)`);
  }
  return { store, database };
}
