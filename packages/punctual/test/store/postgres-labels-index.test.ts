// PostgreSQL migration 20: schedules_labels holds only schedules that have labels. A schema of the previous
// release (labelled and unlabelled schedules) migrates forward with its schedules intact, the index is partial,
// the list's label filter finds the same schedules, and the planner can answer that filter from the index
// (the store's filter text repeats the index's predicate). Needs PUNCTUAL_TEST_PG_URL; without it the file is
// skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { LABELS_FILTER } from '../../src/store/postgres/postgres-schedules.js';
import { T0, TENANT } from '../support/fixtures.js';
import { withScratchSchema } from '../support/pg-scratch-schema.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';

describe.runIf(PG_URL !== '' || REQUIRED)('postgres migration 20: labelled schedules index', () => {
  it('migrates a schema of the previous release and serves the label filter from the partial index', async () => {
    if (PG_URL === '') throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    await withScratchSchema(
      PG_URL,
      async ({ db, schema, s, store }) => {
        await db.query(`CREATE SCHEMA ${s}`);
        await db.query(
          `CREATE TABLE ${s}.punctual_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
        );
        for (const m of MIGRATIONS.filter((x) => x.version < 20)) {
          await db.query(m.sql(s));
          await db.query(`INSERT INTO ${s}.punctual_migrations (version, name) VALUES ($1, $2)`, [
            m.version,
            m.name,
          ]);
        }
        const labels: [string, object][] = [
          ['a', { team: 'billing', kind: 'email' }],
          ['b', { team: 'billing' }],
          ['c', {}],
          ['d', { team: 'ops' }],
        ];
        for (const [key, l] of labels)
          await db.query(
            `INSERT INTO ${s}.schedules (tenant_id, key, spec, spec_kind, tz, target, target_kind, policies,
             overlap, jitter_ms, description, state, version, next_fire_at, fired_count, created_at, updated_at,
             labels)
           VALUES ($1, $2, '@hourly', 'cron', 'UTC', '{"handler":"job"}', 'handler', '{}', 'allow', 0,
             'Every hour', 'active', 1, $3, 0, $3, $3, $4)`,
            [TENANT, key, T0, JSON.stringify(l)],
          );

        await store.migrate();
        const { rows: def } = await db.query<{ d: string }>(
          `SELECT indexdef AS d FROM pg_indexes WHERE schemaname = $1 AND indexname = 'schedules_labels'`,
          [schema],
        );
        expect(def[0]?.d).toContain(`WHERE (labels <> '{}'::jsonb)`);
        const keys = async (l: [string, string][]) =>
          (await store.listSchedules({ tenantId: TENANT, labels: l, limit: 10 })).items.map((x) => x.key);
        expect(await keys([['team', 'billing']])).toEqual(['a', 'b']);
        expect(await keys([['team', 'ops']])).toEqual(['d']);
        expect(await keys([])).toEqual(['a', 'b', 'c', 'd']);
        expect((await store.getSchedule(TENANT, 'c'))?.labels).toEqual({});

        // The store's filter, as a generic plan with every other path off: the partial index answers it.
        await db.query('BEGIN');
        await db.query('SET LOCAL enable_seqscan = off');
        await db.query('SET LOCAL enable_indexscan = off');
        await db.query('SET LOCAL plan_cache_mode = force_generic_plan');
        const { rows: plan } = await db.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT id FROM ${s}.schedules WHERE ${LABELS_FILTER.replace('?', '$1')}`,
          ['{"team":"ops"}'],
        );
        await db.query('ROLLBACK');
        expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toContain(
          'Bitmap Index Scan on schedules_labels',
        );
      },
      { listen: false },
    );
  });
});
