// `punctual doctor`: checks what `serve` needs before it is run or while it runs, one ✓ / ! / ✗ / - line
// each (or {"ok", "checks"} with --json): the configuration, the database, SQLite's integrity check of the
// file (quick_check above 1 GiB), its schema version, the clock offset to a shared database server, tenants
// and keys, whether the service answers, and the webhook private-target allow-list. A check ticks only when
// it ran and passed; one that could not run says so (`skipped`, with why). It only reads (it never migrates
// nor creates a database) and exits 1 when a check fails.

import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import {
  AddressGuard,
  PostgresStore,
  SqliteStore,
  parseCidrList,
  type Cidr,
  type SchemaVersion,
  type Store,
  type TenantStore,
} from 'punctual';
import type { Config } from '../../config.js';
import { localUrl } from '../../local-url.js';
import { describeDatabase, openStore, sqlitePathOf } from '../../store-from-config.js';
import { EXIT_OK, EXIT_REJECTED, type CliIo } from '../io.js';
import { loadCliConfig, type AdminArgs } from '../open-store.js';
import { printJson } from '../output.js';
import { schemaVersion } from '../schema-version.js';

export interface DoctorArgs extends AdminArgs {
  /** Probes the configured service's /readyz. Default: the global fetch. */
  fetch?: typeof fetch;
  /** The folder a relative PUNCTUAL_DATABASE_PATH is resolved against, as serve does. Default: process.cwd(). */
  cwd?: string;
}

/** ok: ran and passed; warn: ran, worth a look; fail: ran and failed; skipped: could not run (never a tick). */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skipped';

export interface Check {
  name: string;
  status: CheckStatus;
  message: string;
}

/** Above this offset to the database server's clock, doctor warns. */
export const CLOCK_WARN_MS = 1000;

const MARK: Record<CheckStatus, string> = { ok: '✓', warn: '!', fail: '✗', skipped: '-' };

const skipped = (name: string, why: string): Check => ({
  name,
  status: 'skipped',
  message: `not run: ${why}`,
});

/** True when an IPv4 block contains 169.254.169.254, the cloud metadata address. */
/** True when the block contains the cloud metadata address (169.254.169.254, also as IPv4-mapped IPv6). */
function coversMetadata(c: Cidr): boolean {
  // The metadata address is forbidden by default, so a guard with only this block allows it exactly when
  // the block contains it.
  return new AddressGuard([c]).allows('169.254.169.254');
}

function allowListCheck(config: Readonly<Config>): Check {
  const name = 'webhooks';
  let blocks: ReturnType<typeof parseCidrList>;
  try {
    blocks = parseCidrList(config.allowPrivateTargets);
  } catch (e) {
    return { name, status: 'fail', message: (e as Error).message };
  }
  if (blocks.length === 0) {
    return {
      name,
      status: 'ok',
      message: 'reach public addresses only (PUNCTUAL_ALLOW_PRIVATE_TARGETS is empty)',
    };
  }
  const list = blocks.map((b) => b.text).join(', ');
  const wide = blocks.filter((b) => b.prefix === 0).map((b) => b.text);
  if (wide.length > 0) {
    return {
      name,
      status: 'warn',
      message: `the private-target allow-list ${wide.join(', ')} lets webhooks reach any address`,
    };
  }
  const meta = blocks.filter(coversMetadata).map((b) => b.text);
  if (meta.length > 0) {
    return {
      name,
      status: 'warn',
      message: `the private-target allow-list ${meta.join(', ')} includes the cloud metadata address 169.254.169.254`,
    };
  }
  return {
    name,
    status: 'ok',
    message: `may also reach these private blocks: ${list} (PUNCTUAL_ALLOW_PRIVATE_TARGETS)`,
  };
}

/** Where doctor looks for the service, and which setting said so. */
function serviceUrl(config: Readonly<Config>, env: Readonly<Record<string, string | undefined>>) {
  const fromEnv = env.PUNCTUAL_URL?.trim();
  if (fromEnv) return { url: fromEnv.replace(/\/+$/, ''), from: 'PUNCTUAL_URL' };
  if (config.publicUrl !== null) return { url: config.publicUrl, from: 'PUNCTUAL_PUBLIC_URL' };
  if (config.port === 0) return undefined;
  return { url: localUrl(config.host, config.port), from: 'PUNCTUAL_HOST and PUNCTUAL_PORT' };
}

/** What a 503 from /readyz says is wrong, when it says it in the documented error shape. */
async function notReadyReason(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: { message?: unknown } };
    return typeof body.error?.message === 'string' ? `: ${body.error.message}` : '';
  } catch {
    return '';
  }
}

