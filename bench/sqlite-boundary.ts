// CPU per fired run on the SQLite store at N hourly schedules, over minute boundaries of the `many-schedules`
// workload (schedule i fires at minute i % 60), split by store operation and by phase: materialise (the
// materializer's claim and advance, 10 s before the boundary) and execute (the worker's claims and
// settlements at the boundary). The real scheduler runs on a clock that follows real time but can jump over
// the idle minutes, so a boundary is measured in seconds instead of a minute. It only measures: nothing
// outside its own files changes.
//
// The database is made once per N and kept as a template (copied for each measurement): 60 schedules put
// through the scheduler, then copied by SQL to N rows (keys rec-<i>, ids in key order, created_at one
// millisecond apart per 1,000 as a bulk load in batches leaves it). The copies have no revision rows (the
// hot path never reads them).
//
//   npx tsx bench/sqlite-boundary.ts [--schedules 1000000] [--boundaries 3] [--pragma 'cache_size=-65536']
//     [--sql '<DDL run on the copy before the scheduler starts>'] [--template <path>]

import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScheduler, sqliteStore, type Store } from '../packages/punctual/src/index.js';
import type { Clock } from '../packages/punctual/src/clock.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}
const N = Number(arg('schedules', '1000000'));
const BOUNDARIES = Number(arg('boundaries', '3'));
const PRAGMAS = arg('pragma', '')
  .split(';')
  .map((p) => p.trim())
  .filter((p) => p !== '');
const EXTRA_SQL = arg('sql', '');
const TEMPLATE = arg('template', join(tmpdir(), `punctual-sqlite-boundary-${N}.db`));
/** The instant the schedules are created at: 30 s into an hour, so minute m's boundary is m minutes on. */
const T0 = Date.UTC(2030, 0, 7, 0, 0, 30);
const MINUTE = 60_000;

/** Real time shifted by an offset that only grows: jump() skips idle time, re-arming the pending timers. */
class JumpClock implements Clock {
  #offset: number;
  readonly #timers = new Set<{ at: number; fn: () => void; handle?: NodeJS.Timeout }>();
  constructor(start: number) {
    this.#offset = start - Date.now();
  }
  now(): number {
    return Date.now() + this.#offset;
  }
  setTimer(at: number, fn: () => void): () => void {
    const t: { at: number; fn: () => void; handle?: NodeJS.Timeout } = { at, fn };
    this.#timers.add(t);
    this.#arm(t);
    return () => {
      clearTimeout(t.handle);
      this.#timers.delete(t);
    };
  }
  jump(to: number): void {
    if (to <= this.now()) return;
    this.#offset += to - this.now();
    for (const t of this.#timers) this.#arm(t);
  }
  #arm(t: { at: number; fn: () => void; handle?: NodeJS.Timeout }): void {
    clearTimeout(t.handle);
    t.handle = setTimeout(
      () => {
        this.#timers.delete(t);
        t.fn();
      },
      Math.max(0, Math.min(t.at - this.now(), 2_000_000_000)),
    );
  }
}

async function makeTemplate(path: string): Promise<void> {
  for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
  const store = sqliteStore({ path });
  const s = createScheduler({ store, clock: { now: () => T0, setTimer: () => () => {} } });
  s.handle('b', () => {});
  await s.migrate();
  await s.putMany(
    Array.from({ length: 60 }, (_, i) => ({
      key: `rec-${i}`,
      spec: `${i} * * * *`,
      target: { handler: 'b' },
    })),
  );
  await store.close();
  const db = new Database(path);
  const cols = (db.prepare('PRAGMA table_info(schedules)').all() as { name: string }[])
    .map((c) => c.name)
    .filter((c) => c !== 'id');
  const pick = cols.map((c) =>
    c === 'key'
      ? `'rec-' || n.i`
      : c === 'created_at' || c === 'updated_at'
        ? `t.${c} + n.i / 1000`
        : `t.${c}`,
  );
  db.exec(`
    INSERT INTO schedules (${cols.join(', ')})
    WITH RECURSIVE n(i) AS (SELECT 60 UNION ALL SELECT i + 1 FROM n WHERE i < ${N - 1})
    SELECT ${pick.join(', ')} FROM n JOIN schedules AS t ON t.key = 'rec-' || (n.i % 60)`);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** The store's operations wrapped: CPU of each call's synchronous part (all of it, on SQLite) by name. */
function metered(store: Store, cpu: Map<string, { us: number; calls: number }>): Store {
  return new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function' || typeof prop !== 'string') return v;
      return (...args: unknown[]) => {
        const c0 = process.cpuUsage();
        try {
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        } finally {
          const d = process.cpuUsage(c0);
          const e = cpu.get(prop) ?? { us: 0, calls: 0 };
          e.us += d.user + d.system;
          e.calls++;
          cpu.set(prop, e);
        }
      };
    },
  });
}

