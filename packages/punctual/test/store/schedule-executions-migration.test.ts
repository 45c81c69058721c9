// A PostgreSQL schema made by the release before migration 22 (the execution counts in the schedule row)
// migrates forward: every schedule reads the same firedCount, lastFiredAt and lastSucceededAt, nothing is
// copied (schedule_executions starts empty), a settlement then counts in schedule_executions on top of what
// the row holds, and what an older instance still adds in the row during a rolling deploy is read too. Needs
// PUNCTUAL_TEST_PG_URL; without it the suite is skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import { describe, expect, it } from 'vitest';
import { resolvePolicies } from '../../src/domain/policies.js';
import type { Schedule } from '../../src/domain/schedule.js';
import { MINUTE, T0, TENANT } from '../support/fixtures.js';
import { pgSchemaBefore } from '../support/pg-schema-before.js';
import { withScratchSchema } from '../support/pg-scratch-schema.js';
import { claimOne, settlement } from './conformance/helpers.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';
const POLICIES = JSON.stringify(resolvePolicies({}));

/** The old release's schedules: [key, executed_count, last_fired_at, last_succeeded_at]. */
const SCHEDULES: [string, number, number | null, number | null][] = [
  ['a-never', 0, null, null],
  ['b-counted', 5, T0 - 10 * MINUTE, T0 - 20 * MINUTE],
  ['c-failing', 3, T0 - 5 * MINUTE, null],
  ['d-counted', 12, T0 - 2 * MINUTE, T0 - 2 * MINUTE],
];

const record = (s: Schedule | undefined) => [s?.key, s?.firedCount, s?.lastFiredAt, s?.lastSucceededAt];

describe.runIf(PG_URL !== '' || REQUIRED)('schedule executions migration: postgres', () => {
  it('migrates a schema of the previous release: every schedule reads the same, and counts go on', async () => {
    if (PG_URL === '') throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    await withScratchSchema(PG_URL, async ({ db, s, store }) => {
      await pgSchemaBefore(db, s, 22);
      const ids = new Map<string, string>();
      for (const [key, count, fired, succeeded] of SCHEDULES) {
        const { rows } = await db.query<{ id: string }>(
          `INSERT INTO ${s}.schedules (tenant_id, key, spec, spec_kind, tz, target, target_kind, policies,
             overlap, jitter_ms, description, state, version, next_fire_at, fired_count, executed_count,
             last_fired_at, last_succeeded_at, created_at, updated_at)
           VALUES ($1, $2, '@hourly', 'cron', 'UTC', '{"handler":"job"}', 'handler', $3, 'allow', 0, '',
             'active', 1, $4, $5, $5, $6, $7, $8, $8) RETURNING id`,
          [TENANT, key, POLICIES, T0 + 60 * MINUTE, count, fired, succeeded, T0 - 60 * MINUTE],
        );
        ids.set(key, rows[0]!.id);
      }
      // A run of b-counted, due: settled after the migration.
      await db.query(
        `INSERT INTO ${s}.runs (tenant_id, schedule_id, schedule_key, schedule_version, kind, state,
           scheduled_for, due_at, priority, max_attempts, overlap, created_at)
         VALUES ($1, $2, 'b-counted', 1, 'scheduled', 'scheduled', $3, $3, 0, 3, 'allow', $3)`,
        [TENANT, ids.get('b-counted'), T0],
      );

      await store.migrate();
      const expected = SCHEDULES.map(([key, count, fired, succeeded]) => [key, count, fired, succeeded]);
      expect((await store.listSchedules({ tenantId: TENANT, limit: 10 })).items.map(record)).toEqual(
        expected,
      );
      for (const row of expected)
        expect(record(await store.getSchedule(TENANT, row[0] as string))).toEqual(row);
      const table = async () =>
        (
          await db.query<{ id: string; n: string }>(
            `SELECT schedule_id::text AS id, executed_count::text AS n FROM ${s}.schedule_executions ORDER BY 1`,
          )
        ).rows;
      expect(await table()).toEqual([]); // nothing copied: the row still holds what it counted
      const { rows: marks } = await db.query<{ c: number }>(
        `SELECT compatible_from AS c FROM ${s}.punctual_migrations WHERE version = 22`,
      );
      expect(marks).toEqual([{ c: 5 }]); // an expand step: the previous release still runs beside it

      // This release counts in schedule_executions; reads add the row's count.
      const run = await claimOne(store, T0 + 1000);
      await store.settleRuns([settlement(run, { state: 'succeeded', result: null }, T0 + 2000)], T0 + 2000);
      expect(record(await store.getSchedule(TENANT, 'b-counted'))).toEqual([
        'b-counted',
        6,
        run.run.startedAt,
        T0 + 2000,
      ]);
      expect(await table()).toEqual([{ id: ids.get('b-counted'), n: '1' }]);
      const before = await db.query<{ v: string }>(
        `SELECT executed_count::text AS v FROM ${s}.schedules WHERE key = 'b-counted'`,
      );
      expect(before.rows).toEqual([{ v: '5' }]); // the settlement left the schedule row alone

      // An instance of the previous release, during a roll, still counts in the row: both are read.
      await db.query(
        `UPDATE ${s}.schedules SET executed_count = executed_count + 1,
           last_fired_at = greatest(last_fired_at, $1), last_succeeded_at = greatest(last_succeeded_at, $1)
         WHERE key IN ('b-counted', 'c-failing')`,
        [T0 + 1500],
      );
      expect(record(await store.getSchedule(TENANT, 'b-counted'))).toEqual([
        'b-counted',
        7,
        Math.max(run.run.startedAt!, T0 + 1500),
        T0 + 2000,
      ]);
      expect(record(await store.getSchedule(TENANT, 'c-failing'))).toEqual([
        'c-failing',
        4,
        T0 + 1500,
        T0 + 1500,
      ]);

      // A delete takes the counts row with it.
      expect((await store.deleteSchedule(TENANT, 'b-counted', T0 + 3000)).deleted).toBe(true);
      expect(await table()).toEqual([]);
    });
  });
});