/** Asks the service's /readyz: a tick only when it answered ready. */
async function serviceCheck(
  config: Readonly<Config>,
  env: Readonly<Record<string, string | undefined>>,
  probe: typeof fetch,
): Promise<Check> {
  const name = 'service';
  const settings = `concurrency ${config.concurrency}, ${config.defaultRateLimit} requests/s per tenant by default`;
  const target = serviceUrl(config, env);
  if (target === undefined) {
    return skipped(name, 'PUNCTUAL_PORT is 0 (a free port is picked at start): set PUNCTUAL_URL to probe it');
  }
  const { url, from } = target;
  let res: Response;
  try {
    res = await probe(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
  } catch (e) {
    const why = e instanceof Error && e.name === 'TimeoutError' ? 'no answer within 2 s' : 'nothing answers';
    return {
      name,
      status: 'warn',
      message: `${why} at ${url} (from ${from}): is punctual serve running there?`,
    };
  }
  if (res.status === 200) {
    return { name, status: 'ok', message: `${url} answers /readyz: ready (${settings})` };
  }
  if (res.status === 503) {
    return {
      name,
      status: 'warn',
      message: `${url} answers /readyz: not ready${await notReadyReason(res)}`,
    };
  }
  return {
    name,
    status: 'fail',
    message: `${url} (from ${from}) answers /readyz with ${res.status}: not a Punctual service, or the wrong address`,
  };
}

/** Why the SQLite file is looked for where it is: the setting, and the folder a relative path depends on. */
function sqliteOrigin(
  config: Readonly<Config>,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string {
  const setting = env.PUNCTUAL_DATABASE_PATH
    ? `PUNCTUAL_DATABASE_PATH=${config.databasePath}`
    : env.PUNCTUAL_CONFIG
      ? `databasePath ${config.databasePath} from ${env.PUNCTUAL_CONFIG} or its default`
      : `PUNCTUAL_DATABASE_PATH unset: the default ${config.databasePath}`;
  if (isAbsolute(config.databasePath)) return setting;
  return `${setting}, relative, so resolved against the current folder ${cwd} as serve does`;
}

/** The checks that need the database: database, schema, clock, tenants (each skipped when it cannot run). */
async function databaseChecks(
  given: Readonly<Config>,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  now: () => number,
  service: Check,
): Promise<Check[]> {
  // A relative SQLite path is resolved here, once, against the folder serve would run in.
  const config = given.databaseUrl === null ? { ...given, databasePath: sqlitePathOf(given, cwd) } : given;
  const database = describeDatabase(config);
  const afterDatabase = (why: string): Check[] => [
    skipped('schema', why),
    skipped('clock', why),
    skipped('tenants', why),
  ];
  if (config.databaseUrl === null && !existsSync(config.databasePath)) {
    const elsewhere =
      service.status === 'ok'
        ? '; a service answers all the same, so it uses another database: run doctor with its settings and folder'
        : '';
    const message =
      `no database file at ${config.databasePath} (${sqliteOrigin(given, env, cwd)}); ` +
      `punctual migrate or serve creates it${elsewhere}`;
    return [{ name: 'database', status: 'fail', message }, ...afterDatabase('no database to check')];
  }
  const checks: Check[] = [];
  let store: (Store & TenantStore) | undefined;
  try {
    store = (await openStore(config)).store;
    let offset: { offsetMs: number; rttMs: number } | undefined;
    if (store instanceof SqliteStore) {
      const d = store.diagnostics();
      const status = d.journalMode === 'wal' ? 'ok' : 'warn';
      checks.push({
        name: 'database',
        status,
        message: `${database} opens (journal ${d.journalMode}, synchronous ${d.synchronous})`,
      });
      checks.push(integrityCheck(store, resolve(config.databasePath)));
    } else if (store instanceof PostgresStore) {
      offset = await store.clockOffset(now);
      checks.push({
        name: 'database',
        status: 'ok',
        message: `${database} answers (round trip ${offset.rttMs.toFixed(1)} ms)`,
      });
    }
    const v = await schemaVersion(store);
    const schemaOk = v.applied === v.expected;
    checks.push(schemaCheck(v));
    if (offset === undefined) {
      checks.push(skipped('clock', 'SQLite runs on this machine: no database server clock to compare with'));
    } else {
      const ms = Math.round(offset.offsetMs);
      const shown = `${ms >= 0 ? '+' : ''}${ms} ms`;
      checks.push(
        Math.abs(offset.offsetMs) > CLOCK_WARN_MS
          ? {
              name: 'clock',
              status: 'warn',
              message: `offset to the database server ${shown}, over ${CLOCK_WARN_MS} ms: synchronise this machine's clock (NTP)`,
            }
          : { name: 'clock', status: 'ok', message: `offset to the database server ${shown}` },
      );
    }
    checks.push(
      schemaOk
        ? await tenantCheck(store)
        : skipped('tenants', 'the schema is not the one this Punctual expects'),
    );
  } catch (e) {
    const message = `${database}: ${e instanceof Error ? e.message : String(e)}`;
    const name = checks.length === 0 ? 'database' : 'schema';
    checks.push({ name, status: 'fail', message });
    const why = name === 'database' ? 'the database could not be read' : 'the schema could not be read';
    for (const n of ['schema', 'clock', 'tenants']) {
      if (!checks.some((c) => c.name === n)) checks.push(skipped(n, why));
    }
  } finally {
    await store?.close().catch(() => {});
  }
  return checks;
}

/** Above this size doctor runs SQLite's quick_check (linear time) instead of the full integrity_check. */
export const QUICK_CHECK_BYTES = 1024 ** 3;

/** SQLite's own check of the file: a damaged page fails it, whatever the other checks say. */
function integrityCheck(store: SqliteStore, path: string): Check {
  const quick = statSync(path).size > QUICK_CHECK_BYTES;
  const pragma = quick ? 'quick_check (the file is over 1 GiB)' : 'integrity_check';
  const problems = store.integrityCheck({ quick, max: 5 });
  if (problems.length === 0) return { name: 'integrity', status: 'ok', message: `SQLite ${pragma}: ok` };
  return {
    name: 'integrity',
    status: 'fail',
    message:
      `SQLite ${pragma} found damage (${problems.slice(0, 3).join('; ')}): stop the service, keep a copy ` +
      'of the file, and restore the latest backup (or rebuild it with `sqlite3 <file> .recover`)',
  };
}

/** The applied schema version against the one this build migrates to. */
function schemaCheck(v: SchemaVersion): Check {
  const name = 'schema';
  if (v.applied === 0) {
    return {
      name,
      status: 'fail',
      message: `not migrated yet (this Punctual expects version ${v.expected}): run punctual migrate`,
    };
  }
  if (v.applied < v.expected) {
    return {
      name,
      status: 'fail',
      message: `version ${v.applied} is behind this Punctual's ${v.expected}: run punctual migrate`,
    };
  }
  if (v.applied > v.expected && v.required !== undefined && v.required <= v.expected) {
    return {
      name,
      status: 'ok',
      message:
        `version ${v.applied}, newer than this Punctual's ${v.expected} but declared to work with it ` +
        `(a rolling deploy in progress): upgrade this instance next`,
    };
  }
  if (v.applied > v.expected) {
    return {
      name,
      status: 'fail',
      message: `version ${v.applied} is newer than this Punctual's ${v.expected} (SCHEMA_TOO_NEW): upgrade Punctual`,
    };
  }
  return { name, status: 'ok', message: `version ${v.applied}, current` };
}

async function tenantCheck(store: TenantStore): Promise<Check> {
  const tenants = await store.listTenants();
  if (tenants.length === 0) {
    return {
      name: 'tenants',
      status: 'warn',
      message: 'none yet: serve creates "default" on its first start, or run punctual tenants create',
    };
  }
  const active = tenants.filter((t) => t.state === 'active');
  let keys = 0;
  for (const t of active) keys += (await store.listApiKeys(t.id)).filter((k) => k.revokedAt === null).length;
  const message = `${tenants.length} (${active.length} active), ${keys} live API key(s) on active tenants`;
  return { name: 'tenants', status: keys === 0 ? 'warn' : 'ok', message };
}

export async function doctor(args: DoctorArgs, io: CliIo): Promise<number> {
  const json = args.json === true;
  const checks: Check[] = [];
  const problems: string[] = [];
  const config = loadCliConfig(
    { ...args, json: false },
    {
      ...io,
      stdout: (t) => void problems.push(t),
      stderr: (t) => void problems.push(t),
    },
  );
  if (typeof config === 'number') {
    const text = problems
      .join('')
      .replace(/^punctual: CONFIG_INVALID: /, '')
      .trimEnd();
    checks.push({ name: 'configuration', status: 'fail', message: text });
    for (const name of ['database', 'schema', 'clock', 'tenants', 'service', 'webhooks']) {
      checks.push(skipped(name, 'the configuration is invalid'));
    }
  } else {
    const env = args.env ?? {};
    const source = env.PUNCTUAL_CONFIG ? `environment and ${env.PUNCTUAL_CONFIG}` : 'environment';
    checks.push({ name: 'configuration', status: 'ok', message: `valid (from the ${source})` });
    const service = await serviceCheck(config, env, args.fetch ?? fetch);
    checks.push(...(await databaseChecks(config, env, args.cwd ?? process.cwd(), () => io.now(), service)));
    checks.push(service);
    checks.push(allowListCheck(config));
  }
  const failed = checks.filter((c) => c.status === 'fail').length;
  const warned = checks.filter((c) => c.status === 'warn').length;
  const notRun = checks.filter((c) => c.status === 'skipped').length;
  if (json) printJson(io, { ok: failed === 0, checks });
  else {
    const lines = checks.map((c) => `${MARK[c.status]} ${c.name}: ${c.message}`);
    const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
    const notes = [
      ...(warned > 0 ? [plural(warned, 'warning')] : []),
      ...(notRun > 0 ? [`${plural(notRun, 'check')} not run`] : []),
    ];
    const aside = notes.length > 0 ? ` (${notes.join(', ')})` : '';
    lines.push(
      failed === 0
        ? `punctual doctor: no check failed${aside}`
        : `punctual doctor: ${plural(failed, 'check')} failed${aside}`,
    );
    io.stdout(`${lines.join('\n')}\n`);
  }
  return failed === 0 ? EXIT_OK : EXIT_REJECTED;
}
