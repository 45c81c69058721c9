// Multi-instance drain on PostgreSQL: N worker processes (schedulers with only the worker role) share one
// schema; the parent inserts runs that all fall due at one instant and polls the database until every one
// has succeeded. Reports runs/s from the due instant to the last settlement. Run alone:
//   PUNCTUAL_BENCH_PG_URL=postgres://… npx tsx bench/drain-instances.ts [--runs 20000] [--instances 1,2,4]
// bench/run.ts runs it for `--store postgres`. With `--child` this file is one worker process.

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createScheduler } from '../packages/punctual/src/index.js';
import { postgresStore } from '../packages/punctual/src/store/postgres/postgres-store.js';
import { backlog } from './workloads.js';

/** Time between inserting the runs and their due instant, so the inserts never overlap the drain. */
const LEAD_MS = 3000;

export interface InstancesResult {
  instances: number;
  runs: number;
  perSecond: number;
  succeeded: number;
}

/** Drains `runs` due runs with `instances` worker processes of `concurrency` each, on a fresh schema. */
export async function drainInstances(
  url: string,
  instances: number,
  runs: number,
  concurrency = 10,
): Promise<InstancesResult> {
  const schema = `bench_mi_${Math.random().toString(36).slice(2, 10)}`;
  const setup = createScheduler({
    store: postgresStore({ connectionString: url, schema }),
    roles: { materializer: false, worker: false },
    clockSync: { enabled: false },
  });
  setup.handle('noop', () => {});
  await setup.migrate();
  const { schedule } = await setup.put({ key: 'backlog', spec: '@yearly', target: { handler: 'noop' } });
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const children: ChildProcess[] = [];
  try {
    for (let i = 0; i < instances; i++) children.push(await startChild(url, schema, concurrency));
    const due = Date.now() + LEAD_MS;
    await backlog(setup, schedule.id, runs, () => due, 'manual');
    if (Date.now() >= due) throw new Error(`inserting ${runs} runs took longer than ${LEAD_MS} ms`);
    const deadline = due + 120_000;
    for (;;) {
      const { rows } = await admin.query<{ pending: string }>(
        `SELECT (SELECT count(*) FROM "${schema}".runs WHERE state = 'scheduled')
              + (SELECT count(*) FROM "${schema}".runs WHERE state = 'running') AS pending`,
      );
      if (Number(rows[0]!.pending) === 0) break;
      if (Date.now() > deadline) throw new Error(`${rows[0]!.pending} runs still pending after 120 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const { rows } = await admin.query<{ ok: string; last: string }>(
      `SELECT count(*) FILTER (WHERE state = 'succeeded') AS ok, max(finished_at) AS last
         FROM "${schema}".runs WHERE kind = 'manual'`,
    );
    const seconds = (Number(rows[0]!.last) - due) / 1000;
    return { instances, runs, succeeded: Number(rows[0]!.ok), perSecond: Math.round(runs / seconds) };
  } finally {
    await Promise.all(children.map(stopChild));
    await setup.close();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}

function startChild(url: string, schema: string, concurrency: number): Promise<ChildProcess> {
  const file = fileURLToPath(import.meta.url);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', file, '--child', url, schema, String(concurrency)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker process exited with ${code} before it was ready`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve(child);
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** One worker process: a scheduler with only the worker role and a no-op handler. */
async function child(url: string, schema: string, concurrency: number): Promise<void> {
  const scheduler = createScheduler({
    store: postgresStore({ connectionString: url, schema }),
    roles: { materializer: false, worker: true },
    concurrency,
    notFiredGraceMs: 3_600_000,
  });
  scheduler.handle('noop', () => {});
  await scheduler.start();
  process.on('SIGTERM', () => void scheduler.close().then(() => process.exit(0)));
  process.stdout.write('ready\n');
}

const argv = process.argv.slice(2);
if (argv[0] === '--child') {
  await child(argv[1]!, argv[2]!, Number(argv[3]));
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const url = process.env.PUNCTUAL_BENCH_PG_URL ?? process.env.PUNCTUAL_TEST_PG_URL;
  if (!url) throw new Error('set PUNCTUAL_BENCH_PG_URL to run the multi-instance drain');
  const flag = (name: string, dflt: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1]! : dflt);
  const runs = Number(flag('--runs', '20000'));
  for (const n of flag('--instances', '1,2,4').split(',').map(Number)) {
    console.log(JSON.stringify(await drainInstances(url, n, runs)));
  }
}
