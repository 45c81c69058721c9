// Schedule counts and history pruning at scale, on SQLite and PostgreSQL, before and after the counters and
// the keep-per-schedule scan: loads N schedules and H final runs with bulk statements (no client round trip
// per row), then prints the plan and the time of each statement, the old text beside the store's own
// (imported), and times whole pruneHistory calls through the store. It only measures.
//
//   npx tsx bench/stats-prune-explain.ts [--store sqlite|postgres|both] [--schedules 100000] [--history 500000]
//   PUNCTUAL_BENCH_PG_URL names the PostgreSQL database (default postgres://postgres@127.0.0.1:5432/test);
//   the schema bench_stats_prune is dropped and made again.

import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DEFAULT_POLICIES } from '../packages/punctual/src/domain/policies.js';
import {
  beyondKeepSql,
  finishedSinceSql,
  oldFinalSql,
  statsSql,
} from '../packages/punctual/src/store/postgres/postgres-queries.js';
import { postgresStore } from '../packages/punctual/src/store/postgres/postgres-store.js';
import {
  BEYOND_KEEP,
  FINISHED_SINCE,
  KEPT_LONG,
  OLD_FINAL,
  STATS_SCHEDULES,
} from '../packages/punctual/src/store/sqlite/sqlite-queries.js';
import { sqliteStore } from '../packages/punctual/src/store/sqlite/sqlite-store.js';
import { COUNT_SCHEDULES } from '../packages/punctual/src/store/sqlite/sqlite-tenants.js';
import type { PruneRequest, Store } from '../packages/punctual/src/store/store.js';

const PG_URL = process.env.PUNCTUAL_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench_stats_prune';
const S = `"${SCHEMA}"`;
function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}
const SCHEDULES = Number(arg('schedules', '100000'));
const HISTORY = Number(arg('history', '500000'));
const STORES = arg('store', 'both') === 'both' ? ['sqlite', 'postgres'] : [arg('store', 'both')];
const NOW = Date.UTC(2026, 0, 5, 12);
const HOUR = 3_600_000;
const TENANTS = 10;
/** History: the first 5,000 schedules, one final run an hour backwards (H / 5,000 each). */
const WITH_HISTORY = 5_000;
const KEEP = 1000;

// The statements as they were before (copied: the store no longer has them).
const BEFORE = {
  stats: 'SELECT state, count(*) AS n FROM schedules GROUP BY state',
  count: 'SELECT count(*) FROM schedules WHERE tenant_id = ?',
  keep: `SELECT id FROM (
    SELECT id, row_number() OVER (PARTITION BY schedule_id ORDER BY finished_at DESC, id DESC) AS n
    FROM runs WHERE finished_at IS NOT NULL)
  WHERE n > ? LIMIT ?`,
};

/** The steady-state prune: nothing past retention, the mark a minute behind now. */
const PRUNE: PruneRequest = {
  now: NOW,
  retentionMs: 365 * 24 * HOUR,
  failedRetentionMs: 365 * 24 * HOUR,
  keepPerSchedule: KEEP,
  limit: 5000,
};

function median(fn: () => void, n = 15): number {
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    t.push(performance.now() - t0);
  }
  return t.sort((a, b) => a - b)[n >> 1]!;
}

async function medianAsync(fn: () => Promise<unknown>, n = 15): Promise<number> {
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    t.push(performance.now() - t0);
  }
  return t.sort((a, b) => a - b)[n >> 1]!;
}

/** Two whole pruneHistory calls: the first from a fresh mark, then one caught up (a steady state). */
async function pruneCalls(store: Store): Promise<void> {
  const first = performance.now();
  await store.pruneHistory(PRUNE);
  console.log(
    `pruneHistory, fresh mark (reads at most one budget of history): ${(performance.now() - first).toFixed(1)} ms`,
  );
  for (let i = 0; i < 20; i++) await store.pruneHistory(PRUNE); // catch the mark up
  const ms = await medianAsync(() => store.pruneHistory(PRUNE));
  console.log(`pruneHistory, caught up (median of 15): ${ms.toFixed(2)} ms`);
}

