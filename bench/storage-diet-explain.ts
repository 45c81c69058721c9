// The statements that read the indexes PostgreSQL migration 21 drops (runs_due, schedules_state), before and
// after, on a schema loaded by bench/pg-explain.ts (--keep). "Before" runs the old statement texts with the
// old indexes built again inside a transaction that is rolled back; "after" runs the store's statements as
// they are now, on the schema as migrated. EXPLAIN (ANALYZE, BUFFERS) of each, and the median of 15
// executions. It changes nothing that stays: every write is rolled back.
//
//   PUNCTUAL_BENCH_SCHEMA=diet_explain npx tsx bench/pg-explain.ts --schedules 200000 --runs 200000 \
//     --history 200000 --keep
//   PUNCTUAL_BENCH_SCHEMA=diet_explain npx tsx bench/storage-diet-explain.ts
//   PUNCTUAL_BENCH_PG_URL (or PUNCTUAL_TEST_PG_URL) names the database; default postgres://postgres@127.0.0.1:5432/test

import pg from 'pg';
import {
  nextRunDueAtSql,
  statsSql,
  takeNotFiredSql,
} from '../packages/punctual/src/store/postgres/postgres-queries.js';

const URL =
  process.env.PUNCTUAL_BENCH_PG_URL ??
  process.env.PUNCTUAL_TEST_PG_URL ??
  'postgres://postgres@127.0.0.1:5432/test';
const S = `"${process.env.PUNCTUAL_BENCH_SCHEMA ?? 'punctual_bench'}"`;
/** pg-explain.ts's "now". */
const NOW = Date.UTC(2026, 0, 5, 12);
/** No grace: the backlog minute's runs (about 140 at 200,000) are all overdue. */
const GRACE = 0;

/** The statements as they were before migration 21. */
const BEFORE = {
  nextRunDueAt: `SELECT min(due_at) AS at FROM ${S}.runs WHERE state = 'scheduled'`,
  takeNotFired: `UPDATE ${S}.runs SET not_fired_reported = true
      WHERE id IN (SELECT id FROM ${S}.runs
                    WHERE state = 'scheduled' AND due_at < $1::bigint - $2::bigint AND NOT not_fired_reported
                    ORDER BY due_at, id
                    LIMIT $3
                    FOR UPDATE SKIP LOCKED)
      RETURNING *`,
  stats: `
    SELECT (SELECT count(*) FROM ${S}.runs WHERE state = 'scheduled' AND due_at <= $1) AS due,
           (SELECT min(due_at) FROM ${S}.runs WHERE state = 'scheduled' AND due_at <= $1) AS oldest,
           (SELECT count(*) FROM ${S}.runs WHERE state = 'running') AS running,
           (SELECT coalesce(jsonb_object_agg(state, n), '{}'::jsonb)
              FROM (SELECT state, sum(n)::int AS n FROM ${S}.schedule_counts GROUP BY state) AS c) AS by_state`,
  listPaused: `SELECT * FROM ${S}.schedules WHERE tenant_id = $1 AND state = $2 ORDER BY key LIMIT $3`,
};

const AFTER = {
  nextRunDueAt: nextRunDueAtSql(S),
  takeNotFired: takeNotFiredSql(S),
  stats: statsSql(S),
  // listSchedules' text for a state other than active (postgres-schedules.ts).
  listPaused: `SELECT * FROM ${S}.schedules WHERE tenant_id = $1 AND state = $2 AND state <> 'active'
                ORDER BY key LIMIT $3`,
};

const CASES: [keyof typeof BEFORE, string, unknown[]][] = [
  ['nextRunDueAt', 'nextRunDueAt', []],
  ['takeNotFired', 'takeNotFired (limit 100)', [NOW, GRACE, 100]],
  ['stats', 'stats', [NOW]],
  ['listPaused', 'listSchedules paused, a tenant with none (limit 51)', ['t7', 'paused', 51]],
  ['listPaused', 'listSchedules paused, a tenant all paused (limit 51)', ['t20', 'paused', 51]],
  ['listPaused', 'listSchedules completed, a tenant with none (limit 51)', ['t20', 'completed', 51]],
];

async function run(c: pg.PoolClient, text: string, values: unknown[]): Promise<{ plan: string; ms: number }> {
  await c.query('SAVEPOINT m');
  const { rows } = await c.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
  await c.query('ROLLBACK TO SAVEPOINT m');
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    await c.query('SAVEPOINT m');
    const t0 = performance.now();
    await c.query(text, values);
    times.push(performance.now() - t0);
    await c.query('ROLLBACK TO SAVEPOINT m');
  }
  times.sort((a, b) => a - b);
  return { plan: rows.map((r) => r['QUERY PLAN']).join('\n'), ms: times[7]! };
}

async function side(
  db: pg.Pool,
  label: 'before' | 'after',
  texts: Record<keyof typeof BEFORE, string>,
): Promise<string[]> {
  const c = await db.connect();
  const lines: string[] = [];
  try {
    await c.query('SET jit = off'); // as the store's pooled sessions
    await c.query('BEGIN');
    if (label === 'before') {
      await c.query(`CREATE INDEX runs_due ON ${S}.runs (due_at) WHERE state = 'scheduled'`);
      await c.query(`CREATE INDEX schedules_state ON ${S}.schedules (state)`);
      await c.query(`DROP INDEX ${S}.schedules_not_active`);
      await c.query(`ANALYZE ${S}.runs`);
      await c.query(`ANALYZE ${S}.schedules`);
    }
    for (const [key, name, values] of CASES) {
      const { plan, ms } = await run(c, texts[key], values);
      console.log(`\n### ${name}, ${label}\n\n\`\`\`\n${plan}\n\`\`\``);
      lines.push(`| ${name} | ${label} | ${ms.toFixed(2)} |`);
    }
  } finally {
    await c.query('ROLLBACK');
    c.release();
  }
  return lines;
}

async function main(): Promise<void> {
  const db = new pg.Pool({ connectionString: URL, max: 1 });
  try {
    const before = await side(db, 'before', BEFORE);
    const after = await side(db, 'after', AFTER);
    console.log('\n| statement | | ms (median of 15, in a transaction) |\n| --- | --- | ---: |');
    for (let i = 0; i < before.length; i++) console.log(`${before[i]}\n${after[i]}`);
  } finally {
    await db.end();
  }
}

await main();
