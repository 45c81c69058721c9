// Times PostgreSQL migration 26 (the materializer's queue, schedule_due) on a schema of the release before
// holding N active schedules, the way an upgrade runs it: the store's own migrate(). Writes nothing outside
// its scratch schema, which it drops at the end.
// Usage: PUNCTUAL_BENCH_PG_URL=postgres://... npx tsx bench/migration-26.ts [--schedules 1000000]

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { MIGRATIONS } from '../packages/punctual/src/store/postgres/migrations.js';
import { postgresStore } from '../packages/punctual/src/store/postgres/postgres-store.js';

const url = process.env.PUNCTUAL_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const at = process.argv.indexOf('--schedules');
const n = at > 0 ? Number(process.argv[at + 1]) : 1_000_000;
const schema = `mig26_${randomBytes(4).toString('hex')}`;
const s = `"${schema}"`;
const db = new pg.Client({ connectionString: url });
await db.connect();
try {
  await db.query(`CREATE SCHEMA ${s}`);
  await db.query(
    `CREATE TABLE ${s}.punctual_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, compatible_from INTEGER)`,
  );
  for (const m of MIGRATIONS.filter((x) => x.version < 26)) {
    await db.query(m.sql(s));
    await db.query(`INSERT INTO ${s}.punctual_migrations VALUES ($1, $2, $3)`, [
      m.version,
      m.name,
      m.compatibleFrom,
    ]);
  }
  // N hourly schedules spread over the hour, as the release before wrote them.
  await db.query(
    `INSERT INTO ${s}.schedules (tenant_id, key, spec, spec_kind, tz, target_kind, target, policies, overlap,
       jitter_ms, description, state, version, next_fire_at, fired_count, created_at, updated_at)
     SELECT 'default', 'k' || i, '@hourly', 'cron', 'UTC', 'handler', '{"handler":"job"}', '{}', 'skip', 0, '',
            'active', 1, 1700000000000 + (i % 3600) * 1000, 0, 0, 0
       FROM generate_series(1, $1) AS i`,
    [n],
  );
  await db.query(`VACUUM ANALYZE ${s}.schedules`);
  const store = postgresStore({ connectionString: url, schema });
  const t0 = performance.now();
  await store.migrate();
  const ms = performance.now() - t0;
  await store.close();
  const { rows } = await db.query<{ queued: string }>(`SELECT count(*) AS queued FROM ${s}.schedule_due`);
  console.log(
    `| ${n.toLocaleString('en')} | ${(ms / 1000).toFixed(1)} | ${Number(rows[0]!.queued).toLocaleString('en')} |`,
  );
} finally {
  await db.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
  await db.end();
}
