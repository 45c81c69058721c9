// The service, assembled: the store (SQLite file, or PostgreSQL when PUNCTUAL_DATABASE_URL says so), the
// scheduler with its handler, webhook, broker (the operator's connections), script and command targets, migrations,
// the first-start tenant, metrics, event logs and the HTTP app. `start` runs the engine then listens; `close`
// stops listening, lets in-flight requests and runs finish, and closes the targets and the store. It must
// never print the bootstrap key itself (serve does, once) nor log a broker URL.

import type { AddressInfo } from 'node:net';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import {
  AddressGuard,
  SqliteStore,
  storageError,
  DEFAULT_SCRIPT_LIMITS,
  amqpTarget,
  commandTarget,
  createScheduler,
  hasKv,
  natsTarget,
  parseBrokerConnections,
  parseCidrList,
  redisTarget,
  scriptTarget,
  systemClock,
  webhookTarget,
  alertChannelSender,
  type WebhookSecrets,
  type BrokerKind,
  type Clock,
  type KvLimits,
  type KvStore,
  type Scheduler,
  type ScriptTargetDriver,
  type Store,
  type TargetDriver,
  type TenantStore,
} from 'punctual';
import { scriptLimitsOf } from './config-targets.js';
import type { Config } from './config.js';
import { localUrl } from './local-url.js';
import { buildApp, type App } from './http/app.js';
import { StorageHealth } from './http/storage-health.js';
import { createLogger, logSchedulerEvents, type Logger } from './logger.js';
import { Metrics } from './metrics.js';
import { createOtelTracing, tracingEnabled, type OtelTracing } from './otel-tracing.js';
import { openStore } from './store-from-config.js';
import { bootstrapTenants } from './tenancy/bootstrap.js';

/** SQLite files up to this size get a quick_check at start (linear in the file size); larger ones do not. */
export const STARTUP_CHECK_BYTES = 256 * 1024 ** 2;

export interface ServiceOptions {
  /** Default: built from the configuration (JSON, or pretty in a terminal). */
  logger?: Logger;
  /** Default: the system clock. */
  clock?: Clock;
  /** Process metrics (CPU, memory, event loop) on /metrics. Default true. */
  processMetrics?: boolean;
  /**
   * Traces to this exporter (each span as it ends) whatever PUNCTUAL_OTEL says. Default: OTLP over HTTP
   * when tracing is on (otel-tracing.ts), none when off.
   */
  spanExporter?: SpanExporter;
}

export interface Service {
  readonly config: Readonly<Config>;
  readonly app: App;
  readonly scheduler: Scheduler;
  readonly tenants: TenantStore;
  readonly logger: Logger;
  /** The tenant and key created on a first start with an empty database; null on every later start. */
  readonly bootstrap: { tenantId: string; apiKey: string } | null;
  /** Which database, for people: `SQLite /abs/path.db` or `PostgreSQL host/db (schema punctual)`. */
  readonly database: string;
  /** Target kinds this service delivers to (`handler`, `webhook`, then brokers and `script` as enabled). */
  readonly targetKinds: readonly string[];
  /** The tenants allowed command targets when PUNCTUAL_COMMAND_TARGET=on, else null (off). */
  readonly commandTenants: readonly string[] | null;
  /** The script target when enabled (PUNCTUAL_SCRIPTS), else null. */
  readonly scripts: ScriptTargetDriver | null;
  /** Whether run attempts are traced (PUNCTUAL_OTEL, or an injected span exporter). */
  readonly tracing: boolean;
  /** Starts the engine and listens. Returns the URL users reach the service at. */
  start(): Promise<{ url: string }>;
  /** Graceful stop; safe to call twice. */
  close(): Promise<void>;
}

const BROKER_DRIVERS: Record<BrokerKind, typeof redisTarget> = {
  redis: redisTarget,
  nats: natsTarget,
  amqp: amqpTarget,
};

/** One driver per broker kind that has a configured connection; the connections were checked by loadConfig. */
function brokerTargets(config: Readonly<Config>): TargetDriver[] {
  if (config.brokers === undefined) return [];
  const connections = parseBrokerConnections(config.brokers);
  return (Object.keys(BROKER_DRIVERS) as BrokerKind[])
    .filter((kind) => connections.names(kind).length > 0)
    .map((kind) => BROKER_DRIVERS[kind]({ connections }));
}

