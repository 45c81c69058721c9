// Operational routes, outside /v1 and without authentication: /healthz (the process answers), /readyz (the
// scheduler started, so migrations are current, its engine is not living through a database outage, and
// the database answers within 2 s) and /metrics
// (Prometheus text). Without a metrics token they reveal no tenant data: /metrics then sums its per-tenant
// series over tenants. With PUNCTUAL_METRICS_TOKEN, /metrics requires it as a bearer token and shows them.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DatabaseOutage, Scheduler } from 'punctual';
import { z } from 'zod';
import type { Metrics } from '../../metrics.js';
import { STORAGE_ADVICE, type StorageHealth } from '../storage-health.js';
import { errorBody as errorSchema } from '../schemas.js';
import { errorBody } from '../errors.js';

export interface HealthDeps {
  scheduler: Scheduler;
  metrics?: Metrics | undefined;
  /** Damage or a full disk reported by the database: not ready while it lasts. */
  storage?: StorageHealth;
  /** The bearer token /metrics requires; null: open, without tenant ids. */
  metricsToken?: string | null;
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Whether the Authorization header carries the token (compared in constant time). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer ([\x21-\x7e]+)$/.exec(header ?? '');
  return m !== null && timingSafeEqual(digest(m[1]!), digest(token));
}

const READY_TIMEOUT_MS = 2_000;

/** What /readyz says while the engine finds its database unusable (scheduler.databaseOutage). */
const OUTAGE_ADVICE: Record<DatabaseOutage, string> = {
  unreachable: 'the database cannot be reached: the engine backs off and retries',
  interrupted: 'the connection to the database was cut: the engine backs off and retries',
  readOnly:
    'the database refuses writes (a standby, e.g. after a failover): point the service at the primary',
};

const status = z.object({ status: z.string(), checks: z.record(z.string(), z.string()).optional() });

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export const healthRoutes: FastifyPluginAsyncZod<HealthDeps> = async (app, deps) => {
  const tags = ['operations'];
  app.get(
    '/healthz',
    { schema: { tags, summary: 'The process is up', security: [], response: { 200: status } } },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags,
        summary: 'Ready for traffic: scheduler started (migrations current) and database reachable',
        security: [],
        response: { 200: status, 503: errorSchema },
      },
    },
    async (request, reply) => {
      const fault = deps.storage?.fault;
      if (fault) {
        return reply.code(503).send(
          errorBody('NOT_READY', STORAGE_ADVICE[fault.kind], {
            database: fault.kind,
            since: new Date(fault.since).toISOString(),
          }),
        );
      }
      if (!deps.scheduler.started) {
        return reply.code(503).send(
          errorBody('NOT_READY', 'the scheduler is not running (starting, migrating or stopping)', {
            scheduler: 'stopped',
          }),
        );
      }
      const outage = deps.scheduler.databaseOutage;
      if (outage) {
        return reply.code(503).send(
          errorBody('NOT_READY', OUTAGE_ADVICE[outage.kind], {
            database: outage.kind,
            since: new Date(outage.since).toISOString(),
          }),
        );
      }
      try {
        await withTimeout(deps.scheduler.store.nextRunDueAt(), READY_TIMEOUT_MS);
      } catch (e) {
        const kind = deps.storage?.observe(e, 'readyz');
        if (kind) {
          return reply.code(503).send(errorBody('NOT_READY', STORAGE_ADVICE[kind], { database: kind }));
        }
        request.log.warn({ err: e }, 'readiness: database check failed');
        return reply
          .code(503)
          .send(errorBody('NOT_READY', 'the database does not answer', { database: 'unreachable' }));
      }
      return { status: 'ready', checks: { scheduler: 'started', database: 'ok', migrations: 'current' } };
    },
  );

  if (deps.metrics) {
    const metrics = deps.metrics;
    app.get(
      '/metrics',
      {
        schema: {
          tags,
          summary: 'Prometheus metrics',
          description:
            'Open unless PUNCTUAL_METRICS_TOKEN is set; then `Authorization: Bearer <token>` is required and ' +
            'per-tenant series are shown. Open, they are summed over tenants.',
          security: [],
        },
      },
      async (request, reply) => {
        const token = deps.metricsToken ?? null;
        if (token !== null && !bearerMatches(request.headers.authorization, token)) {
          return reply
            .code(401)
            .header('www-authenticate', 'Bearer realm="metrics"')
            .send(
              errorBody('UNAUTHORIZED', 'GET /metrics needs Authorization: Bearer <PUNCTUAL_METRICS_TOKEN>'),
            );
        }
        const text = await metrics.render({ tenants: token !== null });
        return reply.type(metrics.contentType).send(text);
      },
    );
  }
};
