// The service's configuration: the Config it runs with and `loadConfig`, which merges an optional JSON file
// (PUNCTUAL_CONFIG) under the environment, applies the defaults and validates every setting declared in
// config-settings.ts, returning a frozen Config. Every refusal names the setting and what it got. It must
// never read `process` itself (callers pass the environment and a file reader), and never echo a database
// password, the metrics token or a broker URL (JSON settings are reported by what is wrong, never by their
// value).

import { readFileSync } from 'node:fs';
import type { BrokerConnectionsConfig } from 'punctual';
import { SETTINGS, configSchema, type LogLevel } from './config-settings.js';
import { TARGET_SETTINGS, limitProblems } from './config-targets.js';
import { isPlainObject } from './config-values.js';
import type { OtelMode } from './otel-tracing.js';

export interface Config {
  /** PostgreSQL connection URL; null means the SQLite file at databasePath. */
  databaseUrl: string | null;
  databasePath: string;
  pgSchema: string;
  /** Parsed schedules the PostgreSQL store keeps for claims (postgresStore scheduleCacheSize). */
  pgScheduleCache: number;
  /** How long `serve` waits for a database that does not answer at start; 0: not at all. */
  databaseWaitMs: number;
  host: string;
  port: number;
  /** Where users reach the service (no trailing slash); null: derived from the address listened on. */
  publicUrl: string | null;
  logLevel: LogLevel;
  logFormat: 'auto' | 'json' | 'pretty';
  /** Largest request body in bytes. */
  bodyLimit: number;
  /** CIDR blocks webhooks may reach although private or loopback (comma-separated). */
  allowPrivateTargets: string;
  concurrency: number;
  /** How long before their instant runs of overlap `allow` are claimed (the scheduler's claimAheadMs). */
  claimAheadMs: number;
  /** API requests per second per tenant when the tenant's quota does not say. */
  defaultRateLimit: number;
  webhookSecretGraceMs: number;
  shutdownGraceMs: number;
  /** How many tenants get their own value of the `tenant` metric label; the rest share `other`. */
  metricsTenantLabels: number;
  /** Schedules (`[tenant/]key`, `*` for a prefix, comma-separated) with per-schedule metric series. */
  metricsScheduleLabels: string;
  /** The bearer token GET /metrics requires (and then shows tenant labels); null: open, no tenant ids. */
  metricsToken: string | null;
  /** Traces (otel-tracing.ts): `auto` on when an OTLP endpoint is set in the environment, `on`, or `off`. */
  otel: OtelMode;
  /** The `failure_rate` alert (docs/alerts.md): `off`, or `on` with the library's default policy. */
  alertFailureRate: 'off' | 'on';
  // The target settings (config-targets.ts) are absent when unset: the library's defaults apply (see
  // scriptLimitsOf). Absent rather than filled in, so a Config shows what the operator chose.
  /** The operator's broker connections by name (validated); absent: no broker target is enabled. */
  brokers?: BrokerConnectionsConfig;
  /** Script target: `auto` (default: on when the store keeps a key-value store), `on` (required) or `off`. */
  scripts?: 'auto' | 'on' | 'off';
  /** Sandbox threads of the script target (default 2). */
  scriptPoolSize?: number;
  scriptDefaultTimeoutMs?: number;
  scriptMaxTimeoutMs?: number;
  scriptDefaultMemoryMb?: number;
  scriptMaxMemoryMb?: number;
  /** Hosts each tenant's scripts may fetch from, by tenant id (`*`: tenants not named); absent: any host. */
  scriptFetchHosts?: Record<string, string[]>;
  /** Command target (docs/commands.md): `off` (default) or `on` (then commandTenants is required). */
  commandTarget?: 'on' | 'off';
  /** The tenants that may use command targets when on (`*`: every tenant). */
  commandTenants?: string[];
  /** Keys per tenant in the key-value store (default 1000). */
  kvMaxKeys?: number;
  /** Largest key-value value in bytes of JSON (default 16 KiB). */
  kvMaxValueBytes?: number;
}

/** Thrown by loadConfig with every problem found (one line each, naming the setting). */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

type Raw = string | number | boolean;

/** The setting that names the optional JSON file; its keys are the Config keys (`port`, `databasePath`...). */
export const CONFIG_FILE_ENV = 'PUNCTUAL_CONFIG';

function show(key: keyof Config, v: Raw): string {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  // A database URL may carry a password: show its scheme and host only.
  if (key === 'metricsToken') return '"***"';
  const safe = key === 'databaseUrl' ? text.replace(/\/\/[^@/]*@/, '//***@') : text;
  return JSON.stringify(safe.length > 80 ? `${safe.slice(0, 77)}...` : safe);
}

