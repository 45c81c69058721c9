// The HTTP application: a Fastify instance with JSON-only bodies, zod validation and serialisation, the one
// error shape, the OpenAPI document (/openapi.json, /docs), operational routes, and /v1 behind
// authentication and per-tenant rate limiting (schedules, runs, preview, tenant, and the key-value store when
// there is one). `buildApp` never listens: the service does, and tests call `app.inject`. Nothing here knows
// which store is in use: only whether it keeps a key-value store.

import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { pino, type Logger } from 'pino';
import {
  AddressGuard,
  DEFAULT_SCRIPT_LIMITS,
  hasAlerts,
  hasKv,
  parseCidrList,
  storageError,
  type Clock,
  type KvLimits,
  type KvStore,
  type Scheduler,
  type TenantStore,
} from 'punctual';
import type { Config } from '../config.js';
import type { Metrics } from '../metrics.js';
import { authenticate } from './auth.js';
import { z } from 'zod';
import { drainRequest } from './drain-request.js';
import { errorBody, HttpError, toErrorReply } from './errors.js';
import { finishDocument, withServers } from './openapi-document.js';
import { PageCursors } from './page-cursors.js';
import { StorageHealth } from './storage-health.js';
import { RateLimiter, rateLimit } from './rate-limit.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { healthRoutes } from './routes/health.js';
import { kvRoutes } from './routes/kv.js';
import { calendarRoutes } from './routes/calendars.js';
import { calendarRevisionRoutes } from './routes/calendar-revisions.js';
import { alertRoutes } from './routes/alerts.js';
import { alertChannelRoutes } from './routes/alert-channels.js';
import { checkRoutes } from './routes/checks.js';
import { metricsJsonRoutes } from './routes/metrics-json.js';
import { previewRoutes } from './routes/preview.js';
import { runRoutes } from './routes/runs.js';
import { scheduleRoutes } from './routes/schedules.js';
import { bulkScheduleRoutes } from './routes/schedules-bulk.js';
import { parseNdjson } from './ndjson-body.js';
import { occurrenceRoutes } from './routes/occurrences.js';
import { revisionRoutes } from './routes/schedule-revisions.js';
import { tenantRoutes } from './routes/tenant.js';

export interface AppOptions {
  scheduler: Scheduler;
  tenants: TenantStore;
  config: Pick<Config, 'bodyLimit' | 'defaultRateLimit' | 'webhookSecretGraceMs' | 'publicUrl'> &
    Partial<Pick<Config, 'metricsToken' | 'allowPrivateTargets'>>;
  /** Default: a silent logger. */
  logger?: Logger;
  /** Without it there is no /metrics route (nor /v1/metrics). */
  metrics?: Metrics;
  /** Time for rate limits, quotas, previews and rotations. Default: the scheduler's (store-corrected) clock. */
  clock?: Pick<Clock, 'now'>;
  /**
   * The tenant key-value store behind /v1/kv and its quotas. Default: the scheduler's store when it keeps
   * one, with the script target's default quotas. null: no /v1/kv routes.
   */
  kv?: { store: KvStore; limits: KvLimits } | null;
  /**
   * The secret page cursors are signed with (the service derives it from the database's address, so every
   * instance sharing the database accepts the others' cursors). Default: a random one for this app.
   */
  cursorSecret?: string;
  /**
   * The guard alert channel URLs are checked with (the webhook target's). Default: one built from
   * `config.allowPrivateTargets`.
   */
  guard?: AddressGuard;
  /** What is known of the database's storage (damaged, full). Default: one of this app's own. */
  storage?: StorageHealth;
}

/** Key-value store routes for the options: the given store, else the scheduler's own (when it keeps one). */
function kvOf(opts: AppOptions): { store: KvStore; limits: KvLimits } | null {
  if (opts.kv !== undefined) return opts.kv;
  const store = opts.scheduler.store;
  if (!hasKv(store)) return null;
  const d = DEFAULT_SCRIPT_LIMITS;
  return { store, limits: { maxKeys: d.kvMaxKeys, maxValueBytes: d.kvMaxValueBytes } };
}

/** Methods that change something. */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The query string of a route that takes none. */
const noQuery = z.object({}).strict();

