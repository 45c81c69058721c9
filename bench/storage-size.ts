// Storage per schedule and per pending run, on SQLite and PostgreSQL. Loads N hourly cron schedules through
// the public API (putMany, 1000 per call, as the peers benchmark does), then M pending runs of them written
// as the materializer writes them (store.insertRuns: kind scheduled, one occurrence each), and prints the size
// of every table and index after each step (dbstat on SQLite, pg_table_size / pg_relation_size on
// PostgreSQL) with the bytes per schedule and per pending run. It only measures: no setting is changed.
//
//   npx tsx bench/storage-size.ts [--store sqlite|postgres|both] [--schedules 100000] [--runs 100000]
//     [--instants minutes|seconds]
//   --instants: the pending runs fall on the 60 minutes of the hour (default: every schedule fires on a minute
//   boundary, so many runs share an instant) or on its 3,600 seconds (schedules created at arbitrary times).
//   PUNCTUAL_BENCH_PG_URL names the PostgreSQL database (default postgres://postgres@127.0.0.1:5432/test);
//   the schema bench_storage is dropped and made again; with --keep it is left after the run, to inspect.

import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createScheduler, sqliteStore, type Scheduler } from '../packages/punctual/src/index.js';
import { postgresStore } from '../packages/punctual/src/store/postgres/postgres-store.js';
import type { RunInsert } from '../packages/punctual/src/store/store.js';

const PG_URL = process.env.PUNCTUAL_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench_storage';
const HOUR = 3_600_000;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}
const SCHEDULES = Number(arg('schedules', '100000'));
const RUNS = Number(arg('runs', '100000'));
const KEEP = process.argv.includes('--keep');
const INSTANTS = arg('instants', 'minutes');
if (INSTANTS !== 'minutes' && INSTANTS !== 'seconds') throw new Error('--instants is minutes or seconds');
/** Where the j-th pending run falls within its hour. */
const offsetOf = (j: number): number => (INSTANTS === 'minutes' ? (j % 60) * 60_000 : (j % 3600) * 1000);
const STORES = arg('store', 'both') === 'both' ? ['sqlite', 'postgres'] : [arg('store', 'both')];

/** Bytes by table or index name. */
type Sizes = Map<string, number>;

interface Target {
  scheduler: Scheduler;
  sizes(): Promise<Sizes>;
  close(): Promise<void>;
}

async function sqliteTarget(): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'punctual-storage-'));
  const path = join(dir, 'storage.db');
  const scheduler = createScheduler({ store: sqliteStore({ path }) });
  return {
    scheduler,
    sizes: async () => {
      const db = new Database(path, { readonly: true });
      try {
        const rows = db.prepare('SELECT name, SUM(pgsize) AS b FROM dbstat GROUP BY name').all() as {
          name: string;
          b: number;
        }[];
        return new Map(rows.map((r) => [r.name, r.b]));
      } finally {
        db.close();
      }
    },
    close: async () => {
      await scheduler.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresTarget(): Promise<Target> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
  const scheduler = createScheduler({ store: postgresStore({ connectionString: PG_URL, schema: SCHEMA }) });
  return {
    scheduler,
    sizes: async () => {
      const { rows } = await client.query<{ name: string; b: string }>(
        `SELECT c.relname AS name,
                (CASE WHEN c.relkind = 'i' THEN pg_relation_size(c.oid) ELSE pg_table_size(c.oid) END)::text AS b
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 AND c.relkind IN ('r', 'i')`,
        [SCHEMA],
      );
      return new Map(rows.map((r) => [r.name, Number(r.b)]));
    },
    close: async () => {
      await scheduler.close();
      if (!KEEP) await client.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
      await client.end();
    },
  };
}

const total = (s: Sizes): number => [...s.values()].reduce((a, b) => a + b, 0);

/** One line per object that grew, with its bytes per row. */
function growth(before: Sizes, after: Sizes, rows: number): string[] {
  const lines: string[] = [];
  for (const [name, b] of [...after].sort((x, y) => y[1] - x[1])) {
    const d = b - (before.get(name) ?? 0);
    if (d > 0) lines.push(`| ${name} | ${(d / 2 ** 20).toFixed(1)} | ${Math.round(d / rows)} |`);
  }
  const d = total(after) - total(before);
  lines.push(`| **total** | **${(d / 2 ** 20).toFixed(1)}** | **${Math.round(d / rows)}** |`);
  return lines;
}

async function measure(kind: string): Promise<void> {
  const t = kind === 'sqlite' ? await sqliteTarget() : await postgresTarget();
  const s = t.scheduler;
  s.handle('bench', () => {});
  await s.migrate();
  const empty = await t.sizes();
  const now = Date.now();
  const ids: string[] = [];
  for (let i = 0; i < SCHEDULES; i += 1000) {
    const batch = [];
    for (let j = i; j < Math.min(SCHEDULES, i + 1000); j++)
      batch.push({ key: `rec-${j}`, spec: `${j % 60} * * * *`, target: { handler: 'bench' } });
    for (const r of await s.putMany(batch)) ids.push(r.schedule.id);
  }
  const withSchedules = await t.sizes();
  // Pending runs as the materializer writes them: the next occurrences of the schedules, in turn.
  const first = Math.ceil(now / HOUR) * HOUR + 2 * HOUR;
  for (let i = 0; i < RUNS; i += 1000) {
    const runs: RunInsert[] = [];
    for (let j = i; j < Math.min(RUNS, i + 1000); j++) {
      const at = first + Math.floor(j / ids.length) * HOUR + offsetOf(j);
      runs.push({
        tenantId: 'default',
        scheduleId: ids[j % ids.length]!,
        scheduleKey: `rec-${j % ids.length}`,
        scheduleVersion: 1,
        kind: 'scheduled',
        unique: true,
        scheduledFor: at,
        dueAt: at,
        expiresAt: null,
        priority: 0,
        maxAttempts: 3,
        overlap: 'allow',
        payload: null,
        state: 'scheduled',
        reason: null,
        details: null,
      });
    }
    await s.store.insertRuns(runs, now);
  }
  const withRuns = await t.sizes();
  console.log(
    `\n### ${kind}: ${SCHEDULES} schedules, then ${RUNS} pending runs on the ${INSTANTS} of the hour\n`,
  );
  console.log('| object | MB | bytes per schedule |\n| --- | ---: | ---: |');
  console.log(growth(empty, withSchedules, SCHEDULES).join('\n'));
  console.log('\n| object | MB | bytes per pending run |\n| --- | ---: | ---: |');
  console.log(growth(withSchedules, withRuns, RUNS).join('\n'));
  await t.close();
}

for (const kind of STORES) await measure(kind);