function readConfigFile(
  path: string,
  readFile: (path: string) => string,
  problems: string[],
): Record<string, unknown> {
  let text: string;
  try {
    text = readFile(path);
  } catch (e) {
    problems.push(`${CONFIG_FILE_ENV}: cannot read ${path}: ${(e as Error).message}`);
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    problems.push(`${CONFIG_FILE_ENV}: ${path} is not valid JSON: ${(e as Error).message}`);
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    problems.push(`${CONFIG_FILE_ENV}: ${path} must hold a JSON object such as {"port": 8080}`);
    return {};
  }
  const known = new Set<string>(SETTINGS.map((s) => s.key));
  for (const k of Object.keys(parsed)) {
    if (!known.has(k)) problems.push(`"${k}" in ${path} is not a setting (known: ${[...known].join(', ')})`);
  }
  return parsed as Record<string, unknown>;
}

/**
 * Reads the settings from `env` (and the JSON file PUNCTUAL_CONFIG names, which `readFile` reads; the
 * environment wins), applies the defaults and validates everything. Throws ConfigError listing every
 * problem, each naming its setting: `PUNCTUAL_PORT must be an integer between 0 and 65535 ..., got "abc"`.
 */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>>,
  readFile: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): Readonly<Config> {
  const problems: string[] = [];
  const filePath = env[CONFIG_FILE_ENV];
  const file = filePath ? readConfigFile(filePath, readFile, problems) : {};
  const raw: Record<string, Raw> = {};
  const from: Record<string, string> = {};
  for (const s of SETTINGS) {
    const e = env[s.env];
    const f = file[s.key];
    if (e !== undefined && e !== '') {
      raw[s.env] = e;
      from[s.env] = s.env;
    } else if (f !== undefined && f !== null) {
      if (s.json && isPlainObject(f)) {
        raw[s.env] = f as unknown as Raw;
        from[s.env] = `${s.key} (${s.env}) in ${filePath}`;
        continue;
      }
      if (typeof f !== 'string' && typeof f !== 'number' && typeof f !== 'boolean') {
        problems.push(`${s.key} (${s.env}) in ${filePath} must be ${s.expect}, got ${JSON.stringify(f)}`);
        continue;
      }
      raw[s.env] = f;
      from[s.env] = `${s.key} (${s.env}) in ${filePath}`;
    } else if (s.default !== undefined) {
      raw[s.env] = s.default;
      from[s.env] = s.env;
    }
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = new Map(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
    for (const s of SETTINGS) {
      const issue = issues.get(s.env);
      if (issue === undefined) continue;
      problems.push(
        s.json
          ? `${from[s.env]}: ${issue}`
          : `${from[s.env]} must be ${s.expect}, got ${show(s.key, raw[s.env] as Raw)}`,
      );
    }
  }
  if (problems.length > 0 || !parsed.success) throw new ConfigError(problems);
  const v = parsed.data as Record<string, unknown>;
  const get = <T>(key: keyof Config): T => v[SETTINGS.find((s) => s.key === key)!.env] as T;
  // Settings that are absent when unset (the library's defaults apply).
  const optional: Partial<Config> = {};
  for (const { key } of TARGET_SETTINGS) {
    const value = get<unknown>(key);
    if (value !== undefined) (optional as Record<string, unknown>)[key] = value;
  }
  const limits = limitProblems(optional as Config);
  if (limits.length > 0) throw new ConfigError(limits);
  return Object.freeze({
    ...optional,
    databaseUrl: get<string | undefined>('databaseUrl') ?? null,
    databasePath: get<string>('databasePath'),
    pgSchema: get<string>('pgSchema'),
    pgScheduleCache: get<number>('pgScheduleCache'),
    databaseWaitMs: get<number>('databaseWaitMs'),
    host: get<string>('host'),
    port: get<number>('port'),
    publicUrl: get<string | undefined>('publicUrl') ?? null,
    logLevel: get<LogLevel>('logLevel'),
    logFormat: get<Config['logFormat']>('logFormat'),
    bodyLimit: get<number>('bodyLimit'),
    allowPrivateTargets: get<string>('allowPrivateTargets'),
    concurrency: get<number>('concurrency'),
    claimAheadMs: get<number>('claimAheadMs'),
    defaultRateLimit: get<number>('defaultRateLimit'),
    webhookSecretGraceMs: get<number>('webhookSecretGraceMs'),
    shutdownGraceMs: get<number>('shutdownGraceMs'),
    metricsTenantLabels: get<number>('metricsTenantLabels'),
    metricsScheduleLabels: get<string>('metricsScheduleLabels'),
    metricsToken: get<string | undefined>('metricsToken') ?? null,
    otel: get<OtelMode>('otel'),
    alertFailureRate: get<'off' | 'on'>('alertFailureRate'),
  });
}
