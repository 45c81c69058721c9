// `punctual doctor`: checks what `serve` needs before it is run or while it runs, one ✓ / ! / ✗ line each
// (or {"ok", "checks"} with --json): the configuration, the database, its schema version, the clock offset
// to a shared database server, tenants and keys, the service's address and the webhook private-target
// allow-list. It only reads (it never migrates nor creates a database) and exits 1 when a check fails.

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
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
import { localUrl, type Config } from '../../config.js';
import { describeDatabase, openStore } from '../../store-from-config.js';
import { EXIT_OK, EXIT_REJECTED, type CliIo } from '../io.js';
import { loadCliConfig, type AdminArgs } from '../open-store.js';
import { printJson } from '../output.js';
import { schemaVersion } from '../schema-version.js';

export interface DoctorArgs extends AdminArgs {
  /** Probes the configured service's /readyz. Default: the global fetch. */
  fetch?: typeof fetch;
}

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface Check {
  name: string;
  status: CheckStatus;
  message: string;
}

/** Above this offset to the database server's clock, doctor warns. */
export const CLOCK_WARN_MS = 1000;

const MARK: Record<CheckStatus, string> = { ok: '✓', warn: '!', fail: '✗' };

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

async function serviceCheck(config: Readonly<Config>, probe: typeof fetch): Promise<Check> {
  const name = 'service';
  const url = config.publicUrl ?? localUrl(config.host, config.port === 0 ? 8080 : config.port);
  const what =
    `listens on ${config.host}:${config.port}, concurrency ${config.concurrency}, ` +
    `${config.defaultRateLimit} requests/s per tenant by default`;
  if (config.port === 0) return { name, status: 'ok', message: `${what} (a free port is picked at start)` };
  try {
    const res = await probe(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
    const state = res.status === 200 ? 'ready' : `not ready (${res.status})`;
    return { name, status: res.status === 200 ? 'ok' : 'warn', message: `${what}; ${url} answers: ${state}` };
  } catch {
    return { name, status: 'ok', message: `${what}; nothing answers at ${url} yet` };
  }
}

async function databaseChecks(config: Readonly<Config>, now: () => number): Promise<Check[]> {
  const database = describeDatabase(config);
  if (config.databaseUrl === null && !existsSync(resolve(config.databasePath))) {
    const message = `no database file at ${resolve(config.databasePath)} (punctual migrate or serve creates it)`;
    return [{ name: 'database', status: 'fail', message }];
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
      checks.push({
        name: 'clock',
        status: 'ok',
        message: 'SQLite runs on this machine: no offset to measure',
      });
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
    if (schemaOk) checks.push(await tenantCheck(store));
  } catch (e) {
    const message = `${database}: ${e instanceof Error ? e.message : String(e)}`;
    checks.push({ name: checks.length === 0 ? 'database' : 'schema', status: 'fail', message });
  } finally {
    await store?.close().catch(() => {});
  }
  return checks;
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
  } else {
    const source = args.env?.PUNCTUAL_CONFIG ? `environment and ${args.env.PUNCTUAL_CONFIG}` : 'environment';
    checks.push({ name: 'configuration', status: 'ok', message: `valid (from the ${source})` });
    checks.push(...(await databaseChecks(config, () => io.now())));
    checks.push(await serviceCheck(config, args.fetch ?? fetch));
    checks.push(allowListCheck(config));
  }
  const failed = checks.filter((c) => c.status === 'fail').length;
  const warned = checks.filter((c) => c.status === 'warn').length;
  if (json) printJson(io, { ok: failed === 0, checks });
  else {
    const lines = checks.map((c) => `${MARK[c.status]} ${c.name}: ${c.message}`);
    const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;
    lines.push(
      failed === 0
        ? `punctual doctor: all checks passed${warned > 0 ? ` (${plural(warned, 'warning')})` : ''}`
        : `punctual doctor: ${plural(failed, 'check')} failed`,
    );
    io.stdout(`${lines.join('\n')}\n`);
  }
  return failed === 0 ? EXIT_OK : EXIT_REJECTED;
}
