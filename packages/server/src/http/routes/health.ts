// Operational routes, outside /v1 and without authentication: /healthz (the process answers), /readyz (the
// scheduler started, so migrations are current, and the database answers within 2 s) and /metrics
// (Prometheus text). They must never reveal tenant data.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Scheduler } from 'punctual';
import { z } from 'zod';
import type { Metrics } from '../../metrics.js';
import { errorBody as errorSchema } from '../schemas.js';
import { errorBody } from '../errors.js';

export interface HealthDeps {
  scheduler: Scheduler;
  metrics?: Metrics | undefined;
}

const READY_TIMEOUT_MS = 2_000;

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
      if (!deps.scheduler.started) {
        return reply.code(503).send(
          errorBody('NOT_READY', 'the scheduler is not running (starting, migrating or stopping)', {
            scheduler: 'stopped',
          }),
        );
      }
      try {
        await withTimeout(deps.scheduler.store.nextRunDueAt(), READY_TIMEOUT_MS);
      } catch (e) {
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
      { schema: { tags, summary: 'Prometheus metrics', security: [] } },
      async (_request, reply) => {
        const text = await metrics.render();
        return reply.type(metrics.contentType).send(text);
      },
    );
  }
};