/**
 * The script target as PUNCTUAL_SCRIPTS asks: `off` none; `on` one or an error; `auto` one when the store
 * keeps a key-value store and the sandbox starts (else a warning, and the service runs without scripts).
 */
async function scriptTargetFor(
  config: Readonly<Config>,
  store: Store,
  guard: AddressGuard,
  logger: Logger,
): Promise<ScriptTargetDriver | null> {
  const mode = config.scripts ?? 'auto';
  if (mode === 'off') return null;
  if (!hasKv(store)) {
    const why = 'the store keeps no key-value store (KvStore), which ctx.kv needs';
    if (mode === 'on') throw new Error(`PUNCTUAL_SCRIPTS=on, but ${why}`);
    logger.info(`script target not enabled: ${why}`);
    return null;
  }
  const hosts = config.scriptFetchHosts;
  try {
    return await scriptTarget({
      kv: store,
      guard,
      poolSize: config.scriptPoolSize ?? 2,
      limits: scriptLimitsOf(config),
      ...(hosts ? { allowHosts: (tenantId: string) => hosts[tenantId] ?? hosts['*'] } : {}),
    });
  } catch (e) {
    if (mode === 'on') throw e;
    logger.warn({ err: e }, 'script target not enabled: the sandbox could not start');
    return null;
  }
}

/** The key-value quotas of the API: the script target's when there is one, else the configured ones. */
function kvLimitsOf(config: Readonly<Config>, scripts: ScriptTargetDriver | null): KvLimits {
  const l = scripts?.limits ?? { ...DEFAULT_SCRIPT_LIMITS, ...scriptLimitsOf(config) };
  return { maxKeys: l.kvMaxKeys, maxValueBytes: l.kvMaxValueBytes };
}

