// WAL written per run, on PostgreSQL and SQLite, split by phase of a run's life: materialise (the
// materializer's claim of due schedules and its advance, which inserts the run), claim (claimRuns) and settle
// (settleRuns, succeeded), each through the store's own API with a fixed `now`, in batches as the engine
// sends them. N hourly schedules are loaded first (not measured), each fires once.
//
// PostgreSQL: the WAL records between the LSNs before and after each phase, read with pg_walinspect and
// attributed to the schema's tables and indexes (record bytes without full-page images, which depend on
// when the server last checkpointed, and those images apart), with the heap and btree record kinds (inserts,
// HOT and non-HOT updates, index entries). The server-wide LSN distance is printed too (other sessions
// write into it). SQLite: the store's automatic checkpoint is turned off for the measurement, so the WAL
// file only grows; its frames are read back and attributed to tables and indexes by page number (dbstat).
// It only measures: nothing outside its own schema and file changes. The PostgreSQL database needs the
// pg_walinspect extension (created when missing: run it on a database of its own).
//
//   npx tsx bench/wal-per-run.ts [--store postgres|sqlite|both] [--runs 20000] [--batch 100]
//   PUNCTUAL_BENCH_PG_URL names the PostgreSQL database (default postgres://postgres@127.0.0.1:5432/test);
//   the schema bench_wal is dropped and made again.

import Database from 'better-sqlite3';
import { mkdtempSync, openSync, readSync, rmSync, statSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createScheduler, sqliteStore, type Scheduler, type Store } from '../packages/punctual/src/index.js';
import type { Schedule } from '../packages/punctual/src/domain/schedule.js';
import { postgresStore } from '../packages/punctual/src/store/postgres/postgres-store.js';
import type { Advance, ClaimedRun } from '../packages/punctual/src/store/store.js';
import { succeededSettlements } from './workloads.js';

const PG_URL = process.env.PUNCTUAL_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench_wal';
const HOUR = 3_600_000;
/** The fixed instant the schedules are created at (every phase's now derives from it). */
const T0 = Date.UTC(2030, 0, 7, 0, 0, 30);

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}
const RUNS = Number(arg('runs', '20000'));
const BATCH = Number(arg('batch', '100'));
const STORES = arg('store', 'both') === 'both' ? ['postgres', 'sqlite'] : [arg('store', 'both')];
/** Extra DDL run after the migrations, before loading (to try a change before writing its migration). */
const AFTER_MIGRATE = arg('after-migrate', '');

const fixedClock = { now: () => T0, setTimer: () => () => {} };

/** What one phase wrote to one object (table or index), or to everything else. */
interface Written {
  bytes: number;
  fpi: number;
  /** Record kinds and how many. */
  kinds: Map<string, number>;
}

interface PhaseResult {
  phase: string;
  total: number;
  fpiTotal: number;
  /** Server-wide (PostgreSQL: every session's WAL; SQLite: the same as total). */
  serverWide: number;
  byObject: Map<string, Written>;
}

interface Target {
  scheduler: Scheduler;
  store: Store;
  /** Runs DDL, `{s}` standing for the schema (PostgreSQL) or nothing (SQLite). */
  exec(sql: string): Promise<void>;
  /** Starts a phase; the returned function ends it and reads what it wrote. */
  begin(phase: string): Promise<() => Promise<PhaseResult>>;
  close(): Promise<void>;
}

function add(map: Map<string, Written>, name: string, bytes: number, fpi: number, kind: string): void {
  const w = map.get(name) ?? { bytes: 0, fpi: 0, kinds: new Map<string, number>() };
  w.bytes += bytes;
  w.fpi += fpi;
  w.kinds.set(kind, (w.kinds.get(kind) ?? 0) + 1);
  map.set(name, w);
}

