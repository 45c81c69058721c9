// The comparison driver: `npm run bench:peers -- --quick` (minutes) or without --quick (the full run).
// Runs every (peer, workload) in a fresh process for R reps (fan-out, and 5–6 in full runs: once), reps
// interleaved (rep 1 of every pair, then rep 2, …), and writes bench/results/<date>-peers.json with every
// rep, setting, size, version and machine.
// Options: --peers a,b  --workloads a,b  --reps N  --sizes '{"drain":5000}'  --out <file>

import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, release } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { PEER_NAMES, type PeerName } from './peer.js';
import type { Sizes, WorkloadName, WorkloadResult } from './run-workload.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..', '..');
const args = process.argv.slice(2);
const flag = (name: string): string | undefined =>
  args.includes(name) ? args[args.indexOf(name) + 1] : undefined;
const quick = args.includes('--quick');

export const QUICK: Sizes = {
  enqueueOne: 1000,
  enqueueBulk: 5000,
  drain: 5000,
  precisionRuns: 200,
  precisionSpreadMs: 10_000,
  fanOut: 200,
  backlog: 20_000,
  manySchedules: 6000,
  manyMinutes: 2,
  concurrency: 10,
};
/**
 * The issue's sizes, except workload 6: 100,000 schedules (not 1,000,000) and 2 steady-state minutes (not 3),
 * to keep the full run (7 peers; workloads 1–4 × 3 reps, fan-out and 5–6 once) near an hour on a 2-core
 * machine. Measured (2026-11-22, full run): 1–3 ≈ 9 min per rep, fan-out ≈ 6 min, 5 ≈ 7 min, 6 ≈ 36 min, of
 * which 22 min are BullMQ's PostgreSQL backend, whose schedule creation falls from ~1k/s to under 100/s as
 * they accumulate (19 min for 100,000); total ≈ 73 min. Workload 6 costs each peer whole minutes: loading,
 * the wait for a boundary ≥ 15 s away, then its minutes (3 min per peer when loading takes under ~40 s).
 * Punctual creates schedules at ~5–6k/s, BullMQ on Redis at ~10k/s; 1,000,000 would take hours for BullMQ on
 * PostgreSQL.
 * Workload 5 keeps 1,000,000 pending runs: every peer loads them at 16k–150k runs/s (≤ ~65 s).
 */
export const FULL: Sizes = {
  enqueueOne: 20_000,
  enqueueBulk: 20_000,
  drain: 20_000,
  precisionRuns: 1000,
  precisionSpreadMs: 20_000,
  fanOut: 10_000,
  backlog: 1_000_000,
  manySchedules: 100_000,
  manyMinutes: 2,
  concurrency: 10,
};

const sizes: Sizes = {
  ...(quick ? QUICK : FULL),
  ...(JSON.parse(flag('--sizes') ?? '{}') as Partial<Sizes>),
};
const peers = (flag('--peers')?.split(',') ?? [...PEER_NAMES]) as PeerName[];
const workloads = (flag('--workloads')?.split(',') ??
  (quick
    ? ['enqueue-one', 'enqueue-bulk', 'drain', 'precision', 'fan-out']
    : [
        'enqueue-one',
        'enqueue-bulk',
        'drain',
        'precision',
        'fan-out',
        'backlog-precision',
        'many-schedules',
        'seconds-spread',
      ])) as WorkloadName[];
const reps = Number(flag('--reps') ?? (quick ? 2 : 3));
/**
 * Workloads run once whatever --reps says, to keep the full run near 60 minutes: fan-out waits for a minute
 * boundary (~1 min per peer and rep); workloads 5–6 load N rows and wait whole minutes.
 */
const ONE_REP: readonly WorkloadName[] = quick
  ? ['fan-out']
  : ['fan-out', 'backlog-precision', 'many-schedules', 'seconds-spread'];
const repsOf = (w: WorkloadName): number => (ONE_REP.includes(w) ? Math.min(1, reps) : reps);
/**
 * Each child is bounded: the longest workload (many schedules) plus loading time, counted at 2,000 schedules
 * a second at least (ten million: 83 min).
 */
