// Runs the benchmark workloads and writes a table: `npm run bench` (SQLite) or
// `npm run bench -- --store postgres` (needs PUNCTUAL_BENCH_PG_URL; also drains with 1, 2 and 4 worker
// processes, bench/drain-instances.ts). `--quick` uses small sizes. Results: bench/results/<date>-<store>.md
// and .json.

import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { sqliteStore } from '../packages/punctual/src/index.js';
import { table } from './stats.js';
import {
  boundaryFanOut,
  drain,
  enqueueBulk,
  enqueueOneByOne,
  firingLateness,
  type StoreFactory,
} from './workloads.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const storeName = args.includes('--store') ? args[args.indexOf('--store') + 1]! : 'sqlite';

const sqlite: StoreFactory = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'punctual-bench-'));
  return {
    store: sqliteStore({ path: join(dir, 'bench.db') }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
};

async function factoryFor(name: string): Promise<StoreFactory> {
  if (name === 'sqlite') return sqlite;
  if (name === 'postgres') {
    const url = process.env.PUNCTUAL_BENCH_PG_URL ?? process.env.PUNCTUAL_TEST_PG_URL;
    if (!url) throw new Error('set PUNCTUAL_BENCH_PG_URL to run the PostgreSQL benchmark');
    const { postgresStore } = await import('../packages/punctual/src/store/postgres/postgres-store.js');
    return async () => {
      const schema = `bench_${Math.random().toString(36).slice(2, 10)}`;
      const store = postgresStore({ connectionString: url, schema });
      const sql = async (text: string) => {
        const pg = await import('pg');
        const c = new pg.default.Client({ connectionString: url });
        await c.connect();
        await c.query(text);
        await c.end();
      };
      return {
        store,
        cleanup: () => sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`),
        quiesce: () => sql('CHECKPOINT'),
      };
    };
  }
  throw new Error(`unknown store ${name}`);
}

const sizes = quick
  ? { oneByOne: 1000, bulk: 5000, drain: 5000, fire: 200, spread: 5000, pending: 20_000, fanOut: 1000 }
  : {
      oneByOne: 5000,
      bulk: 20_000,
      drain: 20_000,
      fire: 1000,
      spread: 20_000,
      pending: 1_000_000,
      fanOut: 10_000,
    };

const make = await factoryFor(storeName);
const rows: Record<string, string | number>[] = [];
const log = (r: Record<string, string | number>) => {
  rows.push(r);
  console.log(JSON.stringify(r));
};

// `--fan-out-only [--concurrency N]`: just the recurring fan-out, e.g. to try a worker concurrency.
const fanOutOnly = args.includes('--fan-out-only');
const fanOutConcurrency = args.includes('--concurrency')
  ? Number(args[args.indexOf('--concurrency') + 1])
  : 10;
if (!fanOutOnly) {
  log({
    workload: `enqueue one-offs one by one (${sizes.oneByOne})`,
    result: `${(await enqueueOneByOne(make, sizes.oneByOne)).perSecond} /s`,
  });
  log({
    workload: `enqueue one-offs in bulk, 1000 per call (${sizes.bulk})`,
    result: `${(await enqueueBulk(make, sizes.bulk)).perSecond} /s`,
  });
  log({
    workload: `drain ${sizes.drain} due runs, no-op handler, concurrency 10`,
    result: `${(await drain(make, sizes.drain)).perSecond} /s`,
  });
  const f = await firingLateness(make, { runs: sizes.fire, spreadMs: sizes.spread, pending: sizes.pending });
  log({
    workload: `firing lateness, ${sizes.fire} runs over ${sizes.spread / 1000} s, ${sizes.pending} other runs pending`,
    result: `p50 ${f.p50} ms, p99 ${f.p99} ms, max ${f.max} ms, missed ${f.missed}`,
  });
}
if (storeName === 'postgres' || args.includes('--fan-out') || fanOutOnly) {
  const b = await boundaryFanOut(make, sizes.fanOut, 15_000, fanOutConcurrency);
  log({
    workload: `recurring fan-out: ${sizes.fanOut} schedules on one minute boundary, concurrency ${fanOutConcurrency}, lateness of each start (the first boundary 15 s after start)`,
    result: `p50 ${b.p50} ms, p99 ${b.p99} ms, max ${b.max} ms, missed ${b.missed}`,
  });
}

if (storeName === 'postgres' && !fanOutOnly) {
  const { drainInstances } = await import('./drain-instances.js');
  const url = process.env.PUNCTUAL_BENCH_PG_URL ?? process.env.PUNCTUAL_TEST_PG_URL!;
  for (const n of [1, 2, 4]) {
    const d = await drainInstances(url, n, sizes.drain);
    log({
      workload: `drain ${sizes.drain} due runs with ${n} worker process${n > 1 ? 'es' : ''}, no-op handler, concurrency 10 each`,
      result: `${d.perSecond} /s${d.succeeded === d.runs ? '' : ` (${d.runs - d.succeeded} not succeeded)`}`,
    });
  }
}

const date = new Date().toISOString().slice(0, 10);
const header = `# Benchmark: ${storeName}${quick ? ' (quick)' : ''}, ${date}\n\nMachine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}. Command: \`npm run bench -- ${args.join(' ')}\`.\n\n`;
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
const variant = `${quick ? '-quick' : ''}${fanOutOnly ? `-fan-out-c${fanOutConcurrency}` : ''}`;
const base = new URL(`./results/${date}-${storeName}${variant}`, import.meta.url);
writeFileSync(`${base.pathname}.md`, header + table(rows) + '\n');
writeFileSync(
  `${base.pathname}.json`,
  JSON.stringify({ date, store: storeName, quick, sizes, rows }, null, 2) + '\n',
);
console.log(`\n${table(rows)}\n\nwritten to ${base.pathname}.md`);