async function postgresTarget(): Promise<Target> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
  // Keeps the WAL from here on until this session ends (a temporary slot), so that a checkpoint caused by
  // other sessions cannot recycle a segment before the phase's records are read.
  await client.query(
    `SELECT pg_create_physical_replication_slot('punctual_bench_wal_' || pg_backend_pid(), true, true)`,
  );
  await client.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
  const store = postgresStore({ connectionString: PG_URL, schema: SCHEMA, listen: false });
  const scheduler = createScheduler({ store, clock: fixedClock });
  // The flushed position: every commit of a phase is flushed when its call returns (and pg_walinspect reads
  // only flushed WAL).
  const lsn = async () =>
    (await client.query<{ l: string }>('SELECT pg_current_wal_flush_lsn()::text AS l')).rows[0]!.l;
  return {
    scheduler,
    store,
    exec: async (sql) => {
      await client.query(sql.replaceAll('{s}', `"${SCHEMA}".`));
    },
    begin: async (phase) => {
      const start = await lsn();
      return async () => {
        const end = await lsn();
        // The schema's relations (and their TOAST) by file node, as block references name them.
        const rels = await client.query<{ node: string; name: string }>(
          `SELECT c.relfilenode::text AS node, c.relname AS name FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relfilenode <> 0
           UNION ALL
           SELECT t.relfilenode::text, c.relname || ' (toast)' FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_class t ON t.oid = c.reltoastrelid
            WHERE n.nspname = $1`,
          [SCHEMA],
        );
        const names = new Map(rels.rows.map((r) => [r.node, r.name]));
        const recs = await client.query<{
          rm: string;
          kind: string;
          xid: string;
          len: number;
          fpi: number;
          block: string | null;
        }>(
          `SELECT resource_manager AS rm, record_type AS kind, xid::text AS xid, record_length AS len, fpi_length AS fpi,
                  block_ref AS block
             FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)`,
          [start, end],
        );
        const byObject = new Map<string, Written>();
        let total = 0;
        let fpiTotal = 0;
        let serverWide = 0;
        const nameOf = (block: string | null) => {
          const node = /rel \d+\/\d+\/(\d+)/.exec(block ?? '')?.[1];
          return node === undefined ? undefined : names.get(node);
        };
        // Commit records name no block: they count when their transaction wrote to the schema.
        const ours = new Set(recs.rows.filter((r) => nameOf(r.block) !== undefined).map((r) => r.xid));
        for (const r of recs.rows) {
          serverWide += r.len;
          const name = nameOf(r.block);
          // Records of other relations are other sessions' (or the catalog's).
          if (name === undefined && !(r.rm === 'Transaction' && ours.has(r.xid))) continue;
          total += r.len - r.fpi;
          fpiTotal += r.fpi;
          add(byObject, name ?? '(commit records)', r.len - r.fpi, r.fpi, `${r.rm}/${r.kind}`);
        }
        return { phase, total, fpiTotal, serverWide, byObject };
      };
    },
    close: async () => {
      await scheduler.close();
      await client.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
      await client.end();
    },
  };
}

