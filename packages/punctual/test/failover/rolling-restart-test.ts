// The rolling-restart test: three instance processes (the fault test's) share one schema under every-second
// schedules, and each is stopped with SIGTERM and started again, one after another, as a rolling deploy does.
// A graceful stop stops claiming, lets in-flight runs finish within the grace and hands back what it holds,
// so at the end: every occurrence in the window has exactly one run, none is unfinished, no run was
// delivered twice and no lease had to lapse to be taken back. Prints its figures; exits non-zero otherwise.
//
//   npx tsx packages/punctual/test/failover/rolling-restart-test.ts [--seconds 40] [--schedules 200]
//     [--instances 3] [--restart-every 6]
// Needs PUNCTUAL_TEST_PG_URL (it works in a schema of its own, dropped when the test passes).

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createScheduler } from '../../src/index.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';
import { checkRuns, waitUntilFinal } from './run-checks.js';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('seconds', 40);
const SCHEDULES = arg('schedules', 200);
const INSTANCES = arg('instances', 3);
const RESTART_EVERY_MS = arg('restart-every', 6) * 1000;
const url = process.env.PUNCTUAL_TEST_PG_URL;
if (!url) {
  console.error('PUNCTUAL_TEST_PG_URL is not set: the rolling-restart test needs PostgreSQL');
  process.exit(2);
}
const started = Date.now();
const schema = `rolling_${Date.now().toString(36)}`;
const dir = mkdtempSync(join(tmpdir(), 'punctual-rolling-'));
const instanceScript = fileURLToPath(new URL('../fault/fault-instance.ts', import.meta.url));
const log = (msg: string) => console.log(`[rolling ${new Date().toISOString().slice(11, 23)}] ${msg}`);

const setup = createScheduler({
  store: postgresStore({ connectionString: url, schema }),
  clockSync: { enabled: false },
});
setup.handle('record', () => {});
await setup.migrate();
const windowStart = Math.ceil((Date.now() + 8000) / 1000) * 1000;
const windowEnd = windowStart + SECONDS * 1000;
const inputs = Array.from({ length: SCHEDULES }, (_, i) => ({
  key: `s${i}`,
  spec: '@every 1s',
  startAt: windowStart + (i % 1000),
  endAt: windowEnd - 1,
  target: { handler: 'record' },
  policies: { misfire: 'runAll' as const, catchupWindowMs: 3_600_000, maxCatchup: 10_000 },
}));
await setup.putMany(inputs);
await setup.close();
let expected = 0;
for (const s of inputs) expected += Math.floor((windowEnd - 1 - s.startAt) / 1000) + 1;
log(
  `schema ${schema}: ${SCHEDULES} schedules, ${expected} occurrences in ${SECONDS} s, ${INSTANCES} instances`,
);

const children = new Map<string, ChildProcess>();
let generation = 0;
function startInstance(name: string): void {
  const file = join(dir, `deliveries-${name}-${generation++}.log`);
  const child = spawn(process.execPath, ['--import', 'tsx', instanceScript, url!, schema, name, file, '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout!.on('data', (b: Buffer) => {
    for (const line of b.toString().split('\n')) if (line.trim()) log(line.trim());
  });
  children.set(name, child);
}
for (let i = 0; i < INSTANCES; i++) startInstance(`i${i}`);

// ── the rolling restart: one instance at a time, SIGTERM, wait for it to exit, start its successor ──
const drains: number[] = [];
const badExits: string[] = [];
await new Promise((r) => setTimeout(r, windowStart - Date.now() + 3000));
for (let round = 0; Date.now() + RESTART_EVERY_MS < windowEnd; round++) {
  const name = `i${round % INSTANCES}`;
  const child = children.get(name)!;
  const t0 = Date.now();
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.kill('SIGTERM');
  const code = await exited;
  drains.push(Date.now() - t0);
  if (code !== 0) badExits.push(`${name}: ${code}`);
  log(`${name} drained and exited (${code}) in ${Date.now() - t0} ms; starting its successor`);
  startInstance(name);
  await new Promise((r) => setTimeout(r, RESTART_EVERY_MS));
}

await new Promise((r) => setTimeout(r, Math.max(0, windowEnd - Date.now())));
log(`window over; ${drains.length} restarts; waiting for every run to finish`);
const client = new pg.Client({ connectionString: url });
await client.connect();
await waitUntilFinal(client, schema, expected);
for (const c of children.values()) c.kill('SIGTERM');
await Promise.all(
  [...children.values()].map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))),
);
const checked = await checkRuns(client, schema, expected, dir);
await client.end();

const figures = {
  schedules: SCHEDULES,
  instances: INSTANCES,
  seconds: SECONDS,
  restarts: drains.length,
  ...checked.figures,
  longestDrainMs: Math.max(...drains),
  badExits: badExits.length,
  testSeconds: Number(((Date.now() - started) / 1000).toFixed(1)),
};
console.log(JSON.stringify(figures, null, 2));
// A graceful stop leaves nothing for the reaper: no lease lapses, no run is delivered twice.
const failed =
  !checked.ok ||
  drains.length < INSTANCES ||
  badExits.length > 0 ||
  checked.figures.leasesReclaimed > 0 ||
  checked.figures.extraDeliveries > 0;
if (!failed) {
  rmSync(dir, { recursive: true, force: true });
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`DROP SCHEMA ${schema} CASCADE`);
  await c.end();
} else {
  log(`FAILED: schema ${schema} and delivery logs in ${dir} are kept for inspection`);
}
process.exit(failed ? 1 : 0);