async function sqlite(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'punctual-stats-'));
  const path = join(dir, 'bench.db');
  const store = sqliteStore({ path });
  await store.migrate();
  await store.close();
  const db = new Database(path);
  const t0 = performance.now();
  db.prepare(
    `WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < @n)
     INSERT INTO schedules (tenant_id, key, spec, spec_kind, tz, target_kind, target, policies, overlap, jitter_ms,
       description, state, version, next_fire_at, fired_count, created_at, updated_at)
     SELECT 't' || (n % ${TENANTS}), 's' || n, '0 * * * *', 'cron', 'UTC', 'handler', '{"handler":"job"}', '{}',
       'allow', 0, 'Every hour', CASE WHEN n % 20 = 0 THEN 'paused' ELSE 'active' END, 1, @now + n, 0, @now, @now
     FROM g`,
  ).run({ n: SCHEDULES, now: NOW });
  db.prepare(
    `WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < @n)
     INSERT INTO runs (tenant_id, schedule_id, schedule_key, schedule_version, kind, state, scheduled_for,
       due_at, priority, attempt, max_attempts, checks, overlap, not_fired_reported, created_at, started_at,
       finished_at)
     SELECT 't' || (sid % ${TENANTS}), sid, 's' || sid, 1, 'scheduled', 'succeeded', sf, sf, 0, 1, 3, 0, 'allow',
       0, sf, sf, sf + 200
     FROM (SELECT 1 + (n % ${WITH_HISTORY}) AS sid, @now - ${HOUR} * (1 + n / ${WITH_HISTORY}) AS sf FROM g)`,
  ).run({ n: HISTORY, now: NOW });
  db.exec('ANALYZE');
  console.log(
    `\n## sqlite: ${SCHEDULES} schedules, ${HISTORY} final runs (load ${((performance.now() - t0) / 1000).toFixed(1)} s)\n`,
  );
  const show = (name: string, text: string, params: unknown[]) => {
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[])
      .map((r) => r.detail)
      .join('; ');
    const ms = median(() => db.prepare(text).all(...params));
    console.log(`| ${name} | ${ms.toFixed(2)} | ${plan} |`);
  };
  console.log('| statement | ms (median of 15) | plan |\n| --- | ---: | --- |');
  show('stats by state, before', BEFORE.stats, []);
  show('stats by state, after', STATS_SCHEDULES, []);
  show('tenant count, before', BEFORE.count, ['t1']);
  show('tenant count, after', COUNT_SCHEDULES, ['t1']);
  show('keep per schedule, before (whole history)', BEFORE.keep, [KEEP, 5000]);
  show('keep per schedule, after: runs finished since the mark', FINISHED_SINCE, [NOW - 60_000, 5000]);
  show('keep per schedule, after: one schedule beyond keep', BEYOND_KEEP, [1, 5000, KEEP]);
  show('age prune (unchanged; 5,000 past a day)', OLD_FINAL, [NOW - 24 * HOUR, KEPT_LONG, 5000]);
  db.close();
  const s = sqliteStore({ path });
  await pruneCalls(s);
  await s.close();
  rmSync(dir, { recursive: true, force: true });
}

