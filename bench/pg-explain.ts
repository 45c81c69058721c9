// Loads a PostgreSQL schema with many schedules and runs (generate_series INSERTs, no client round trips
// per row) and prints EXPLAIN (ANALYZE, BUFFERS) for the store's hot statements: the run claim (its page
// statement, and the per-level search it is built from), the materializer's claim, nextRunDueAt, the lease
// reclaim and listRuns. The statements are the store's own
// (imported), so the plans shown are the plans the store gets. Writes in a transaction that is rolled back.
// The hot pool's statements (the materializer's claim, the settlement) are also explained as the hot pool
// runs them: prepared, with its session (generic plan, no sequential scan, no sort), so a plan that only
// shows there (a walk of a whole index) is seen before it reaches a benchmark.
//
//   npx tsx bench/pg-explain.ts [--schedules 1000000] [--runs 1000000] [--history 1000000] [--keep]
//   PUNCTUAL_BENCH_PG_URL (or PUNCTUAL_TEST_PG_URL) names the database; default postgres://postgres@127.0.0.1:5432/test
//   PUNCTUAL_BENCH_SCHEMA names the schema (default punctual_bench), dropped and made again.

import pg from 'pg';
import { WAITING_OVERLAPS } from '../packages/punctual/src/domain/claim-decision.js';
import { ROLL_BACK_LEAD_MS } from '../packages/punctual/src/domain/calendar/calendar-rules.js';
import { DEFAULT_POLICIES } from '../packages/punctual/src/domain/policies.js';
import {
  claimCandidatesSql,
  priorityLevelsSql,
} from '../packages/punctual/src/store/postgres/postgres-claim.js';
import {
  claimPageSql,
  schedulesByIdSql,
} from '../packages/punctual/src/store/postgres/postgres-claim-sql.js';
import {
  LEASE_EXPIRED_ERROR,
  reclaimSql,
  settleParams,
  settleSql,
} from '../packages/punctual/src/store/postgres/postgres-leases.js';
import { HOT_SESSION } from '../packages/punctual/src/store/postgres/postgres-database.js';
import type { Settlement } from '../packages/punctual/src/store/store.js';
import {
  listRunsQuery,
  nextRunDueAtSql,
  statsSql,
} from '../packages/punctual/src/store/postgres/postgres-queries.js';
import { claimDueSchedulesSql } from '../packages/punctual/src/store/postgres/postgres-schedules.js';
import { postgresStore } from '../packages/punctual/src/store/postgres/postgres-store.js';

const URL =
  process.env.PUNCTUAL_BENCH_PG_URL ??
  process.env.PUNCTUAL_TEST_PG_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = process.env.PUNCTUAL_BENCH_SCHEMA ?? 'punctual_bench';
const S = `"${SCHEMA}"`;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const SCHEDULES = arg('schedules', 1_000_000);
const RUNS = arg('runs', 1_000_000);
const HISTORY = arg('history', 1_000_000);
const KEEP = process.argv.includes('--keep');

