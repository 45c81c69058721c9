// The service's configuration: every setting declared once (environment name, file key, default, meaning),
// one zod schema over them, and `loadConfig`, which merges an optional JSON file (PUNCTUAL_CONFIG) under the
// environment and returns a frozen Config. Every refusal names the setting and what it got. It must never
// read `process` itself (callers pass the environment and a file reader), and never echo a database password
// or a broker URL (JSON settings are reported by what is wrong, never by their value).

import { readFileSync } from 'node:fs';
import type { BrokerConnectionsConfig } from 'punctual';
import { z } from 'zod';
import { TARGET_SETTINGS, limitProblems } from './config-targets.js';
import { duration, int, isPlainObject, size, validCidr } from './config-values.js';
import { isSchedulePatternList } from './metric-schedule-labels.js';
import { OTEL_MODES, type OtelMode } from './otel-tracing.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  /** PostgreSQL connection URL; null means the SQLite file at databasePath. */
  databaseUrl: string | null;
  databasePath: string;
  pgSchema: string;
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

export interface Setting {
  key: keyof Config;
  env: string;
  /** The default as written in docs/operations.md (undefined: none, or the library's own default). */
  default: string | undefined;
  /** What a valid value looks like, for "must be ..." messages. */
  expect: string;
  doc: string;
  schema: z.ZodType;
  /**
   * A JSON setting: JSON text in the environment, a JSON object (or its text) in the file. Refusals say what
   * is wrong and never repeat the value (it may hold credentials).
   */
  json?: true;
}