/** Whether every percent-escape of a query string is valid (and encodes UTF-8). */
function decodable(query: string): boolean {
  try {
    decodeURIComponent(query);
    return true;
  } catch {
    return false;
  }
}

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Path without the query, cut short: what a log line or a 404 message may repeat of a URL. */
function pathOf(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path.length > 200 ? `${path.slice(0, 200)}...` : path;
}

/** The longest path segment answered (longer is 414 URI_TOO_LONG). */
const MAX_SEGMENT = 256 * 9;

export function buildApp(opts: AppOptions) {
  const { scheduler, tenants, config } = opts;
  const clock = opts.clock ?? scheduler.clock;
  const kv = kvOf(opts);
  const app = Fastify({
    loggerInstance: opts.logger ?? pino({ level: 'silent' }),
    bodyLimit: config.bodyLimit,
    // One line per request is written by the onResponse hook below, with the tenant and the route.
    logController: new LogController({ disableRequestLogging: true }),
    exposeHeadRoutes: false,
    // The longest path segment: a key-value key of 256 characters, each percent-encoded as 3 UTF-8 bytes.
    routerOptions: { maxParamLength: MAX_SEGMENT },
    frameworkErrors: (error, _request, reply) => {
      const r = toErrorReply(error);
      void (reply as FastifyReply).code(r.status).headers(r.headers).send(r.body);
    },
    // A request Node's parser refuses (raw control or non-ASCII bytes in the request line, a broken header)
    // never reaches a route: answer it in the one error shape too, then close the connection.
    clientErrorHandler: (error, socket) => {
      if ((error as NodeJS.ErrnoException).code === 'ECONNRESET' || !socket.writable) {
        socket.destroy();
        return;
      }
      const body = JSON.stringify(
        errorBody(
          'MALFORMED_REQUEST',
          'the request could not be read (bad bytes in the request line or headers)',
        ),
      );
      socket.end(
        'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // JSON is the only body type; an empty body reads as absent (so `curl -X POST -H 'content-type: ...'`
  // works on routes whose body is optional); prototype poisoning is refused.
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });
  // NDJSON, for the bulk put only (POST /v1/schedules/bulk): each line read on its own (ndjson-body.ts).
  app.addContentTypeParser('application/x-ndjson', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseNdjson(body.toString()));
    } catch (e) {
      done(e as Error, undefined);
    }
  });

  // A query string with a bad percent-escape (`?prefix=%ZZ`) is refused like the same escape in the path,
  // instead of reaching a route as the literal text.
  app.addHook('onRequest', async (request) => {
    const q = request.url.indexOf('?');
    if (q >= 0 && !decodable(request.url.slice(q + 1))) {
      throw new HttpError(400, 'MALFORMED_REQUEST', 'the URL is not valid (bad percent-encoding?)');
    }
  });

  app.decorateRequest('tenant', null as never);
  app.decorateRequest('api', null as never);

  const storage = opts.storage ?? new StorageHealth(app.log, () => clock.now());
  // The engine's errors and writes tell about the storage too.
  const unsubscribe = [
    scheduler.on('error', ({ error, where }) => void storage.observe(error, where)),
    ...(['run:scheduled', 'run:started', 'run:succeeded', 'run:retrying', 'run:dead'] as const).map((e) =>
      scheduler.on(e, () => storage.wrote()),
    ),
  ];
  app.addHook('onClose', async () => {
    for (const off of unsubscribe) off();
  });

  app.setErrorHandler((error, request, reply) => {
    storage.observe(error, `${request.method} ${request.routeOptions.url ?? 'unmatched'}`);
    const r = toErrorReply(error);
    if (r.internal) request.log.error({ err: error }, 'request failed');
    return reply.code(r.status).headers(r.headers).send(r.body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorBody('NOT_FOUND', `no route ${request.method} ${pathOf(request.url)}`)),
  );

  // A body answered without being read (refused as too large, or before parsing: 401, 404, 415, ...) while
  // the client still sends it: read and discard the rest, bounded, so the client reads the answer.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!(await drainRequest(request.raw))) void reply.header('connection', 'close');
    return payload;
  });

  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (WRITES.has(request.method) && reply.statusCode < 400 && route.startsWith('/v1/')) storage.wrote();
    const seconds = reply.elapsedTime / 1000;
    opts.metrics?.observeHttp(request.method, route, reply.statusCode, seconds);
    const quiet = route === '/healthz' || route === '/readyz' || route === '/metrics';
    request.log[quiet ? 'debug' : 'info'](
      {
        method: request.method,
        path: pathOf(request.url),
        route,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });

  void app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Punctual API',
        version,
        license: { name: 'MIT', identifier: 'MIT' },
        description:
          'Schedules, runs and previews of the Punctual durable scheduler. Every /v1 route needs ' +
          '`Authorization: Bearer pk_...`; errors are always `{ "error": { "code", "message", "details" } }`.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'an API key, pk_...' },
        },
      },
      security: [{ bearerAuth: [] }],
      tags: [
        { name: 'schedules', description: 'what to run and when' },
        { name: 'runs', description: 'occurrences being or having been executed' },
        { name: 'preview', description: 'what a spec would do' },
        { name: 'tenant', description: 'the tenant of the API key' },
        { name: 'kv', description: "the tenant's key-value store (what scripts reach as ctx.kv)" },
        {
          name: 'calendars',
          description: "the tenant's calendars: dates schedules exclude or keep to as working days",
        },
        { name: 'alerts', description: 'alerts, alert channels, checks and heartbeats' },
        { name: 'operations', description: 'health, readiness and metrics (no authentication)' },
      ],
    },
    transform: jsonSchemaTransform,
    transformObject: (doc) => finishDocument(jsonSchemaTransformObject(doc)),
  });
  void app.register(swaggerUi, { routePrefix: '/docs' });

  // The server is where this process is reached: PUNCTUAL_PUBLIC_URL, else the address it listens on.
  app.get('/openapi.json', { schema: { hide: true } }, async () => {
    const address = app.server.address();
    const listening = typeof address === 'object' && address !== null ? address : null;
    return withServers(app.swagger(), config.publicUrl, listening);
  });
  void app.register(healthRoutes, {
    scheduler,
    storage,
    metrics: opts.metrics,
    metricsToken: config.metricsToken ?? null,
  });
  void app.register(dashboardRoutes);

  void app.register(
    async (v1) => {
      const limiter = new RateLimiter(clock);
      const cursors = new PageCursors(opts.cursorSecret);
      v1.addHook('onRequest', authenticate({ scheduler, tenants, clock }));
      v1.addHook('onRequest', rateLimit(limiter, config.defaultRateLimit));
      // A damaged database takes no more writes: they could only spread the damage.
      v1.addHook('onRequest', async (request) => {
        if (storage.fault?.kind === 'corrupt' && WRITES.has(request.method)) throw storageError('corrupt');
      });
      // A route that reads no query string refuses one like the others refuse an unknown field.
      v1.addHook('onRoute', (route) => {
        if (route.schema?.querystring === undefined) route.schema = { ...route.schema, querystring: noQuery };
      });
      await v1.register(scheduleRoutes, { tenants, clock, cursors });
      await v1.register(bulkScheduleRoutes, { tenants });
      await v1.register(revisionRoutes, { cursors });
      await v1.register(occurrenceRoutes);
      await v1.register(runRoutes, { cursors, tenants, clock });
      await v1.register(previewRoutes, { clock });
      await v1.register(tenantRoutes, { tenants, clock, webhookSecretGraceMs: config.webhookSecretGraceMs });
      if (kv) await v1.register(kvRoutes, { ...kv, clock, cursors });
      await v1.register(calendarRoutes);
      await v1.register(calendarRevisionRoutes, { cursors });
      const store = scheduler.store;
      if (hasAlerts(store)) {
        const guard = opts.guard ?? new AddressGuard(parseCidrList(config.allowPrivateTargets ?? ''));
        const changed = (): void => scheduler.alertsChanged();
        await v1.register(alertRoutes, { store });
        await v1.register(alertChannelRoutes, { store, clock, guard, changed });
        await v1.register(checkRoutes, { store, clock, changed });
      }
      if (opts.metrics)
        await v1.register(metricsJsonRoutes, { metrics: opts.metrics, now: () => clock.now() });
    },
    { prefix: '/v1' },
  );

  return app;
}

export type App = ReturnType<typeof buildApp>;
