// Sandbox admission scenarios for `npm run bench:scripts`: the service in-process on SQLite with scripts on.
// 1. Flood: tenant `flood` triggers 20 endless scripts (timeout 3 s, one attempt) at once; tenant `other`
//    triggers a trivial script every 500 ms while they run. Reports `other`'s lateness (the run's success
//    event minus its scheduledFor) and how many times runs were handed back (`released` attempt rows).
// 2. Idle: one tenant's 10 `@every 1s` trivial scripts; lateness of the occurrences due in the window.
// Returns a Markdown section; it measures, it never asserts.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { generateWebhookSecret, type Run } from 'punctual';
import { loadConfig } from '../packages/server/src/config.js';
import { createService } from '../packages/server/src/service.js';
import { summary, table } from './stats.js';

const LOOP = 'export default () => { for (;;) {} }';
const TRIVIAL = 'export default () => 1';
const FLOOD_RUNS = 20;
const OTHER_EVERY_MS = 500;
const IDLE_SCHEDULES = 10;
const WARMUP_MS = 2_000;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function withService<T>(
  opts: { concurrency?: string; pool?: string },
  body: (service: Awaited<ReturnType<typeof createService>>) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'punctual-bench-admission-'));
  const config = loadConfig({
    PUNCTUAL_DATABASE_PATH: join(dir, 'punctual.db'),
    PUNCTUAL_HOST: '127.0.0.1',
    PUNCTUAL_PORT: '0',
    PUNCTUAL_SHUTDOWN_GRACE: '1s',
    PUNCTUAL_SCRIPTS: 'on',
    PUNCTUAL_CONCURRENCY: opts.concurrency,
    PUNCTUAL_SCRIPT_POOL_SIZE: opts.pool,
  });
  const service = await createService(config, { logger: pino({ level: 'silent' }), processMetrics: false });
  await service.start();
  const quotas = { maxSchedules: null, maxRunsPerMinute: null, requestsPerSecond: null };
  for (const id of ['flood', 'other', 'idle']) {
    await service.tenants.createTenant({
      id,
      quotas,
      webhookSecret: generateWebhookSecret(),
      now: Date.now(),
    });
  }
  try {
    return await body(service);
  } finally {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function measureAdmission(opts: {
  quick: boolean;
  concurrency?: string;
  pool?: string;
}): Promise<string> {
  const rows: Record<string, string | number>[] = [];
  const never = `@at ${new Date(Date.now() + 365 * 86_400_000).toISOString()}`;

  await withService(opts, async (service) => {
    const { scheduler } = service;
    const flood = scheduler.tenant('flood');
    const other = scheduler.tenant('other');
    const late: number[] = [];
    const released: Record<string, number> = { flood: 0, other: 0 };
    let floodEnded = 0;
    scheduler.on('run:succeeded', ({ run }: { run: Run }) => {
      if (run.tenantId === 'other') late.push(Date.now() - run.scheduledFor);
    });
    scheduler.on('run:released', ({ run }: { run: Run }) => {
      released[run.tenantId] = (released[run.tenantId] ?? 0) + 1;
    });
    scheduler.on('run:dead', ({ run }: { run: Run }) => {
      if (run.tenantId === 'flood') floodEnded++;
    });
    await flood.put({
      key: 'endless',
      spec: never,
      target: { script: { source: LOOP, timeoutMs: 3000 } },
      policies: { retry: { maxAttempts: 1 }, timeoutMs: 10_000 },
    });
    await other.put({ key: 'trivial', spec: never, target: { script: { source: TRIVIAL } } });
    for (let i = 0; i < FLOOD_RUNS; i++) await flood.trigger('endless');
    const t0 = Date.now();
    let triggered = 0;
    // Trigger while the flood lasts (20 × 3 s on the sandbox threads), then let the last ones finish.
    while (floodEnded < FLOOD_RUNS && Date.now() - t0 < 120_000) {
      await other.trigger('trivial');
      triggered++;
      await wait(OTHER_EVERY_MS);
    }
    const floodMs = Date.now() - t0;
    for (let i = 0; i < 100 && late.length < triggered; i++) await wait(100);
    const s = summary(late);
    rows.push({
      scenario: `flood: ${FLOOD_RUNS} endless scripts (3 s) of one tenant; another tenant's trivial script every ${OTHER_EVERY_MS} ms`,
      'runs measured': `${s.n} of ${triggered}`,
      'lateness p50 ms': s.p50.toFixed(0),
      'lateness p99 ms': s.p99.toFixed(0),
      'lateness max ms': s.max.toFixed(0),
      'hand-backs (released rows)': `${released.flood} flood, ${released.other} other`,
      'flood lasted s': (floodMs / 1000).toFixed(1),
    });
  });

  await withService(opts, async (service) => {
    const idle = service.scheduler.tenant('idle');
    const late: { scheduledFor: number; late: number }[] = [];
    let releasedRows = 0;
    service.scheduler.on('run:succeeded', ({ run }: { run: Run }) => {
      late.push({ scheduledFor: run.scheduledFor, late: Date.now() - run.scheduledFor });
    });
    service.scheduler.on('run:released', () => releasedRows++);
    for (let i = 0; i < IDLE_SCHEDULES; i++) {
      await idle.put({ key: `tick-${i}`, spec: '@every 1s', target: { script: { source: TRIVIAL } } });
    }
    const phaseMs = opts.quick ? 10_000 : 30_000;
    const from = Date.now() + WARMUP_MS;
    await wait(WARMUP_MS + phaseMs);
    const to = Date.now() - 1000;
    await wait(2000);
    const s = summary(late.filter((l) => l.scheduledFor >= from && l.scheduledFor < to).map((l) => l.late));
    rows.push({
      scenario: `idle: ${IDLE_SCHEDULES} \`@every 1s\` trivial scripts`,
      'runs measured': s.n,
      'lateness p50 ms': s.p50.toFixed(0),
      'lateness p99 ms': s.p99.toFixed(0),
      'lateness max ms': s.max.toFixed(0),
      'hand-backs (released rows)': releasedRows,
      'flood lasted s': '',
    });
  });

  return [
    `Sandbox admission: ${opts.pool ?? 2} sandbox threads, worker concurrency ${opts.concurrency ?? 'default'}. ` +
      'Lateness is the moment the run succeeded minus its scheduledFor.',
    '',
    table(rows),
  ].join('\n');
}