async function postgres(): Promise<void> {
  const db = new pg.Client({ connectionString: PG_URL });
  await db.connect();
  await db.query(`DROP SCHEMA IF EXISTS ${S} CASCADE`);
  const store = postgresStore({ connectionString: PG_URL, schema: SCHEMA });
  await store.migrate();
  const t0 = performance.now();
  await db.query(
    `INSERT INTO ${S}.schedules (tenant_id, key, spec, spec_kind, tz, target, target_kind, policies, overlap,
       jitter_ms, description, state, version, next_fire_at, fired_count, created_at, updated_at)
     SELECT 't' || (g % ${TENANTS}), 's' || g, '0 * * * *', 'cron', 'UTC', '{"handler":"job"}', 'handler', $3::jsonb,
       'allow', 0, 'Every hour', CASE WHEN g % 20 = 0 THEN 'paused' ELSE 'active' END, 1, $1::bigint + g, 0,
       $1::bigint, $1::bigint
     FROM generate_series(1, $2::bigint) AS g`,
    [NOW, SCHEDULES, JSON.stringify(DEFAULT_POLICIES)],
  );
  await db.query(
    `INSERT INTO ${S}.runs (tenant_id, schedule_id, schedule_key, schedule_version, kind, state, scheduled_for,
       due_at, priority, attempt, max_attempts, checks, overlap, created_at, started_at, finished_at)
     SELECT 't' || (sid % ${TENANTS}), sid, 's' || sid, 1, 'scheduled', 'succeeded', sf, sf, 0, 1, 3, 0, 'allow',
       sf, sf, sf + 200
     FROM (SELECT 1 + (g % ${WITH_HISTORY}) AS sid, $1::bigint - ${HOUR} * (1 + g / ${WITH_HISTORY}) AS sf
             FROM generate_series(1, $2::bigint) AS g) AS x`,
    [NOW, HISTORY],
  );
  await db.query(`VACUUM ANALYZE ${S}.schedules`);
  await db.query(`VACUUM ANALYZE ${S}.runs`);
  await db.query(`VACUUM ANALYZE ${S}.schedule_counts`);
  console.log(
    `\n## postgres: ${SCHEDULES} schedules, ${HISTORY} final runs (load ${((performance.now() - t0) / 1000).toFixed(1)} s)\n`,
  );
  const show = async (name: string, text: string, params: unknown[]) => {
    await db.query(`EXPLAIN (ANALYZE) ${text}`, params); // warm
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
    console.log(`\n### ${name}\n\n\`\`\`\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n\`\`\``);
  };
  await show(
    'stats, before',
    `SELECT (SELECT coalesce(jsonb_object_agg(state, n), '{}'::jsonb)
      FROM (SELECT state, count(*) AS n FROM ${S}.schedules GROUP BY state) AS c) AS by_state`,
    [],
  );
  await show('stats, after (the whole statement)', statsSql(S), [NOW]);
  await show('tenant count, before', `SELECT count(*) AS n FROM ${S}.schedules WHERE tenant_id = $1`, ['t1']);
  await show(
    'tenant count, after',
    `SELECT coalesce(sum(n), 0)::int AS n FROM ${S}.schedule_counts WHERE tenant_id = $1`,
    ['t1'],
  );
  await show(
    'keep per schedule, before (whole history)',
    `SELECT id FROM (
      SELECT id, row_number() OVER (PARTITION BY schedule_id ORDER BY finished_at DESC, id DESC) AS n
        FROM ${S}.runs WHERE finished_at IS NOT NULL) AS ranked
      WHERE n > $1 LIMIT $2`,
    [KEEP, 5000],
  );
  await show('keep per schedule, after: runs finished since the mark', finishedSinceSql(S), [
    NOW - 60_000,
    5000,
  ]);
  await show('keep per schedule, after: 100 schedules beyond keep', beyondKeepSql(S), [
    Array.from({ length: 100 }, (_, i) => i + 1),
    KEEP,
    5000,
  ]);
  await show('age prune (unchanged; 5,000 past a day)', oldFinalSql(S), [
    NOW - 24 * HOUR,
    ['succeeded', 'skipped', 'cancelled'],
    5000,
  ]);
  await pruneCalls(store);
  await store.close();
  await db.query(`DROP SCHEMA IF EXISTS ${S} CASCADE`);
  await db.end();
}

for (const kind of STORES) await (kind === 'sqlite' ? sqlite() : postgres());
