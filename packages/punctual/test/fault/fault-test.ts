// The multi-process fault test for the PostgreSQL store. Several instance processes share one schema; a
// random one is killed with SIGKILL and restarted every few seconds, one runs with a skewed clock, and the
// database is restarted once in the middle. At the end it checks, from the database and from what the
// handlers recorded: every occurrence in the window has exactly one run, every run is final, and deliveries
// beyond one per run happened only for runs whose lease was reclaimed. Exits non-zero otherwise.
//
//   npx tsx packages/punctual/test/fault/fault-test.ts [--seconds 40] [--schedules 2000] [--instances 4]
//     [--kill-every 3] [--skew 4000] [--no-db-restart]
// Needs PUNCTUAL_TEST_PG_URL; the database restart runs PUNCTUAL_FAULT_PG_RESTART (default: pg_ctlcluster).

import { spawn, execSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createScheduler } from '../../src/index.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';
import { occurrenceKeySql } from '../../src/store/common/occurrence-id.js';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('seconds', 40);
const SCHEDULES = arg('schedules', 2000);
const INSTANCES = arg('instances', 4);
const KILL_EVERY_MS = arg('kill-every', 3) * 1000;
const SKEW_MS = arg('skew', 4000);
const DB_RESTART = !process.argv.includes('--no-db-restart');
const url = process.env.PUNCTUAL_TEST_PG_URL;
if (!url) {
  console.error('PUNCTUAL_TEST_PG_URL is not set: the fault test needs PostgreSQL');
  process.exit(2);
}
const restartCmd =
  process.env.PUNCTUAL_FAULT_PG_RESTART ??
  `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main restart`;

const schema = `fault_${Date.now().toString(36)}`;
const dir = mkdtempSync(join(tmpdir(), 'punctual-fault-'));
const instanceScript = fileURLToPath(new URL('./fault-instance.ts', import.meta.url));
const log = (msg: string) => console.log(`[fault ${new Date().toISOString().slice(11, 23)}] ${msg}`);

// ── set up: schedules every 1–3 s inside one window, every missed occurrence run (runAll) ───────────
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
  spec: `@every ${1 + (i % 3)}s`,
  startAt: windowStart + (i % 1000),
  endAt: windowEnd - 1,
  target: { handler: 'record' },
  policies: {
    misfire: 'runAll' as const,
    catchupWindowMs: 3_600_000,
    maxCatchup: 10_000,
    retry: { maxAttempts: 20, delayMs: 200 },
  },
}));
for (let i = 0; i < inputs.length; i += 500) await setup.putMany(inputs.slice(i, i + 500));
await setup.close();
let expected = 0;
for (const s of inputs)
  expected += Math.floor((windowEnd - 1 - s.startAt) / ((1 + (Number(s.key.slice(1)) % 3)) * 1000)) + 1;
log(
  `schema ${schema}: ${SCHEDULES} schedules, ${expected} occurrences in ${SECONDS} s, ${INSTANCES} instances`,
);

// ── instances ─────────────────────────────────────────────────────────────────────────────────────
const children = new Map<string, ChildProcess>();
let kills = 0;
function startInstance(name: string): void {
  const skew = name === 'i0' ? SKEW_MS : 0;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      instanceScript,
      url!,
      schema,
      name,
      join(dir, `deliveries-${name}-${Date.now()}.log`),
      String(skew),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  child.stdout!.on('data', (b: Buffer) => {
    for (const line of b.toString().split('\n')) if (line.trim()) log(line.trim());
  });
  children.set(name, child);
}
for (let i = 0; i < INSTANCES; i++) startInstance(`i${i}`);

const killer = setInterval(() => {
  const names = [...children.keys()];
  const name = names[Math.floor(Math.random() * names.length)]!;
  children.get(name)!.kill('SIGKILL');
  kills++;
  startInstance(name);
}, KILL_EVERY_MS);