const CHILD_TIMEOUT_MS = Math.max(
  15 * 60_000,
  (sizes.manyMinutes + (sizes.settleMinutes ?? 0) + 20) * 60_000 + (sizes.manySchedules / 2_000) * 1_000,
);

interface Rep extends WorkloadResult {
  rep: number;
  wallSeconds: number;
  error?: string;
}

function runChild(peer: PeerName, workload: WorkloadName): Promise<Omit<Rep, 'rep'>> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(here, 'run-workload.ts'), peer, workload, JSON.stringify(sizes)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        cwd: root,
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const wallSeconds = Math.round((Date.now() - t0) / 100) / 10;
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (line) resolve({ ...(JSON.parse(line.slice(7)) as WorkloadResult), wallSeconds });
      else
        resolve({
          peer,
          workload,
          metrics: {},
          duplicates: 0,
          misses: 0,
          settings: {},
          wallSeconds,
          error: `exit ${code}: ${err.trim().split('\n').slice(-5).join(' | ').slice(0, 800)}`,
        });
    });
  });
}

function versions(): Record<string, string> {
  const v: Record<string, string> = { node: process.version };
  for (const p of ['pg-boss', 'graphile-worker', 'bullmq', 'ioredis', 'pg', 'better-sqlite3']) {
    try {
      v[p] = (
        JSON.parse(readFileSync(join(root, 'node_modules', p, 'package.json'), 'utf8')) as { version: string }
      ).version;
    } catch {
      v[p] = 'not installed';
    }
  }
  v.punctual = (
    JSON.parse(readFileSync(join(root, 'packages', 'punctual', 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  return v;
}

async function serverVersions(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const pg = (await import('pg')).default;
  const c = new pg.Client({
    connectionString: process.env.PUNCTUAL_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  });
  await c.connect();
  const settings = [
    'server_version',
    'shared_buffers',
    'synchronous_commit',
    'fsync',
    'max_connections',
    'work_mem',
  ];
  for (const s of settings)
    out[`postgres.${s}`] = ((await c.query(`SHOW ${s}`)).rows[0] as Record<string, string>)[s]!;
  await c.end();
  const { Redis } = await import('ioredis');
  const r = new Redis(process.env.PUNCTUAL_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379');
  const info = await r.info('server');
  out['redis.version'] = /redis_version:(\S+)/.exec(info)?.[1] ?? '?';
  const persistence = await r.config('GET', 'appendonly');
  out['redis.appendonly'] = String((persistence as string[])[1]);
  await r.quit();
  return out;
}

const startedAt = new Date();
const date = startedAt.toISOString().slice(0, 10);
const out = flag('--out') ?? join(root, 'bench', 'results', `${date}-peers${quick ? '-quick' : ''}.json`);
const results: Rep[] = [];
/** The command as a user would type it again (the report shows it). */
const quoted = (a: string): string => (/^[\w,./=:-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
const command = ['npm run bench:peers', ...(args.length ? ['--', ...args.map(quoted)] : [])].join(' ');
const save = async (servers: Record<string, string>) => {
  mkdirSync(dirname(out), { recursive: true });
  const machine = {
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memGiB: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
  };
  const doc = {
    startedAt: startedAt.toISOString(),
    command,
    quick,
    sizes,
    reps,
    repsByWorkload: Object.fromEntries(workloads.map((w) => [w, repsOf(w)])),
    peers,
    workloads,
    machine,
    versions: { ...versions(), ...servers },
    results,
  };
  writeFileSync(out, JSON.stringify(doc, null, 2) + '\n');
};

const servers = await serverVersions();
for (let rep = 1; rep <= reps; rep++) {
  for (const workload of workloads) {
    if (rep > repsOf(workload)) continue;
    for (const peer of rep % 2 === 0 ? [...peers].reverse() : peers) {
      const r = { ...(await runChild(peer, workload)), rep };
      results.push(r);
      console.log(
        JSON.stringify({
          rep,
          peer,
          workload,
          metrics: r.metrics,
          dup: r.duplicates,
          miss: r.misses,
          skipped: r.skipped,
          error: r.error,
          s: r.wallSeconds,
        }),
      );
      await save(servers);
    }
  }
}
await save(servers);
console.log(`written ${out}; render with: npm run bench:peers:report -- ${out}`);