async function sqliteTarget(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'punctual-wal-'));
  const path = join(dir, 'wal.db');
  const store = sqliteStore({ path });
  const scheduler = createScheduler({ store, clock: fixedClock });
  const walPath = `${path}-wal`;
  const walSize = () => {
    try {
      return statSync(walPath).size;
    } catch {
      return 0;
    }
  };
  let autocheckpointOff = false;
  return {
    scheduler,
    store,
    exec: async (sql) => {
      const db = new Database(path);
      db.exec(sql.replaceAll('{s}', ''));
      db.close();
    },
    begin: async (phase) => {
      if (!autocheckpointOff) {
        // The store's own connection checkpoints; off for the measurement, so the WAL only grows.
        (store as unknown as { sql: { pragma(p: string): unknown } }).sql.pragma('wal_autocheckpoint = 0');
        autocheckpointOff = true;
      }
      const start = walSize();
      return async () => {
        const end = walSize();
        const ro = new Database(path, { readonly: true });
        const pageSize = Number(ro.pragma('page_size', { simple: true }));
        const pages = new Map<number, string>();
        for (const r of ro.prepare('SELECT name, pageno FROM dbstat').all() as {
          name: string;
          pageno: number;
        }[])
          pages.set(r.pageno, r.name);
        ro.close();
        const byObject = new Map<string, Written>();
        const frame = 24 + pageSize;
        // Frames start after the 32-byte header; read each frame's page number from its header.
        const fd = openSync(walPath, 'r');
        const head = Buffer.alloc(24);
        let first = start === 0 ? 32 : start;
        for (let off = first; off + frame <= end; off += frame) {
          readSync(fd, head, 0, 24, off);
          const pgno = head.readUInt32BE(0);
          add(byObject, pages.get(pgno) ?? '(free or new pages)', frame, 0, 'page');
        }
        closeSync(fd);
        first = end - start;
        return { phase, total: first, fpiTotal: 0, serverWide: first, byObject };
      };
    },
    close: async () => {
      await scheduler.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function loadSchedules(s: Scheduler, n: number): Promise<Schedule[]> {
  const out: Schedule[] = [];
  for (let i = 0; i < n; i += 1000) {
    const batch = [];
    for (let j = i; j < Math.min(n, i + 1000); j++)
      batch.push({ key: `wal-${j}`, spec: `${j % 60} * * * *`, target: { handler: 'bench' } });
    for (const r of await s.putMany(batch)) out.push(r.schedule);
  }
  return out;
}

async function materialise(store: Store): Promise<void> {
  const now = T0;
  for (;;) {
    const due = await store.claimDueSchedules({ now, horizon: now + HOUR, limit: BATCH, leaseMs: 30_000 });
    if (due.length === 0) return;
    const advances: Advance[] = due.map((sc) => ({
      tenantId: sc.tenantId,
      scheduleId: sc.id,
      version: sc.version,
      expectedNextFireAt: sc.nextFireAt,
      nextFireAt: sc.nextFireAt! + HOUR,
      fired: 1,
      complete: false,
      runs: [
        {
          tenantId: sc.tenantId,
          scheduleId: sc.id,
          scheduleKey: sc.key,
          scheduleVersion: sc.version,
          kind: 'scheduled',
          unique: true,
          scheduledFor: sc.nextFireAt!,
          dueAt: sc.nextFireAt!,
          expiresAt: null,
          priority: sc.policies.priority,
          maxAttempts: sc.policies.retry.maxAttempts,
          overlap: sc.policies.overlap,
          payload: null,
          state: 'scheduled',
          reason: null,
          details: null,
        },
      ],
      now,
    }));
    if (store.advanceSchedules) await store.advanceSchedules(advances);
    else for (const a of advances) await store.advanceSchedule(a);
  }
}

async function measure(kind: string): Promise<PhaseResult[]> {
  const t = kind === 'sqlite' ? await sqliteTarget() : await postgresTarget();
  try {
    t.scheduler.handle('bench', () => {});
    await t.scheduler.migrate();
    if (AFTER_MIGRATE !== '') await t.exec(AFTER_MIGRATE);
    await loadSchedules(t.scheduler, RUNS);
    const results: PhaseResult[] = [];
    let end = await t.begin('materialise');
    await materialise(t.store);
    results.push(await end());

    const claimNow = T0 + HOUR + 1;
    const claimed: ClaimedRun[][] = [];
    end = await t.begin('claim');
    for (;;) {
      const r = await t.store.claimRuns({ workerId: 'w1', now: claimNow, limit: BATCH, leaseMs: 60_000 });
      if (r.claimed.length === 0) break;
      claimed.push(r.claimed);
    }
    results.push(await end());
    const got = claimed.reduce((a, c) => a + c.length, 0);
    if (got !== RUNS) throw new Error(`claimed ${got} runs, expected ${RUNS}`);

    const settleNow = claimNow + 5;
    end = await t.begin('settle');
    for (const page of claimed) {
      const settlements = succeededSettlements(page, 'w1', claimNow, settleNow);
      const settled = await t.store.settleRuns(settlements, settleNow);
      if (settled.some((x) => x === null)) throw new Error('a settlement was refused');
    }
    results.push(await end());
    return results;
  } finally {
    await t.close();
  }
}

const perRun = (b: number) => Math.round(b / RUNS).toLocaleString('en-US');

function report(kind: string, results: PhaseResult[]): void {
  console.log(`\n### ${kind}: ${RUNS.toLocaleString('en-US')} runs, batches of ${BATCH}\n`);
  const fpiCol = kind === 'postgres';
  console.log(
    fpiCol
      ? '| phase | WAL bytes per run (records) | full-page images per run | server-wide per run |\n| --- | ---: | ---: | ---: |'
      : '| phase | WAL bytes per run (frames) |\n| --- | ---: |',
  );
  let sum = 0;
  let fpi = 0;
  for (const r of results) {
    sum += r.total;
    fpi += r.fpiTotal;
    console.log(
      fpiCol
        ? `| ${r.phase} | ${perRun(r.total)} | ${perRun(r.fpiTotal)} | ${perRun(r.serverWide)} |`
        : `| ${r.phase} | ${perRun(r.total)} |`,
    );
  }
  console.log(
    fpiCol ? `| **run** | **${perRun(sum)}** | ${perRun(fpi)} | |` : `| **run** | **${perRun(sum)}** |`,
  );
  for (const r of results) {
    console.log(`\n${kind}, ${r.phase}: by object (per run; records per run by kind)\n`);
    console.log('| object | bytes per run | records per run |\n| --- | ---: | --- |');
    for (const [name, w] of [...r.byObject].sort((a, b) => b[1].bytes - a[1].bytes)) {
      const kinds = [...w.kinds]
        .sort((a, b) => b[1] - a[1])
        .map(([k, c]) => `${k} ${(c / RUNS).toFixed(2)}`)
        .join(', ');
      console.log(`| ${name} | ${perRun(w.bytes)} | ${kinds} |`);
    }
  }
}

for (const kind of STORES) report(kind, await measure(kind));