export const SETTINGS: readonly Setting[] = [
  {
    key: 'databaseUrl',
    env: 'PUNCTUAL_DATABASE_URL',
    default: undefined,
    expect: 'a postgres:// or postgresql:// URL',
    doc: 'PostgreSQL connection URL. Unset: the SQLite file at PUNCTUAL_DATABASE_PATH.',
    schema: z.string().regex(/^postgres(ql)?:\/\/\S+$/),
  },
  {
    key: 'databasePath',
    env: 'PUNCTUAL_DATABASE_PATH',
    default: './data/punctual.db',
    expect: 'a file path',
    doc: 'The SQLite database file (its folder is created). Ignored with PUNCTUAL_DATABASE_URL.',
    schema: z.string().min(1).max(4096),
  },
  {
    key: 'pgSchema',
    env: 'PUNCTUAL_PG_SCHEMA',
    default: 'punctual',
    expect: 'a lowercase SQL identifier (a-z, 0-9, _; at most 63 characters, not starting with a digit)',
    doc: "PostgreSQL schema holding Punctual's tables.",
    schema: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/),
  },
  {
    key: 'databaseWaitMs',
    env: 'PUNCTUAL_DATABASE_WAIT',
    default: '5m',
    expect: 'a duration such as 5m or 30s, or 0',
    doc: 'At start, how long serve waits (with backoff, answering 503 NOT_READY) for a database that does not answer; 0: exit at once.',
    schema: z.union([z.literal('0').transform(() => 0), duration]),
  },
  {
    key: 'host',
    env: 'PUNCTUAL_HOST',
    default: '127.0.0.1',
    expect: 'a host name or IP address',
    doc: 'Address the HTTP server listens on. Use 0.0.0.0 to accept connections from other machines.',
    schema: z.string().regex(/^[A-Za-z0-9.:_-]{1,253}$/),
  },
  {
    key: 'port',
    env: 'PUNCTUAL_PORT',
    default: '8080',
    expect: 'an integer between 0 and 65535 (0 picks a free port)',
    doc: 'TCP port of the HTTP server.',
    schema: int(0, 65535),
  },
  {
    key: 'publicUrl',
    env: 'PUNCTUAL_PUBLIC_URL',
    default: undefined,
    expect: 'an absolute http or https URL',
    doc: 'The URL users reach the service at (behind a proxy). Default: http://HOST:PORT.',
    schema: z
      .string()
      .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/)
      .transform((v) => v.replace(/\/+$/, '')),
  },
  {
    key: 'logLevel',
    env: 'PUNCTUAL_LOG_LEVEL',
    default: 'info',
    expect: `one of ${LOG_LEVELS.join(', ')}`,
    doc: 'Least severe log level written.',
    schema: z.enum(LOG_LEVELS),
  },
  {
    key: 'logFormat',
    env: 'PUNCTUAL_LOG_FORMAT',
    default: 'auto',
    expect: 'one of auto, json, pretty',
    doc: 'JSON lines, or pretty lines for people; auto is pretty when standard output is a terminal.',
    schema: z.enum(['auto', 'json', 'pretty']),
  },
  {
    key: 'bodyLimit',
    env: 'PUNCTUAL_BODY_LIMIT',
    default: '1mb',
    expect: 'a size from 1kb to 64mb (bytes, or with a kb or mb suffix)',
    doc: 'Largest request body; a larger one is refused with 413 BODY_TOO_LARGE.',
    schema: size(1024, 64 * 1024 * 1024),
  },
  {
    key: 'allowPrivateTargets',
    env: 'PUNCTUAL_ALLOW_PRIVATE_TARGETS',
    default: '',
    expect: 'a comma-separated list of IP addresses or CIDR blocks (127.0.0.0/8,::1/128)',
    doc: 'Loopback, private or link-local blocks webhooks may reach anyway. Default: none.',
    schema: z.string().refine((v) =>
      v
        .split(',')
        .map((e) => e.trim())
        .filter((e) => e !== '')
        .every(validCidr),
    ),
  },
  {
    key: 'concurrency',
    env: 'PUNCTUAL_CONCURRENCY',
    default: '10',
    expect: 'an integer between 1 and 1000',
    doc: 'Runs this process delivers at once.',
    schema: int(1, 1000),
  },
  {
    key: 'defaultRateLimit',
    env: 'PUNCTUAL_DEFAULT_RATE_LIMIT',
    default: '50',
    expect: 'an integer between 1 and 100000',
    doc: "API requests per second per tenant (burst: one second's worth) unless the tenant's quota says.",
    schema: int(1, 100_000),
  },
  {
    key: 'webhookSecretGraceMs',
    env: 'PUNCTUAL_WEBHOOK_SECRET_GRACE',
    default: '24h',
    expect: 'a duration such as 24h, 90m or PT1H',
    doc: 'After a webhook secret rotation, how long requests carry the old signature too.',
    schema: duration,
  },
  {
    key: 'shutdownGraceMs',
    env: 'PUNCTUAL_SHUTDOWN_GRACE',
    default: '10s',
    expect: 'a duration such as 10s or 1m',
    doc: 'On SIGTERM/SIGINT, how long in-flight runs may take to finish before they are handed back.',
    schema: duration,
  },
  {
    key: 'metricsTenantLabels',
    env: 'PUNCTUAL_METRICS_TENANT_LABELS',
    default: '20',
    expect: 'an integer between 0 and 1000',
    doc: 'Tenants (first seen first) whose id becomes a metric label value; the rest are counted as `other`.',
    schema: int(0, 1000),
  },
  {
    key: 'metricsScheduleLabels',
    env: 'PUNCTUAL_METRICS_SCHEDULE_LABELS',
    default: '',
    expect:
      'a comma-separated list of schedule keys, each optionally tenant/ first and * last (acme/billing.*)',
    doc: 'Schedules given series of their own in the per-schedule metrics (last success). Default: none.',
    schema: z.string().max(10_000).refine(isSchedulePatternList),
  },
  {
    key: 'metricsToken',
    env: 'PUNCTUAL_METRICS_TOKEN',
    default: undefined,
    expect: 'a secret of 16 to 512 visible ASCII characters',
    doc:
      'When set, GET /metrics requires `Authorization: Bearer <token>` and shows per-tenant series; unset, ' +
      '/metrics is open and sums them over tenants (no tenant id).',
    schema: z.string().regex(/^[\x21-\x7e]{16,512}$/),
  },
  {
    key: 'otel',
    env: 'PUNCTUAL_OTEL',
    default: 'auto',
    expect: `one of ${OTEL_MODES.join(', ')}`,
    doc:
      'OpenTelemetry traces of run attempts, exported over OTLP/HTTP: auto (on when ' +
      'OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set), on, off.',
    schema: z.enum(OTEL_MODES),
  },
  {
    key: 'alertFailureRate',
    env: 'PUNCTUAL_ALERT_FAILURE_RATE',
    default: 'off',
    expect: 'one of off, on',
    doc:
      'The failure_rate alert of each schedule: on opens it when at least 50% of its last 10 executed runs ' +
      'are dead (with at least 5 runs), off (the default) never.',
    schema: z.enum(['off', 'on']),
  },
  ...TARGET_SETTINGS,
];

/** The one schema: environment names to their parsed values (unset settings are absent). */
export const configSchema = z.object(
  Object.fromEntries(SETTINGS.map((s) => [s.env, s.schema.optional()])) as Record<string, z.ZodType>,
);

/** The URL of a server listening on host:port, as a browser on this machine would reach it. */
export function localUrl(host: string, port: number): string {
  const reachable =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${reachable}:${port}`;
}

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
    databaseWaitMs: get<number>('databaseWaitMs'),
    host: get<string>('host'),
    port: get<number>('port'),
    publicUrl: get<string | undefined>('publicUrl') ?? null,
    logLevel: get<LogLevel>('logLevel'),
    logFormat: get<Config['logFormat']>('logFormat'),
    bodyLimit: get<number>('bodyLimit'),
    allowPrivateTargets: get<string>('allowPrivateTargets'),
    concurrency: get<number>('concurrency'),
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