/** The reference instant the data is laid around ("now" of every statement). */
const NOW = Date.UTC(2026, 0, 5, 12);
const DAY = 86_400_000;
const TENANTS = 100;
/** Pending runs whose due time has passed: the backlog the claim finds. */
const BACKLOG_MS = 60_000;

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await fn();
  console.log(`${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return out;
}

async function load(db: pg.Pool): Promise<void> {
  await db.query(`DROP SCHEMA IF EXISTS ${S} CASCADE`);
  const store = postgresStore({ connectionString: URL, schema: SCHEMA });
  await store.migrate();
  await store.close();
  const policies = JSON.stringify(DEFAULT_POLICIES);
  const skipPolicies = JSON.stringify({ ...DEFAULT_POLICIES, overlap: 'skip' });
  // Schedules: 100 tenants; next occurrences spread over a day from now; 1 in 20 paused. Their runs below:
  // 1 in 10 with overlap skip, 1 in 10 bufferAll (the claim's "waiting runs" filter has work to do).
  await timed(`schedules (${SCHEDULES})`, () =>
    db.query(
      `INSERT INTO ${S}.schedules (tenant_id, key, spec, spec_kind, tz, target, target_kind, payload, policies,
         overlap, jitter_ms, description, state, version, next_fire_at, fired_count, created_at, updated_at)
       SELECT 't' || (g % ${TENANTS}), 's' || g, '*/5 * * * *', 'cron', 'UTC', '{"handler":"job"}', 'handler',
              NULL, CASE WHEN g % 10 = 0 THEN $2::jsonb ELSE $1::jsonb END,
              CASE WHEN g % 10 = 0 THEN 'skip' ELSE 'allow' END, 0, 'Every 5 minutes',
              CASE WHEN g % 20 = 0 THEN 'paused' ELSE 'active' END, 1,
              $3::bigint + (g::bigint * ${DAY} / $4::bigint), 0, $3::bigint - ${DAY}, $3::bigint - ${DAY}
         FROM generate_series(1, $4::bigint) AS g`,
      [policies, skipPolicies, NOW, SCHEDULES],
    ),
  );
  // Pending runs: one per schedule in turn, due over the next day, the first minute's worth already due.
  // Priorities: 2% at 5, 2% at -1, the rest 0.
  await timed(`pending runs (${RUNS})`, () =>
    db.query(
      `INSERT INTO ${S}.runs (tenant_id, schedule_id, schedule_key, schedule_version, holds_occurrence,
         kind, state, scheduled_for, due_at, priority, attempt, max_attempts, checks, overlap,
         created_at)
       SELECT 't' || (sid % ${TENANTS}), sid, 's' || sid, 1, true, 'scheduled',
              'scheduled', sf, sf, CASE g % 50 WHEN 0 THEN 5 WHEN 1 THEN -1 ELSE 0 END, 0, 3, 0,
              CASE sid % 10 WHEN 0 THEN 'skip' WHEN 1 THEN 'bufferAll' ELSE 'allow' END, $1::bigint - ${DAY}
         FROM (SELECT g, 1 + (g % $3::bigint) AS sid,
                      $1::bigint - ${BACKLOG_MS} + (g::bigint * ${DAY} / $2::bigint) AS sf
                 FROM generate_series(1, $2::bigint) AS g) AS x`,
      [NOW, RUNS, SCHEDULES],
    ),
  );
  // Running runs: 10,000 leased, 1 in 50 of them lapsed.
  await timed('running runs (10000)', () =>
    db.query(
      `INSERT INTO ${S}.runs (tenant_id, schedule_id, schedule_key, schedule_version, kind, state,
         scheduled_for, due_at, priority, attempt, max_attempts, checks, overlap, created_at, started_at,
         lease_owner, lease_token, lease_expires_at, attempt_started_at)
       SELECT 't' || (sid % ${TENANTS}), sid, 's' || sid, 1, 'manual', 'running', $1::bigint - 5000,
              $1::bigint - 5000, 0, 1, 3, 0, 'allow', $1::bigint - 5000, $1::bigint - 5000, 'worker-' || (g % 8),
              md5(g::text), CASE WHEN g % 50 = 0 THEN $1::bigint - 1000 ELSE $1::bigint + 25000 END,
              $1::bigint - 5000
         FROM (SELECT g, 1 + (g * 7 % $2::bigint) AS sid FROM generate_series(1, 10000) AS g) AS x`,
      [NOW, SCHEDULES],
    ),
  );
  // History: succeeded runs of the busiest 1,000 schedules (about 1,000 each), one per 5 minutes backwards.
  await timed(`history runs (${HISTORY})`, () =>
    db.query(
      `INSERT INTO ${S}.runs (tenant_id, schedule_id, schedule_key, schedule_version, holds_occurrence,
         kind, state, scheduled_for, due_at, priority, attempt, max_attempts, checks, overlap,
         created_at, started_at, finished_at, attempt_started_at)
       SELECT 't' || (sid % ${TENANTS}), sid, 's' || sid, 1, true, 'scheduled',
              'succeeded', sf, sf, 0, 1, 3, 0, 'allow', sf, sf, sf + 200, sf
         FROM (SELECT g, 1 + (g % 1000) AS sid, $1::bigint - 300000 * (1 + g / 1000) AS sf
                 FROM generate_series(1, $2::bigint) AS g) AS x`,
      [NOW, HISTORY],
    ),
  );
  await timed('vacuum analyze', async () => {
    await db.query(`VACUUM ANALYZE ${S}.schedules`);
    await db.query(`VACUUM ANALYZE ${S}.runs`);
  });
}

interface Finding {
  name: string;
  ms: number;
  nodes: string;
}

/** Prints a plan and sums it up: its execution time and the scans it makes, each once. */
function finding(name: string, plan: string[]): Finding {
  console.log(`\n── ${name}\n${plan.join('\n')}`);
  const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan.join('\n'))?.[1] ?? NaN);
  const nodes = plan
    .map((l) => /(Index Only Scan|Index Scan|Bitmap Index Scan|Seq Scan)[^(]*? on (\w+)|using (\w+)/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => m[0].replace(/\s+/g, ' '))
    .filter((v, i, all) => all.indexOf(v) === i)
    .join('; ');
  return { name, ms, nodes };
}

/** EXPLAIN (ANALYZE, BUFFERS) inside a transaction that is rolled back; prints the plan, returns a summary. */
async function explain(db: pg.Pool, name: string, text: string, values: unknown[]): Promise<Finding> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    // Warm run first, so the timing is of a steady state rather than of a cold cache.
    await client.query(`EXPLAIN (ANALYZE) ${text}`, values);
    await client.query('ROLLBACK');
    await client.query('BEGIN');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${text}`,
      values,
    );
    await client.query('ROLLBACK');
    return finding(
      name,
      rows.map((r) => r['QUERY PLAN']),
    );
  } finally {
    client.release();
  }
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of a statement as the hot pool runs it: prepared, executed with the hot session
 * (HOT_SESSION: generic plan, no sequential scan, no sort), in a transaction that is rolled back.
 */
