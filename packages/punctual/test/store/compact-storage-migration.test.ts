// A database made by the release before compact storage (schedule policies and every revision's diff and
// content written out in full) migrates forward on both stores: its schedules and revisions read back exactly
// as they were written, the parts now derived are cleared from the rows, and the schedule counters start
// from the schedules already there. PostgreSQL needs
// PUNCTUAL_TEST_PG_URL; without it that half is skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePolicies } from '../../src/domain/policies.js';
import { diffSchedules } from '../../src/domain/schedule-diff.js';
import type { ScheduleDraft } from '../../src/domain/schedule.js';
import { contentOf } from '../../src/store/revision-record.js';
import { MIGRATIONS as PG_MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import type { TenantStore } from '../../src/store/tenant-store.js';
import { draft, T0, TENANT } from '../support/fixtures.js';
import { sqliteDatabaseBefore } from '../support/sqlite-database-before.js';
import { tempFolders } from '../support/temp-folders.js';
import { withScratchSchema } from '../support/pg-scratch-schema.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';

const v1 = draft({ policies: resolvePolicies({ overlap: 'skip', retry: { maxAttempts: 5 } }) });
const v2 = draft({ ...v1, spec: '@hourly', description: 'Every hour, UTC' });
const gone = draft({ key: 'gone' });
const json = (d: ScheduleDraft) => JSON.parse(JSON.stringify(contentOf(d))) as ScheduleDraft;

/** The old release's revision rows: [key, version, change, state, diff, content], in order. */
const OLD_REVISIONS: [string, number, string, string, object, ScheduleDraft][] = [
  ['report', 1, 'created', 'active', diffSchedules(null, v1), json(v1)],
  ['report', 2, 'updated', 'active', diffSchedules(v1, v2), json(v2)],
  ['gone', 1, 'created', 'active', diffSchedules(null, gone), json(gone)],
  ['gone', 1, 'deleted', 'deleted', { state: { from: 'active', to: 'deleted' } }, json(gone)],
];

/** What both stores must read back, and which raw parts are left stored (diff, content). */
async function check(
  store: Store & TenantStore,
  raw: () => Promise<[string, number, string, boolean, boolean][]>,
) {
  expect((await store.getSchedule(TENANT, 'report'))?.policies).toEqual(v1.policies);
  // The counters start from the schedules already there.
  expect((await store.stats!(T0)).schedulesByState).toEqual({ active: 1, paused: 0, completed: 0 });
  expect(await store.countSchedules(TENANT)).toBe(1);
  const report = await store.listScheduleRevisions({ tenantId: TENANT, key: 'report', limit: 10 });
  expect(report.items.map((r) => [r.version, r.change, r.diff, r.content])).toEqual([
    [2, 'updated', diffSchedules(v1, v2), json(v2)],
    [1, 'created', diffSchedules(null, v1), json(v1)],
  ]);
  const deleted = await store.listScheduleRevisions({ tenantId: TENANT, key: 'gone', limit: 10 });
  expect(deleted.items.map((r) => [r.change, r.diff, r.content])).toEqual([
    ['deleted', { state: { from: 'active', to: 'deleted' } }, json(gone)],
    ['created', diffSchedules(null, gone), json(gone)],
  ]);
  expect(await raw()).toEqual([
    ['report', 1, 'created', false, true],
    ['report', 2, 'updated', true, false],
    ['gone', 1, 'created', false, true],
    ['gone', 1, 'deleted', true, true],
  ]);
}

describe('compact storage migration: sqlite', () => {
  const folder = tempFolders('punctual-compact-');

  it('migrates a database of the previous release with its schedules and revisions intact', async () => {
    const dir = folder();
    const path = join(dir, 'punctual.db');
    const db = sqliteDatabaseBefore(path, 16);
    const { id } = db
      .prepare(
        `INSERT INTO schedules (tenant_id, key, spec, spec_kind, tz, target_kind, target, policies, overlap,
           jitter_ms, description, state, version, next_fire_at, fired_count, created_at, updated_at)
         VALUES (?, 'report', ?, 'cron', 'UTC', 'handler', '{"handler":"job"}', ?, 'skip', 0, ?, 'active', 2,
           ?, 0, ?, ?) RETURNING id`,
      )
      .get(TENANT, v2.spec, JSON.stringify(v2.policies), v2.description, T0, T0, T0) as { id: number };
    const rev = db.prepare(
      `INSERT INTO schedule_revisions (tenant_id, key, schedule_id, version, at, actor, change, state, diff,
         content) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?)`,
    );
    for (const [key, version, change, state, diff, content] of OLD_REVISIONS)
      rev.run(
        TENANT,
        key,
        key === 'report' ? id : id + 1,
        version,
        T0,
        change,
        state,
        JSON.stringify(diff),
        JSON.stringify(content),
      );
    db.close();

    const store = sqliteStore({ path });
    await store.migrate();
    await check(store, async () => {
      const raw = new Database(path, { readonly: true });
      try {
        return (
          raw
            .prepare('SELECT key, version, change, diff, content FROM schedule_revisions ORDER BY seq')
            .all() as { key: string; version: number; change: string; diff: unknown; content: unknown }[]
        ).map((r) => [r.key, r.version, r.change, r.diff !== null, r.content !== null]);
      } finally {
        raw.close();
      }
    });
    // The sequence goes on after the copied rows.
    await store.putSchedule({ draft: v1, nextFireAt: T0, now: T0 + 1 });
    const page = await store.listScheduleRevisions({ tenantId: TENANT, key: 'report', limit: 1 });
    expect(page.items[0]).toMatchObject({ seq: 5, version: 3, change: 'updated' });
    await store.close();
  });
});

describe.runIf(PG_URL !== '' || REQUIRED)('compact storage migration: postgres', () => {
  it('migrates a schema of the previous release with its schedules and revisions intact', async () => {
    if (PG_URL === '') throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    await withScratchSchema(PG_URL, async ({ db, s, store }) => {
      await db.query(`CREATE SCHEMA ${s}`);
      await db.query(
        `CREATE TABLE ${s}.punctual_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
      );
      for (const m of PG_MIGRATIONS.filter((x) => x.version < 17)) {
        await db.query(m.sql(s));
        await db.query(`INSERT INTO ${s}.punctual_migrations (version, name) VALUES ($1, $2)`, [
          m.version,
          m.name,
        ]);
      }
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO ${s}.schedules (tenant_id, key, spec, spec_kind, tz, target, target_kind, policies, overlap,
           jitter_ms, description, state, version, next_fire_at, fired_count, created_at, updated_at)
         VALUES ($1, 'report', $2, 'cron', 'UTC', '{"handler":"job"}', 'handler', $3, 'skip', 0, $4, 'active', 2,
           $5, 0, $5, $5) RETURNING id`,
        [TENANT, v2.spec, JSON.stringify(v2.policies), v2.description, T0],
      );
      const id = Number(rows[0]!.id);
      for (const [key, version, change, state, diff, content] of OLD_REVISIONS)
        await db.query(
          `INSERT INTO ${s}.schedule_revisions (tenant_id, key, schedule_id, version, at, change, state, diff,
             content) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            TENANT,
            key,
            key === 'report' ? id : id + 1,
            version,
            T0,
            change,
            state,
            JSON.stringify(diff),
            JSON.stringify(content),
          ],
        );
      await store.migrate();
      await check(store, async () => {
        const { rows: raw } = await db.query<{
          key: string;
          version: number;
          change: string;
          d: boolean;
          c: boolean;
        }>(
          `SELECT key, version, change, diff IS NOT NULL AS d, content IS NOT NULL AS c
             FROM ${s}.schedule_revisions ORDER BY seq`,
        );
        return raw.map((r) => [r.key, r.version, r.change, r.d, r.c]);
      });
    });
  });
});
