// Creations kept in schedule rows (SQLite 21, PostgreSQL 25), on a database of the release before: a schedule
// written by that release keeps its `created` revision row and reads as before, changes without a write-out;
// a schedule created after the migration writes no revision row until it changes, under a number after the
// old ones; PostgreSQL records the step as a contract one (older code refuses the schema). PostgreSQL needs
// PUNCTUAL_TEST_PG_URL; without it that half is skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS as PG_MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { draft, MINUTE, T0, TENANT } from '../support/fixtures.js';
import { sqliteDatabaseBefore } from '../support/sqlite-database-before.js';
import { tempFolders } from '../support/temp-folders.js';
import { pgSchemaBefore } from '../support/pg-schema-before.js';
import { withScratchSchema } from '../support/pg-scratch-schema.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';

/** The old schedule's row as the previous release wrote it ($1 tenant, $2 created_at), with its revision. */
const OLD_ROW = `(tenant_id, key, spec, spec_kind, tz, target_kind, target, policies, overlap, jitter_ms,
  description, state, version, next_fire_at, fired_count, created_at, updated_at)`;

/**
 * Checks a migrated store holding the old schedule `old` (revision seq 7): revision rows counted by `rows`.
 */
async function check(store: Store, rows: () => Promise<number>): Promise<void> {
  const old = await store.listScheduleRevisions({ tenantId: TENANT, key: 'old', limit: 5 });
  expect(old.items.map((r) => [r.seq, r.change, r.actor, r.content.spec])).toEqual([
    [7, 'created', 'key:old', '*/5 * * * *'],
  ]);
  const fresh = await store.putSchedule({
    draft: draft({ key: 'new' }),
    nextFireAt: T0,
    now: T0 + MINUTE,
    revision: { actor: 'key:new' },
  });
  expect(await rows()).toBe(1);
  const created = (await store.listScheduleRevisions({ tenantId: TENANT, key: 'new', limit: 5 })).items;
  expect(created).toMatchObject([{ change: 'created', actor: 'key:new', scheduleId: fresh.schedule.id }]);
  expect(created[0]!.seq).toBeGreaterThan(7);
  // The old schedule changes as it did; the new one writes its creation out first.
  for (const key of ['old', 'new'])
    await store.putSchedule({ draft: draft({ key, spec: '@hourly' }), nextFireAt: T0, now: T0 + 2 * MINUTE });
  expect(await rows()).toBe(4);
  const after = await store.listScheduleRevisions({ tenantId: TENANT, key: 'new', limit: 5 });
  expect(after.items.map((r) => r.change)).toEqual(['updated', 'created']);
  expect(after.items[1]).toEqual(created[0]);
  const oldAfter = await store.listScheduleRevisions({ tenantId: TENANT, key: 'old', limit: 5 });
  expect(oldAfter.items.map((r) => [r.seq, r.change, r.content.spec])).toEqual([
    [after.items[0]!.seq - 1, 'updated', '@hourly'],
    [7, 'created', '*/5 * * * *'],
  ]);
}

describe('deferred creation revisions migration: sqlite', () => {
  const folder = tempFolders('punctual-deferred-');

  it('keeps the revisions of a database of the previous release and defers the new ones', async () => {
    const dir = folder();
    const path = join(dir, 'punctual.db');
    const db = sqliteDatabaseBefore(path, 21);
    const { id } = db
      .prepare(
        `INSERT INTO schedules ${OLD_ROW} VALUES (?, 'old', '*/5 * * * *', 'cron', 'UTC', 'handler',
           '{"handler":"job"}', '{}', 'skip', 0, 'Every 5 minutes', 'active', 1, ?, 0, ?, ?) RETURNING id`,
      )
      .get(TENANT, T0, T0, T0) as { id: number };
    db.prepare(
      `INSERT INTO schedule_revisions (seq, tenant_id, key, schedule_id, version, at, actor, change, state)
       VALUES (7, ?, 'old', ?, 1, ?, 'key:old', 'created', 'active')`,
    ).run(TENANT, id, T0);
    db.close();

    const store = sqliteStore({ path });
    await store.migrate();
    const raw = new Database(path, { readonly: true });
    try {
      await check(
        store,
        async () => raw.prepare('SELECT count(*) FROM schedule_revisions').pluck().get() as number,
      );
    } finally {
      raw.close();
      await store.close();
    }
  });
});

describe.runIf(PG_URL !== '' || REQUIRED)('deferred creation revisions migration: postgres', () => {
  it('keeps the revisions of a schema of the previous release, defers the new ones, and is a contract step', async () => {
    if (PG_URL === '') throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    await withScratchSchema(PG_URL, async ({ db, s, store }) => {
      // The schema and migrations table as the release before 25 left it.
      await pgSchemaBefore(db, s, 25);
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO ${s}.schedules ${OLD_ROW} VALUES ($1, 'old', '*/5 * * * *', 'cron', 'UTC', 'handler',
           '{"handler":"job"}', '{}', 'skip', 0, 'Every 5 minutes', 'active', 1, $2, 0, $2, $2) RETURNING id`,
        [TENANT, T0],
      );
      await db.query(
        `INSERT INTO ${s}.schedule_revisions (seq, tenant_id, key, schedule_id, version, at, actor, change, state)
         OVERRIDING SYSTEM VALUE VALUES (7, $1, 'old', $2, 1, $3, 'key:old', 'created', 'active')`,
        [TENANT, rows[0]!.id, T0],
      );
      await db.query(`SELECT setval(pg_get_serial_sequence('${s}.schedule_revisions', 'seq'), 7)`);
      await store.migrate();
      const { rows: marks } = await db.query<{ version: number; compatible_from: number }>(
        `SELECT version, compatible_from FROM ${s}.punctual_migrations WHERE version = 25`,
      );
      expect(marks).toEqual([
        { version: 25, compatible_from: PG_MIGRATIONS.find((m) => m.version === 25)!.compatibleFrom },
      ]);
      expect(marks[0]!.compatible_from).toBe(25);
      await check(store, async () => {
        const { rows: n } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ${s}.schedule_revisions`,
        );
        return n[0]!.n;
      });
    });
  });
});
