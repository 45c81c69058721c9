// Script fairness: the service in-process on SQLite (webhook and script targets) and a webhook receiver on
// 127.0.0.1. Tenant `quiet`'s `@every 1s` webhook lateness (arrival minus scheduledFor) alone, then while
// tenant `noisy` runs `@every 1s` endless loops and memory bombs; then a trivial script's per-run overhead
// through the driver. Then the sandbox admission scenarios (bench/script-admission.ts): tenant `flood` triggers
// 20 endless scripts (timeout 3 s) while tenant `other` triggers a trivial script every 500 ms, and, idle, 10
// `@every 1s` trivial scripts. Writes bench/results/<date>-script-fairness.md. `npm run bench:scripts` (or
// `npx tsx bench/script-fairness.ts [--quick] [--concurrency=N] [--pool=N] [--only=admission]`).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import { generateWebhookSecret, scriptTarget, sqliteStore, type Run } from 'punctual';
import { loadConfig } from '../packages/server/src/config.js';
import { createService } from '../packages/server/src/service.js';
import { measureAdmission } from './script-admission.js';
import { summary, table } from './stats.js';

const quick = process.argv.includes('--quick');
/** `--name=value` from the command line. */
const arg = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const date = new Date().toISOString().slice(0, 10);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const variant = `${quick ? '-quick' : ''}${arg('concurrency') ? `-c${arg('concurrency')}` : ''}${arg('pool') ? `-p${arg('pool')}` : ''}`;

const admission = await measureAdmission({
  quick,
  concurrency: arg('concurrency'),
  pool: arg('pool'),
});
console.log(admission);
if (arg('only') === 'admission') {
  const name = `${date}-script-admission${variant}.md`;
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(
    new URL(`./results/${name}`, import.meta.url),
    `# Script admission (${date})\n\nMachine: ${machine}.\n\n${admission}\n`,
  );
  console.log(`\nwritten to bench/results/${name}`);
  process.exit(0);
}
const PHASE_MS = quick ? 10_000 : 30_000;
/** Occurrences due in the first moments of a phase are left out: schedules are still being created. */
const WARMUP_MS = 2_000;
const QUIET_SCHEDULES = 20;
const NOISY_SCHEDULES = 20;
const OVERHEAD_RUNS = quick ? 300 : 1000;
const DRAIN_LIMIT_MS = 300_000;

const dir = mkdtempSync(join(tmpdir(), 'punctual-bench-scripts-'));
/** scheduledFor (ms) and arrival (ms) of every quiet webhook received. */
const arrivals: { scheduledFor: number; at: number }[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const at = Date.now();
    arrivals.push({
      scheduledFor: Date.parse((JSON.parse(body) as { scheduledFor: string }).scheduledFor),
      at,
    });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const config = loadConfig({
  PUNCTUAL_DATABASE_PATH: join(dir, 'punctual.db'),
  PUNCTUAL_HOST: '127.0.0.1',
  PUNCTUAL_PORT: '0',
  PUNCTUAL_ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
  PUNCTUAL_SHUTDOWN_GRACE: '2s',
  PUNCTUAL_SCRIPTS: 'on',
  PUNCTUAL_CONCURRENCY: arg('concurrency'),
  PUNCTUAL_SCRIPT_POOL_SIZE: arg('pool'),
});
const service = await createService(config, { logger: pino({ level: 'silent' }), processMetrics: false });
await service.start();
const { scheduler } = service;
const quotas = { maxSchedules: null, maxRunsPerMinute: null, requestsPerSecond: null };
for (const id of ['quiet', 'noisy']) {
  await service.tenants.createTenant({ id, quotas, webhookSecret: generateWebhookSecret(), now: Date.now() });
}
const quiet = scheduler.tenant('quiet');
const noisy = scheduler.tenant('noisy');

const noisyEnds: Record<string, number> = {};
scheduler.on('run:dead', ({ run }: { run: Run }) => {
  if (run.tenantId !== 'noisy') return;
  const code = run.error?.code ?? 'none';
  noisyEnds[code] = (noisyEnds[code] ?? 0) + 1;
});

const LOOP = 'export default () => { for (;;) {} }';
const BOMB =
  "export default () => { const keep = []; for (;;) keep.push('x'.repeat(1 << 20) + keep.length); }";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the quiet tenant has no run left due in [from, to) that has not finished. */
async function drain(from: number, to: number): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    const pending = [
      ...(await quiet.listRuns({ state: 'scheduled', from, to, limit: 1000 })).items,
      ...(await quiet.listRuns({ state: 'running', from, to, limit: 1000 })).items,
    ];
    if (pending.length === 0 || Date.now() - t0 > DRAIN_LIMIT_MS) return pending.length;
    await wait(500);
  }
}

/** The quiet tenant's lateness over its occurrences due in [from, to), once they were all delivered. */
async function measure(label: string, from: number, to: number): Promise<Record<string, string | number>> {
  const undelivered = await drain(from, to);
  const late = arrivals
    .filter((a) => a.scheduledFor >= from && a.scheduledFor < to)
    .map((a) => a.at - a.scheduledFor);
  const s = summary(late);
  const expected = Math.round(((to - from) / 1000) * QUIET_SCHEDULES);
  return {
    'quiet tenant': label,
    'webhooks (expected)': `${s.n} (~${expected})`,
    'lateness p50 ms': s.p50.toFixed(0),
    'lateness p99 ms': s.p99.toFixed(0),
    'lateness max ms': s.max.toFixed(0),
    'not delivered': undelivered,
  };
}

