// Held occurrences (PostgreSQL migration 27), on a schema of the release before: runs written with a text
// occurrence key come out of the migration holding their occurrence by the flag (and those that had released
// it, or never held one, without it), the text column and its constraint are gone, a duplicate of a held
// occurrence is still left out while a released one is materialised again, a rerun of a released occurrence
// is refused while another run holds it and a rerun of a held one keeps it; the step is recorded as a
// contract one. Needs PUNCTUAL_TEST_PG_URL; skipped without it, failed when PUNCTUAL_REQUIRE_SERVICES=1.

import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { MINUTE, runInsert, T0, TENANT } from '../support/fixtures.js';
import { pgSchemaBefore } from '../support/pg-schema-before.js';
import { withScratchSchema } from '../support/pg-scratch-schema.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';

/** A schedule row as the release before wrote it ($1 tenant, $2 instant). */
const OLD_SCHEDULE = `INSERT INTO %s.schedules (tenant_id, key, spec, spec_kind, target_kind, target, state,
    version, next_fire_at, fired_count, created_at)
  VALUES ($1, 'report', '*/5 * * * *', 'cron', 'handler', '{"handler":"job"}', 'active', 1, $2, 0, $2)
  RETURNING id::text AS id`;

/** A run row as the release before wrote it ($1 tenant, $2 schedule id, then key, kind, state, instant, final). */
const OLD_RUN = `INSERT INTO %s.runs (tenant_id, schedule_id, schedule_key, schedule_version, occurrence_key,
    kind, state, scheduled_for, due_at, max_attempts, overlap, created_at, finished_at)
  VALUES ($1, $2, 'report', 1, $3, $4, $5, $6, $6, 3, 'allow', $6, $7)
  RETURNING id::text AS id`;

describe.runIf(PG_URL !== '' || REQUIRED)('held occurrences migration: postgres', () => {
  it('turns occurrence keys into held flags, keeps exactly once, and is a contract step', async () => {
    if (PG_URL === '') throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    await withScratchSchema(PG_URL, async ({ db, s, store }) => {
      await pgSchemaBefore(db, s, 27);
      const { rows: made } = await db.query<{ id: string }>(OLD_SCHEDULE.replace('%s', s), [TENANT, T0]);
      const sid = made[0]!.id;
      const run = async (at: number, kind: string, state: string, held: boolean): Promise<string> => {
        const { rows } = await db.query<{ id: string }>(OLD_RUN.replace('%s', s), [
          TENANT,
          sid,
          held ? `${sid}:${at}` : null,
          kind,
          state,
          at,
          state === 'scheduled' ? null : at + 1,
        ]);
        return rows[0]!.id;
      };
      const pending = await run(T0 + MINUTE, 'scheduled', 'scheduled', true);
      const done = await run(T0 + 2 * MINUTE, 'scheduled', 'succeeded', true);
      const released = await run(T0 + 3 * MINUTE, 'scheduled', 'cancelled', false);
      const manual = await run(T0 + 4 * MINUTE, 'manual', 'succeeded', false);
      await store.migrate();

      const { rows: marks } = await db.query(
        `SELECT compatible_from FROM ${s}.punctual_migrations WHERE version = 27`,
      );
      expect(marks).toEqual([{ compatible_from: 27 }]);
      expect(MIGRATIONS.find((m) => m.version === 27)!.compatibleFrom).toBe(27);
      const { rows: columns } = await db.query(
        `SELECT column_name FROM information_schema.columns
          WHERE table_schema = $1 AND table_name = 'runs' AND column_name = 'occurrence_key'`,
        [s.replace(/"/g, '')],
      );
      expect(columns).toEqual([]);
      const { rows: flags } = await db.query(
        `SELECT id::text AS id, holds_occurrence FROM ${s}.runs ORDER BY id`,
      );
      expect(flags).toEqual([
        { id: pending, holds_occurrence: true },
        { id: done, holds_occurrence: true },
        { id: released, holds_occurrence: null },
        { id: manual, holds_occurrence: null },
      ]);
      expect((await store.getRun(TENANT, pending))!.run.occurrenceId).toBe(`${sid}:${T0 + MINUTE}`);

      // The held occurrences (pending and finished) are not materialised twice; the released one is, once.
      const schedule = { scheduleId: sid, tenantId: TENANT, scheduleKey: 'report' };
      const again = [1, 2, 3].map((m) => runInsert({ ...schedule, scheduledFor: T0 + m * MINUTE }));
      const inserted = await store.insertRuns(again, T0 + 5 * MINUTE);
      expect(inserted.map((t) => t.run.scheduledFor)).toEqual([T0 + 3 * MINUTE]);
      expect(await store.insertRuns(again, T0 + 5 * MINUTE)).toEqual([]);
      const holder = inserted[0]!.run.id;

      // A rerun of the released occurrence is refused while the new run holds it; a held one reruns.
      const res = await store.rerunRuns({
        tenantId: TENANT,
        scheduleId: sid,
        scheduleVersion: 1,
        runIds: [released, done, manual],
        attempts: 1,
        now: T0 + 6 * MINUTE,
      });
      expect(res.refused).toEqual([
        { runId: released, why: 'occurrenceTaken', state: 'cancelled', heldBy: holder },
      ]);
      expect(res.transitions.map((t) => [t.run.id, t.to])).toEqual([
        [done, 'scheduled'],
        [manual, 'scheduled'],
      ]);
      const { rows: after } = await db.query(
        `SELECT id::text AS id, holds_occurrence FROM ${s}.runs WHERE id = ANY($1::bigint[]) ORDER BY id`,
        [[done, manual]],
      );
      expect(after).toEqual([
        { id: done, holds_occurrence: true },
        { id: manual, holds_occurrence: null },
      ]);
    });
  });
});