async function explainHot(db: pg.Pool, name: string, text: string, values: unknown[]): Promise<Finding> {
  const client = await db.connect();
  // EXECUTE takes no bound parameters inside EXPLAIN: the values go in as literals of the prepared types.
  const args = values.map((v) => literal(client, v)).join(', ');
  try {
    await client.query(HOT_SESSION);
    await client.query(`PREPARE hot AS ${text}`);
    const run = async (analyze: string): Promise<string[]> => {
      await client.query('BEGIN');
      try {
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN (${analyze}) EXECUTE hot(${args})`,
        );
        return rows.map((r) => r['QUERY PLAN']);
      } finally {
        await client.query('ROLLBACK');
      }
    };
    await run('ANALYZE');
    const plan = await run('ANALYZE, BUFFERS');
    return finding(`${name} (hot)`, plan);
  } finally {
    await client.query('DEALLOCATE ALL').catch(() => {});
    await client.query('RESET ALL').catch(() => {});
    client.release();
  }
}

/** A value as an SQL literal: arrays in PostgreSQL's array syntax, every element quoted. */
function literal(client: pg.PoolClient, v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (Array.isArray(v)) {
    const items = v.map((x) =>
      x === null || x === undefined ? 'NULL' : `"${String(x).replace(/(["\\])/g, '\\$1')}"`,
    );
    return client.escapeLiteral(`{${items.join(',')}}`);
  }
  return client.escapeLiteral(String(v));
}

/** Settlements of `n` running runs as successes (what settleParams needs of each). */
async function successes(db: pg.Pool, n: number): Promise<Settlement[]> {
  const { rows } = await db.query<{ id: string; lease_token: string }>(
    `SELECT id::text, lease_token FROM ${S}.runs WHERE state = 'running' ORDER BY id LIMIT $1`,
    [n],
  );
  return rows.map(
    (r) =>
      ({
        runId: r.id,
        token: r.lease_token,
        outcome: { state: 'succeeded', result: null },
        attempt: { runId: r.id, attempt: 1, workerId: 'explain-worker', startedAt: NOW - 100 },
        run: { startedAt: NOW - 100 },
      }) as unknown as Settlement,
  );
}

