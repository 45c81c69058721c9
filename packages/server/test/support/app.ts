// The HTTP tests' common setup: a real SQLite store in memory, a scheduler on a TestClock (so nothing moves
// unless a test moves time), two tenants with one API key each, and the app built on them. `snapshot`
// captures everything a request could change, so tests can assert that a refused request changed nothing.

import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Logger } from 'pino';
import {
  createScheduler,
  ok,
  sqliteStore,
  webhookTarget,
  type Scheduler,
  type SqliteStore,
  type TenantQuotas,
} from 'punctual';
import { TestClock, settle } from '../../../punctual/test/support/test-clock.js';
import type { Config } from '../../src/config.js';
import { buildApp, type App } from '../../src/http/app.js';
import { ContractRecorder } from './contract.js';
import { Metrics } from '../../src/metrics.js';
import { issueApiKey } from '../../src/tenancy/api-keys.js';

export const START = '2026-01-05T09:00:00.000Z';
export const TENANTS = ['acme', 'globex'] as const;
export type TenantName = (typeof TENANTS)[number];

export interface TestApp {
  app: App;
  scheduler: Scheduler;
  store: SqliteStore;
  clock: TestClock;
  metrics: Metrics | undefined;
  keys: Record<TenantName, string>;
  /** Injects a request; `as` adds the tenant's Authorization header. */
  request(opts: InjectOptions & { as?: TenantName }): Promise<LightMyRequestResponse>;
  /** Everything requests could change: both tenants, their schedules, runs and keys (but their last use). */
  snapshot(): Promise<string>;
  close(): Promise<void>;
}

const UNLIMITED: TenantQuotas = { maxSchedules: null, maxRunsPerMinute: null, requestsPerSecond: null };

export async function testApp(
  opts: {
    start?: boolean;
    quotas?: Partial<Record<TenantName, Partial<TenantQuotas>>>;
    config?: Partial<
      Pick<Config, 'bodyLimit' | 'defaultRateLimit' | 'webhookSecretGraceMs' | 'metricsToken' | 'publicUrl'>
    >;
    metrics?: boolean;
    /** The app's logger. Default: a silent one. */
    logger?: Logger;
    /** Called before the app is made ready (to add hooks that observe route registration). */
    beforeReady?: (app: App) => void;
  } = {},
): Promise<TestApp> {
  const clock = new TestClock(START);
  const store = sqliteStore({ path: ':memory:' });
  const scheduler = createScheduler({
    store,
    clock,
    random: () => 0.5,
    targets: [webhookTarget({ secrets: async () => ({ current: 'whsec_dGVzdA==' }), allowPrivate: '' })],
  });
  scheduler.handle('noop', async () => ok({ done: true }));
  scheduler.handle('fails', async () => {
    throw new Error('handler failed');
  });
  await scheduler.migrate();
  const keys = {} as Record<TenantName, string>;
  for (const name of TENANTS) {
    await store.createTenant({
      id: name,
      quotas: { ...UNLIMITED, ...opts.quotas?.[name] },
      webhookSecret: `whsec_${Buffer.from(`${name}-secret-0123456789`).toString('base64')}`,
      now: clock.now(),
    });
    keys[name] = (await issueApiKey(store, name, { name: 'test', now: clock.now() })).key;
  }
  const metrics = opts.metrics
    ? new Metrics({ scheduler, clock, tenantLabels: 1, processMetrics: false })
    : undefined;
  const app = buildApp({
    scheduler,
    tenants: store,
    config: {
      bodyLimit: 1024 * 1024,
      defaultRateLimit: 10_000,
      webhookSecretGraceMs: 24 * 3_600_000,
      publicUrl: null,
      ...opts.config,
    },
    metrics,
    ...(opts.logger ? { logger: opts.logger } : {}),
  });
  const contract = new ContractRecorder();
  contract.install(app);
  opts.beforeReady?.(app);
  await app.ready();
  if (opts.start) await scheduler.start();
  await settle();

  return {
    app,
    scheduler,
    store,
    clock,
    metrics,
    keys,
    request: ({ as, headers, ...rest }) =>
      app.inject({
        ...rest,
        headers: { ...(as ? { authorization: `Bearer ${keys[as]}` } : {}), ...headers },
      }),
    snapshot: async () => {
      const out: Record<string, unknown> = {};
      for (const name of TENANTS) {
        const api = scheduler.tenant(name);
        out[name] = {
          tenant: await store.getTenant(name),
          // lastUsedAt aside: any authenticated request may record it (a refused one never does).
          keys: (await store.listApiKeys(name)).map(({ lastUsedAt: _lastUsedAt, ...k }) => k),
          schedules: (await api.list({ limit: 1000 })).items,
          runs: (await api.listRuns({ limit: 1000 })).items,
        };
      }
      return JSON.stringify(out);
    },
    close: async () => {
      // Every response this app gave must match the document it serves (support/contract.ts).
      const served = await app.inject({ method: 'GET', url: '/openapi.json' });
      const broken = contract.violations(JSON.parse(served.body));
      await app.close();
      metrics?.close();
      let closed = false;
      const closing = scheduler.close().then(() => (closed = true));
      for (let i = 0; i < 1000 && !closed; i++) await clock.advance(1000);
      await closing;
      if (broken.length > 0) throw new Error(`responses break the OpenAPI document:\n${broken.join('\n')}`);
    },
  };
}

/** The parsed JSON body of a response (loosely typed by default: tests assert on its shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function json<T = Record<string, any>>(res: LightMyRequestResponse): T {
  return JSON.parse(res.body) as T;
}

/** A schedule body with a handler target, overridable. */
export function scheduleBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    spec: '0 9 * * *',
    tz: 'Europe/Paris',
    target: { handler: 'noop' },
    payload: { hello: 'world' },
    ...overrides,
  };
}
