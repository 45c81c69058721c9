// The service, assembled: the store (SQLite file, or PostgreSQL when PUNCTUAL_DATABASE_URL says so), the
// scheduler with its handler and webhook targets, migrations, the first-start tenant, metrics, event logs and
// the HTTP app. `start` runs the engine then listens; `close` stops listening, lets in-flight requests and
// runs finish, and closes the store. It must never print the bootstrap key itself: serve does, once.

import type { AddressInfo } from 'node:net';
import {
  createScheduler,
  systemClock,
  webhookTarget,
  type Clock,
  type Scheduler,
  type TenantStore,
} from 'punctual';
import { localUrl, type Config } from './config.js';
import { buildApp, type App } from './http/app.js';
import { createLogger, logSchedulerEvents, type Logger } from './logger.js';
import { Metrics } from './metrics.js';
import { openStore } from './store-from-config.js';
import { bootstrapTenants } from './tenancy/bootstrap.js';

export interface ServiceOptions {
  /** Default: built from the configuration (JSON, or pretty in a terminal). */
  logger?: Logger;
  /** Default: the system clock. */
  clock?: Clock;
  /** Process metrics (CPU, memory, event loop) on /metrics. Default true. */
  processMetrics?: boolean;
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
  /** Starts the engine and listens. Returns the URL users reach the service at. */
  start(): Promise<{ url: string }>;
  /** Graceful stop; safe to call twice. */
  close(): Promise<void>;
}

/** Opens, migrates and assembles everything; nothing listens or runs until `start`. */
export async function createService(config: Readonly<Config>, opts: ServiceOptions = {}): Promise<Service> {
  const logger = opts.logger ?? (await createLogger(config, { isTty: process.stdout.isTTY === true }));
  const clock = opts.clock ?? systemClock;
  const { store, database } = await openStore(config, logger);
  const tenants: TenantStore = store;
  const scheduler = createScheduler({
    store,
    clock,
    concurrency: config.concurrency,
    shutdownGraceMs: config.shutdownGraceMs,
    targets: [
      webhookTarget({
        allowPrivate: config.allowPrivateTargets,
        secrets: async (tenantId) => {
          const t = await tenants.getTenant(tenantId);
          if (!t) throw new Error(`no tenant "${tenantId}"`);
          const inGrace = t.previousSecretUntil !== null && t.previousSecretUntil > scheduler.clock.now();
          return { current: t.webhookSecret, previous: inGrace ? t.previousWebhookSecret : null };
        },
      }),
    ],
  });
  let bootstrap: Service['bootstrap'];
  try {
    await scheduler.migrate();
    bootstrap = await bootstrapTenants(tenants, clock.now());
  } catch (e) {
    await store.close().catch(() => {});
    throw e;
  }
  if (bootstrap)
    logger.info({ tenantId: bootstrap.tenantId }, 'first start: created the default tenant and its API key');
  // From here on, time is the engine's: corrected by the offset to a shared database's clock.
  const metrics = new Metrics({
    scheduler,
    clock: scheduler.clock,
    tenantLabels: config.metricsTenantLabels,
    processMetrics: opts.processMetrics ?? true,
  });
  const unlog = logSchedulerEvents(scheduler, logger);
  const app = buildApp({ scheduler, tenants, config, logger, metrics, clock: scheduler.clock });

  let closing: Promise<void> | undefined;
  return {
    config,
    app,
    scheduler,
    tenants,
    logger,
    bootstrap,
    database,
    async start() {
      await scheduler.start();
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
          metrics.close();
          unlog();
          logger.info('stopped');
        }
      })();
      return closing;
    },
  };
}