/** Whole store calls (every statement and round trip of one transaction), median of 20; these commit. */
async function endToEnd(): Promise<void> {
  const store = postgresStore({ connectionString: URL, schema: SCHEMA, poolSize: 2 });
  const median = async (name: string, fn: (i: number) => Promise<unknown>): Promise<void> => {
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      await fn(i);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`${times[10]!.toFixed(3).padStart(9)} ms  ${name} (median of 20, through the store)`);
  };
  try {
    await median('nextRunDueAt', () => store.nextRunDueAt());
    await median('claimRuns, limit 20', (i) =>
      store.claimRuns({ workerId: `w${i}`, now: NOW, limit: 20, leaseMs: 30_000 }),
    );
    await median('claimDueSchedules, limit 100', () =>
      store.claimDueSchedules({ now: NOW, horizon: NOW + 60_000, limit: 100, leaseMs: 30_000 }),
    );
    await median('listRuns by schedule, limit 50', () =>
      store.listRuns({ tenantId: 't7', scheduleKey: 's7', limit: 50 }),
    );
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const db = new pg.Pool({ connectionString: URL, max: 2 });
  try {
    if (!process.argv.includes('--no-load')) await timed('load total', () => load(db));
    const counts = await db.query(
      `SELECT (SELECT count(*) FROM ${S}.schedules) AS schedules, state, count(*) AS runs
         FROM ${S}.runs GROUP BY state ORDER BY state`,
    );
    console.log(counts.rows);
    const { rows: levels } = await db.query<{ p: number }>(priorityLevelsSql(S));
    const top = levels[0]?.p ?? 0;
    const findings = [
      await explain(db, 'claim: priority levels', priorityLevelsSql(S), []),
      await explain(db, `claim: candidates at priority ${top} (limit 20)`, claimCandidatesSql(S), [
        top,
        NOW,
        Number.MIN_SAFE_INTEGER,
        [],
        WAITING_OVERLAPS,
        20,
      ]),
      await explain(db, 'claim: candidates at priority 0 (limit 20)', claimCandidatesSql(S), [
        0,
        NOW,
        Number.MIN_SAFE_INTEGER,
        [],
        WAITING_OVERLAPS,
        20,
      ]),
      await explain(db, 'claim: a level with nothing due (priority 0, now - 1 day)', claimCandidatesSql(S), [
        0,
        NOW - DAY,
        Number.MIN_SAFE_INTEGER,
        [],
        WAITING_OVERLAPS,
        20,
      ]),
      await explain(
        db,
        'claim page: the first page of claimRuns, limit 20, 100 ms ahead (leases the fast path)',
        claimPageSql(S),
        [NOW, 20, WAITING_OVERLAPS, 'explain-worker', 30_000, [], NOW + 100],
      ),
      await explain(db, "claim: the schedules a claim's cache lacks (20 ids)", schedulesByIdSql(S), [
        Array.from({ length: 20 }, (_, i) => String(i * 7919 + 1)),
      ]),
      await explain(db, 'materializer claim (horizon now + 60 s, limit 100)', claimDueSchedulesSql(S), [
        NOW,
        NOW + 60_000,
        100,
        30_000,
        ROLL_BACK_LEAD_MS,
        NOW - 60_000,
      ]),
      await explain(db, 'nextRunDueAt', nextRunDueAtSql(S), []),
      await explain(db, 'reclaimExpiredLeases (limit 100)', reclaimSql(S), [
        NOW,
        100,
        JSON.stringify(LEASE_EXPIRED_ERROR),
      ]),
    ];
    findings.push(
      await explainHot(db, 'materializer claim (horizon now + 60 s, limit 200)', claimDueSchedulesSql(S), [
        NOW,
        NOW + 60_000,
        200,
        30_000,
        ROLL_BACK_LEAD_MS,
        NOW - 60_000,
      ]),
      await explainHot(
        db,
        'settlement of 200 successes',
        settleSql(S),
        settleParams(NOW, await successes(db, 200)),
      ),
    );
    findings.push(await explain(db, 'stats', statsSql(S), [NOW]));
    const byKey = listRunsQuery(S, { tenantId: 't7', scheduleKey: 's7', limit: 50 });
    findings.push(await explain(db, 'listRuns by schedule (limit 50)', byKey.text, byKey.values));
    const byTenant = listRunsQuery(S, { tenantId: 't7', limit: 50 });
    findings.push(await explain(db, 'listRuns by tenant (limit 50)', byTenant.text, byTenant.values));
    const byState = listRunsQuery(S, { tenantId: 't7', scheduleKey: 's7', state: 'succeeded', limit: 50 });
    findings.push(
      await explain(db, 'listRuns by schedule and state (limit 50)', byState.text, byState.values),
    );
    console.log('\n── summary');
    for (const f of findings) console.log(`${f.ms.toFixed(3).padStart(9)} ms  ${f.name}  [${f.nodes}]`);
    await endToEnd();
  } finally {
    if (!KEEP) await db.query(`DROP SCHEMA IF EXISTS ${S} CASCADE`);
    await db.end();
  }
}

await main();