let dbRestarts = 0;
if (DB_RESTART) {
  setTimeout(
    () => {
      log('restarting the database');
      try {
        execSync(restartCmd, { stdio: 'inherit', shell: '/bin/bash' });
        dbRestarts++;
        log('database back');
      } catch (e) {
        log(`database restart failed: ${String(e)}`);
      }
    },
    windowStart - Date.now() + (SECONDS * 1000) / 2,
  );
}

await new Promise((r) => setTimeout(r, windowEnd - Date.now()));
clearInterval(killer);
log(`window over; ${kills} kills; waiting for every run to finish`);

// ── wait until every occurrence is final ──────────────────────────────────────────────────────────
const client = new pg.Client({ connectionString: url });
await client.connect();
const deadline = Date.now() + 120_000;
for (;;) {
  const { rows } = await client.query(
    `SELECT count(*)::int AS n, count(*) FILTER (WHERE state IN ('scheduled','running'))::int AS open FROM ${schema}.runs`,
  );
  if ((rows[0].n >= expected && rows[0].open === 0) || Date.now() > deadline) break;
  await new Promise((r) => setTimeout(r, 500));
}
for (const c of children.values()) c.kill('SIGTERM');
await Promise.all(
  [...children.values()].map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))),
);

// ── verify ─────────────────────────────────────────────────────────────────────────────────────────
const runs = await client.query(
  `SELECT r.id::text, ${occurrenceKeySql('r.')} AS occurrence_id, r.state, r.attempt, s.key
     FROM ${schema}.runs r JOIN ${schema}.schedules s ON s.id = r.schedule_id`,
);
const reclaimedAttempts = await client.query(
  `SELECT run_id::text, count(*)::int AS n FROM ${schema}.attempts WHERE outcome = 'leaseExpired' GROUP BY run_id`,
);
await client.end();
const reclaimed = new Map(reclaimedAttempts.rows.map((r) => [r.run_id as string, r.n as number]));

const byOccurrence = new Map<string, number>();
for (const r of runs.rows) byOccurrence.set(r.occurrence_id, (byOccurrence.get(r.occurrence_id) ?? 0) + 1);
const duplicates = [...byOccurrence.values()].filter((n) => n > 1).length;
const missed = expected - byOccurrence.size;
const notFinal = runs.rows.filter((r) => r.state === 'scheduled' || r.state === 'running').length;
const notSucceeded = runs.rows.filter((r) => r.state !== 'succeeded').length;

const deliveries = new Map<string, number>();
for (const f of readdirSync(dir)) {
  for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
    const id = line.split(' ')[0];
    if (id) deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
  }
}
let extraDeliveries = 0;
let unexplained = 0;
for (const [id, n] of deliveries) {
  if (n <= 1) continue;
  extraDeliveries += n - 1;
  if (n - 1 > (reclaimed.get(id) ?? 0)) unexplained++;
}
const undelivered = runs.rows.filter((r) => r.state === 'succeeded' && !deliveries.has(r.id)).length;

const figures = {
  schedules: SCHEDULES,
  instances: INSTANCES,
  seconds: SECONDS,
  kills,
  dbRestarts,
  skewMs: SKEW_MS,
  expectedOccurrences: expected,
  runs: runs.rows.length,
  duplicateOccurrences: duplicates,
  missedOccurrences: missed,
  runsNotFinal: notFinal,
  runsNotSucceeded: notSucceeded,
  deliveries: [...deliveries.values()].reduce((a, b) => a + b, 0),
  extraDeliveries,
  extraDeliveriesWithoutReclaim: unexplained,
  succeededWithoutDelivery: undelivered,
  leasesReclaimed: [...reclaimed.values()].reduce((a, b) => a + b, 0),
};
console.log(JSON.stringify(figures, null, 2));
const failed = duplicates > 0 || missed !== 0 || notFinal > 0 || unexplained > 0 || undelivered > 0;
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