/** Opens, migrates and assembles everything; nothing listens or runs until `start`. */
export async function createService(config: Readonly<Config>, opts: ServiceOptions = {}): Promise<Service> {
  const logger = opts.logger ?? (await createLogger(config, { isTty: process.stdout.isTTY === true }));
  const clock = opts.clock ?? systemClock;
  const { store, database } = await openStore(config, logger);
  const tenants: TenantStore = store;
  // Webhooks and script fetches share one guard: the same private-address allow-list.
  const guard = new AddressGuard(parseCidrList(config.allowPrivateTargets));
  let scripts: ScriptTargetDriver | null;
  let targets: TargetDriver[];
  try {
    targets = brokerTargets(config);
    scripts = await scriptTargetFor(config, store, guard, logger);
  } catch (e) {
    await store.close().catch(() => {});
    throw e;
  }
  if (scripts) targets.push(scripts);
  // Commands run on this machine: only when the operator turned them on, for the tenants named.
  const commandTenants = config.commandTarget === 'on' ? (config.commandTenants ?? []) : null;
  if (commandTenants) targets.push(commandTarget({ tenants: commandTenants }));
  // OpenTelemetry is loaded only when tracing is on.
  let tracing: OtelTracing | null = null;
  if (opts.spanExporter || tracingEnabled(config.otel, process.env)) {
    try {
      tracing = await createOtelTracing(opts.spanExporter ? { exporter: opts.spanExporter } : {});
    } catch (e) {
      await Promise.all([scripts?.close(), store.close()]).catch(() => {});
      throw e;
    }
  }
  // The tenant's signing secrets, for webhook targets and webhook alert channels alike.
  const secrets = async (tenantId: string): Promise<WebhookSecrets> => {
    const t = await tenants.getTenant(tenantId);
    if (!t) throw new Error(`no tenant "${tenantId}"`);
    const inGrace = t.previousSecretUntil !== null && t.previousSecretUntil > scheduler.clock.now();
    return { current: t.webhookSecret, previous: inGrace ? t.previousWebhookSecret : null };
  };
  const scheduler = createScheduler({
    store,
    clock,
    ...(tracing && { tracer: tracing.tracer }),
    concurrency: config.concurrency,
    claimAheadMs: config.claimAheadMs,
    shutdownGraceMs: config.shutdownGraceMs,
    targets: [webhookTarget({ guard, secrets }), ...targets],
    alerts: {
      sender: alertChannelSender({ guard, secrets, now: () => scheduler.clock.now() }),
      failureRate: config.alertFailureRate === 'on',
    },
  });
  const targetKinds = ['handler', 'webhook', ...targets.map((t) => t.kind)];
  let bootstrap: Service['bootstrap'];
  try {
    await scheduler.migrate();
    bootstrap = await bootstrapTenants(tenants, clock.now());
  } catch (e) {
    // Closes the targets (the sandbox threads, broker clients) and the store.
    await scheduler.close().catch(() => {});
    throw e;
  }
  if (bootstrap)
    logger.info({ tenantId: bootstrap.tenantId }, 'first start: created the default tenant and its API key');
  // From here on, time is the engine's: corrected by the offset to a shared database's clock.
  logger.info({ targets: targetKinds }, 'targets enabled');
  if (tracing) logger.info('tracing on: a span per run attempt (OpenTelemetry)');
  if (commandTenants)
    logger.warn(
      { tenants: commandTenants },
      "command target on: these tenants' schedules run programs on this machine",
    );
  const metrics = new Metrics({
    scheduler,
    clock: scheduler.clock,
    tenantLabels: config.metricsTenantLabels,
    scheduleLabels: config.metricsScheduleLabels,
    processMetrics: opts.processMetrics ?? true,
    ...(scripts ? { scriptStats: () => scripts.stats() } : {}),
  });
  const unlog = logSchedulerEvents(scheduler, logger);
  const kv: { store: KvStore; limits: KvLimits } | null = hasKv(store)
    ? { store, limits: kvLimitsOf(config, scripts) }
    : null;
  // Page cursors are signed with a key derived from the database's address: every instance on the same
  // database accepts the others' cursors, and no client knows it.
  const cursorSecret = config.databaseUrl ?? `sqlite:${resolvePath(config.databasePath)}`;
  const storage = new StorageHealth(logger, () => scheduler.clock.now());
  // A damaged database takes no more writes, the engine's included (each could spread the damage).
  storage.onCorrupt(() => void scheduler.stop({ graceMs: 0 }).catch(() => {}));
  /** A SQLite file up to STARTUP_CHECK_BYTES is checked at start (quick_check): damage is known at once. */
  const checkAtStart = (): void => {
    if (!(store instanceof SqliteStore) || config.databaseUrl !== null) return;
    let size: number;
    try {
      size = statSync(resolvePath(config.databasePath)).size;
    } catch {
      return; // ':memory:', or no file to check
    }
    if (size > STARTUP_CHECK_BYTES) return;
    const problems = store.integrityCheck({ quick: true, max: 3 });
    if (problems.length > 0)
      storage.observe(storageError('corrupt', new Error(problems.join('; '))), 'quick_check at start');
  };
  const app = buildApp({
    storage,
    scheduler,
    tenants,
    config,
    logger,
    metrics,
    clock: scheduler.clock,
    kv,
    cursorSecret,
    guard,
  });

  let closing: Promise<void> | undefined;
  return {
    config,
    app,
    scheduler,
    tenants,
    logger,
    bootstrap,
    database,
    targetKinds,
    commandTenants,
    scripts,
    tracing: tracing !== null,
    async start() {
      checkAtStart();
      // On a damaged database the engine stays stopped; the API answers (reads, STORAGE_CORRUPT, /readyz).
      if (storage.fault?.kind !== 'corrupt') await scheduler.start();
      await app.listen({ host: config.host, port: config.port });
      const port = (app.server.address() as AddressInfo).port;
      const url = config.publicUrl ?? localUrl(config.host, port);
      logger.info({ host: config.host, port, url, database }, 'listening');
      return { url };
    },
    close() {
      closing ??= (async () => {
        logger.info('stopping: no new requests; in-flight runs get the shutdown grace');
        try {
          await app.close();
        } finally {
          await scheduler.close();
          // The spans of the last attempts are exported before the process goes.
          await tracing
            ?.shutdown()
            .catch((err: unknown) => logger.warn({ err }, 'could not export the last spans'));
          metrics.close();
          unlog();
          logger.info('stopped');
        }
      })();
      return closing;
    },
  };
}
