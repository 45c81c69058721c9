// Every setting of the service declared once: its environment name, its key in the PUNCTUAL_CONFIG file,
// its default as docs/operations.md writes it, what a valid value looks like and its zod schema (the target
// settings come from config-targets.ts), and configSchema, the one schema over them all. Declarations only:
// it must never read the environment or a file (config.ts loadConfig does), and a JSON setting's refusal
// must never repeat its value.

import { z } from 'zod';
import type { Config } from './config.js';
import { TARGET_SETTINGS } from './config-targets.js';
import { duration, int, size, validCidr } from './config-values.js';
import { isSchedulePatternList } from './metric-schedule-labels.js';
import { OTEL_MODES } from './otel-tracing.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

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
    key: 'pgScheduleCache',
    env: 'PUNCTUAL_PG_SCHEDULE_CACHE',
    default: '50000',
    expect: 'an integer between 0 and 10000000',
    doc: 'Parsed schedules the PostgreSQL store keeps in memory for claims (about 1 KB each). Keep it above the schedules that fire within about 20 s.',
    schema: int(0, 10_000_000),
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
    key: 'claimAheadMs',
    env: 'PUNCTUAL_CLAIM_AHEAD',
    default: '2s',
    expect: 'a duration such as 100ms or 1s, or 0',
    doc: 'How long before their instant runs of overlap allow are claimed, each then started on a timer at it; 0: claimed once due.',
    schema: z.union([z.literal('0').transform(() => 0), duration]),
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
