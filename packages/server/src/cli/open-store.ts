// How the admin commands (migrate, tenants, keys, doctor) reach the database: the configuration is read
// exactly as `serve` reads it (environment, optional PUNCTUAL_CONFIG file), the store is opened with the
// service's own openStore, the command runs, and the store is always closed. Errors a user can act on
// become one line and an exit code; it never prints a database password.

import { isPunctualError, type Store, type TenantStore } from 'punctual';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { openStore } from '../store-from-config.js';
import { ArgumentError, EXIT_REJECTED, EXIT_USAGE, reportError, type CliIo } from './io.js';
import { CONFIG_INVALID, DATABASE_UNAVAILABLE, printError, type Env } from './output.js';

export interface AdminArgs {
  /** The environment the settings come from (main.ts passes the process's). Default: none set. */
  env?: Env | undefined;
  /** Reads the PUNCTUAL_CONFIG file. Default: fs. */
  readFile?: ((path: string) => string) | undefined;
  json?: boolean | undefined;
}

export interface AdminContext {
  config: Readonly<Config>;
  store: Store & TenantStore;
  /** Which database, for people. */
  database: string;
}

/** Loads the configuration; on a refusal prints every problem and returns the exit code instead. */
export function loadCliConfig(args: AdminArgs, io: CliIo): Readonly<Config> | number {
  const env = args.env ?? {};
  try {
    return args.readFile ? loadConfig(env, args.readFile) : loadConfig(env);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    const message = `the configuration has ${e.problems.length} problem(s):\n${e.problems.map((p) => `  - ${p}`).join('\n')}`;
    return printError(io, args.json === true, CONFIG_INVALID, message, EXIT_USAGE);
  }
}

/** True for errors that are bugs in this program rather than a database that cannot be reached. */
function isBug(e: unknown): boolean {
  return e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError;
}

/** Reports an error thrown while the store was open; bugs are rethrown. */
export function reportStoreError(e: unknown, io: CliIo, json: boolean, database: string): number {
  if (e instanceof ArgumentError || isPunctualError(e)) return reportError(e, io, json);
  if (isBug(e)) throw e;
  const message = e instanceof Error ? e.message : String(e);
  return printError(io, json, DATABASE_UNAVAILABLE, `${database}: ${message}`, EXIT_REJECTED);
}

/**
 * Opens the configured store, runs `fn` and closes the store, whatever happens. With `migrate`, pending
 * migrations are applied first (as `serve` does); otherwise the schema is left as it is.
 */
export async function withStore(
  args: AdminArgs,
  io: CliIo,
  opts: { migrate: boolean },
  fn: (ctx: AdminContext) => Promise<number>,
): Promise<number> {
  const json = args.json === true;
  const config = loadCliConfig(args, io);
  if (typeof config === 'number') return config;
  let opened;
  try {
    opened = await openStore(config);
  } catch (e) {
    return reportStoreError(e, io, json, config.databaseUrl === null ? config.databasePath : 'PostgreSQL');
  }
  try {
    if (opts.migrate) await opened.store.migrate();
    return await fn({ config, ...opened });
  } catch (e) {
    return reportStoreError(e, io, json, opened.database);
  } finally {
    await opened.store.close().catch(() => {});
  }
}