function io(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync('/proc/self/io', 'utf8').split('\n')) {
    const [k, v] = line.split(':');
    if (k && v) out[k] = Number(v);
  }
  return out;
}

async function until(cond: () => boolean, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function main(): Promise<void> {
  if (!existsSync(TEMPLATE)) {
    const t = Date.now();
    // Made under another name and renamed: a template is whole or absent.
    await makeTemplate(`${TEMPLATE}.part`);
    renameSync(`${TEMPLATE}.part`, TEMPLATE);
    console.error(`template ${TEMPLATE} made in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'punctual-boundary-'));
  const path = join(dir, 'bench.db');
  copyFileSync(TEMPLATE, path);
  if (EXTRA_SQL !== '') {
    const db = new Database(path);
    db.exec(EXTRA_SQL);
    db.close();
  }
  const store = sqliteStore({ path });
  const conn = (store as unknown as { sql: { connection: { exec(s: string): void } } }).sql.connection;
  for (const p of PRAGMAS) conn.exec(`PRAGMA ${p}`);
  const cpu = new Map<string, { us: number; calls: number }>();
  const clock = new JumpClock(T0);
  const s = createScheduler({
    store: metered(store, cpu),
    clock,
    concurrency: 10,
    notFiredGraceMs: 3_600_000,
  });
  let advanced = 0;
  let succeeded = 0;
  s.on('materializer:advanced', () => advanced++);
  s.on('run:succeeded', () => succeeded++);
  s.handle('b', () => {});
  await s.migrate();
  await s.start();
  const perBoundary = (m: number) => Math.floor((N - 1 - m) / 60) + 1;
  let wantAdvanced = 0;
  let wantSucceeded = 0;
  for (let m = 1; m <= BOUNDARIES; m++) {
    const boundary = T0 - 30_000 + m * MINUTE;
    const n = perBoundary(m);
    for (const phase of ['materialise', 'execute'] as const) {
      cpu.clear();
      const io0 = io();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      if (phase === 'materialise') {
        wantAdvanced += n;
        clock.jump(boundary - 10_000 - 20);
        await until(() => advanced >= wantAdvanced);
      } else {
        wantSucceeded += n;
        clock.jump(boundary - 20);
        await until(() => succeeded >= wantSucceeded);
      }
      const wall = performance.now() - t0;
      const c = process.cpuUsage(c0);
      const io1 = io();
      const per = (x: number) => +(x / n).toFixed(4);
      const ops = [...cpu.entries()]
        .sort((a, b) => b[1].us - a[1].us)
        .map(([k, v]) => `${k} ${per(v.us / 1000)} (${v.calls})`)
        .join(', ');
      console.log(
        JSON.stringify({
          minute: m,
          phase,
          runs: n,
          cpuMsPerRun: per((c.user + c.system) / 1000),
          userMsPerRun: per(c.user / 1000),
          sysMsPerRun: per(c.system / 1000),
          wallMs: Math.round(wall),
          readsPerRun: per(io1.syscr! - io0.syscr!),
          writesPerRun: per(io1.syscw! - io0.syscw!),
          kBReadPerRun: per((io1.rchar! - io0.rchar!) / 1024),
          kBWrittenPerRun: per((io1.wchar! - io0.wchar!) / 1024),
        }),
      );
      console.log(`  store ms per run: ${ops}`);
    }
  }
  await s.close();
  rmSync(dir, { recursive: true, force: true });
}

await main();