const rows: Record<string, string | number>[] = [];
let noisyStats: string;
try {
  for (let i = 0; i < QUIET_SCHEDULES; i++) {
    await quiet.put({ key: `hook-${i}`, spec: '@every 1s', target: { webhook: { url: hook } } });
  }
  const quietFrom = Date.now() + WARMUP_MS;
  await wait(WARMUP_MS + PHASE_MS);
  const quietTo = Date.now();
  rows.push(await measure('alone', quietFrom, quietTo));

  for (let i = 0; i < NOISY_SCHEDULES; i++) {
    await noisy.put({
      key: `hostile-${i}`,
      spec: '@every 1s',
      target: { script: { source: i % 2 === 0 ? LOOP : BOMB } },
      policies: { retry: { maxAttempts: 1 } },
    });
  }
  const noisyFrom = Date.now() + WARMUP_MS;
  let peakQueued = 0;
  const sampler = setInterval(
    () => (peakQueued = Math.max(peakQueued, service.scripts!.stats().queued)),
    200,
  );
  await wait(WARMUP_MS + PHASE_MS);
  const noisyTo = Date.now();
  clearInterval(sampler);
  const backlog = (await noisy.listRuns({ state: 'scheduled', limit: 1000 })).items.length;
  // Stop the noise so the quiet backlog of the window can drain and be measured in full.
  for (let i = 0; i < NOISY_SCHEDULES; i++) await noisy.pause(`hostile-${i}`, { cancelPending: true });
  rows.push(await measure(`with noisy (${NOISY_SCHEDULES} hostile scripts/s)`, noisyFrom, noisyTo));
  const stats = service.scripts!.stats();
  noisyStats =
    `Noisy runs ended: ${Object.entries(noisyEnds)
      .map(([code, n]) => `${n} ${code}`)
      .join(', ')}; noisy runs still scheduled when the noise stopped: ${backlog}` +
    `${backlog === 1000 ? '+' : ''}; peak script queue ${peakQueued}; sandbox threads replaced ${stats.replaced}.`;
} finally {
  await service.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
}

let overhead: ReturnType<typeof summary>;
{
  // The per-run overhead of a trivial script, through the driver alone (no engine; the service is closed).
  const kv = sqliteStore({ path: ':memory:' });
  await kv.migrate();
  const driver = await scriptTarget({ kv, poolSize: 1 });
  const source = 'export default (ctx) => ctx.payload.n + 1';
  const delivery = (n: number) => ({
    run: {
      id: String(n),
      tenantId: 'quiet',
      scheduleKey: 's',
      occurrenceId: `s:${n}`,
      scheduledFor: 0,
      attempt: 1,
      checks: 0,
      kind: 'scheduled',
    } as Run,
    schedule: { target: { script: { source } } } as never,
    payload: { n },
    signal: new AbortController().signal,
    startedAt: 0,
  });
  for (let i = 0; i < 50; i++) await driver.deliver(delivery(i));
  const times: number[] = [];
  for (let i = 0; i < OVERHEAD_RUNS; i++) {
    const t0 = performance.now();
    const outcome = await driver.deliver(delivery(i));
    times.push(performance.now() - t0);
    if (outcome.type !== 'ok') throw new Error(`trivial script failed: ${JSON.stringify(outcome)}`);
  }
  overhead = summary(times);
  await driver.close();
  await kv.close();
}

const md = table(rows);
const overheadMd = table([
  {
    'trivial script': `\`ctx.payload.n + 1\`, one thread, ${overhead.n} sequential runs`,
    'p50 ms': overhead.p50.toFixed(2),
    'p99 ms': overhead.p99.toFixed(2),
    'max ms': overhead.max.toFixed(2),
  },
]);
const report = [
  `# Script fairness (${date})`,
  '',
  `The service in-process on SQLite (synchronous FULL) in a temporary folder; worker ` +
    `concurrency ${config.concurrency}, ${config.scriptPoolSize ?? 2} sandbox threads, scripts limited to 1 s and 16 MiB. ` +
    `Tenant \`quiet\`: ${QUIET_SCHEDULES} \`@every 1s\` webhook schedules to a receiver on 127.0.0.1; lateness ` +
    `is the arrival at the receiver minus the occurrence's scheduledFor, over the occurrences due in a ` +
    `${PHASE_MS / 1000} s window (after ${WARMUP_MS / 1000} s of warm-up), counted once all of them were ` +
    `delivered. Tenant \`noisy\`: ${NOISY_SCHEDULES} \`@every 1s\` scripts, half \`for (;;) {}\`, half ` +
    `allocating 1 MiB strings until out of memory, one attempt each. Machine: ${machine}.`,
  '',
  md,
  '',
  noisyStats,
  '',
  overheadMd,
  '',
  admission,
  '',
].join('\n');
console.log(`${md}\n\n${noisyStats}\n\n${overheadMd}`);
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
const name = `${date}-script-fairness${variant}.md`;
writeFileSync(new URL(`./results/${name}`, import.meta.url), report);
console.log(`\nwritten to bench/results/${name}`);
