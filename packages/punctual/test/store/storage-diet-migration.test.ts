// A database made by the release before the storage diet (with schedules_state, and on PostgreSQL runs_due)
// migrates forward on both stores: the indexes no statement needs are gone, schedules_not_active holds the
// schedules not active, and every read that used the dropped indexes answers as before from the data already
// there (schedules listed by state, the earliest due instant, the due count, the not-fired scan). PostgreSQL
// needs PUNCTUAL_TEST_PG_URL; without it that half is skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePolicies } from '../../src/domain/policies.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import type { TenantStore } from '../../src/store/tenant-store.js';
import { T0, TENANT } from '../support/fixtures.js';
import { sqliteDatabaseBefore } from '../support/sqlite-database-before.js';
import { tempFolders } from '../support/temp-folders.js';
import { pgSchemaBefore } from '../support/pg-schema-before.js';
import { withScratchSchema } from '../support/pg-scratch-schema.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';
const MINUTE = 60_000;
const POLICIES = JSON.stringify(resolvePolicies({}));

/** The old release's schedules: [key, state]. */
const SCHEDULES: [string, string][] = [
  ['a-active', 'active'],
  ['b-paused', 'paused'],
  ['c-active', 'active'],
  ['d-completed', 'completed'],
  ['e-paused', 'paused'],
];

/** The old release's runs: [schedule key, state, priority, due at]. */
const RUNS: [string, string, number, number][] = [
  ['a-active', 'scheduled', 0, T0 - 10 * MINUTE], // due, overdue (not fired)
  ['a-active', 'scheduled', 0, T0 + 10 * MINUTE], // not due yet
  ['c-active', 'scheduled', 5, T0 - 2 * MINUTE], // due, at another priority level
  ['c-active', 'scheduled', -1, T0 - 20 * MINUTE], // due, the oldest, overdue
  ['c-active', 'running', 0, T0 - 30 * MINUTE], // running: neither due nor not fired
];

/** The indexes of schedules and runs, by name. */
type IndexNames = () => Promise<string[]>;

/** What both stores must answer after the migration. */
async function check(store: Store & TenantStore, indexes: IndexNames) {
  const names = await indexes();
  expect(names).toContain('schedules_not_active');
  expect(names).not.toContain('schedules_state');
  expect(names).not.toContain('runs_due');

  const keys = async (state: 'active' | 'paused' | 'completed', limit = 10, cursor?: string) => {
    const page = await store.listSchedules({ tenantId: TENANT, state, limit, cursor });
    return { keys: page.items.map((s) => s.key), next: page.nextCursor };
  };
  expect((await keys('active')).keys).toEqual(['a-active', 'c-active']);
  expect((await keys('completed')).keys).toEqual(['d-completed']);
  const first = await keys('paused', 1);
  expect(first.keys).toEqual(['b-paused']);
  expect((await keys('paused', 1, first.next)).keys).toEqual(['e-paused']);

  expect(await store.nextRunDueAt()).toBe(T0 - 20 * MINUTE);
  const stats = await store.stats!(T0);
  expect(stats).toMatchObject({ dueRuns: 3, runningRuns: 1, oldestDueAt: T0 - 20 * MINUTE });
  expect(stats.schedulesByState).toEqual({ active: 2, paused: 2, completed: 1 });

  // Overdue by more than 5 minutes, earliest first, across the priority levels; each reported once.
  const late = await store.takeNotFired(T0, 5 * MINUTE, 10);
  expect(late.map((r) => [r.scheduleKey, r.dueAt])).toEqual([
    ['c-active', T0 - 20 * MINUTE],
    ['a-active', T0 - 10 * MINUTE],
  ]);
  expect(await store.takeNotFired(T0, 5 * MINUTE, 10)).toEqual([]);

  // New schedules keep the partial index to the states not active.
  await store.pauseSchedule(TENANT, 'a-active', { cancelPending: false, note: null, now: T0 });
  expect((await keys('paused')).keys).toEqual(['a-active', 'b-paused', 'e-paused']);
  expect((await keys('active')).keys).toEqual(['c-active']);
}

describe('storage diet migration: sqlite', () => {
  const folder = tempFolders('punctual-diet-');

  it('migrates a database of the previous release and answers every read as before', async () => {
    const dir = folder();
    const path = join(dir, 'punctual.db');
    const db = sqliteDatabaseBefore(path, 19);
    const schedule = db.prepare(
      `INSERT INTO schedules (tenant_id, key, spec, spec_kind, tz, target_kind, target, policies, overlap,
         jitter_ms, description, state, version, next_fire_at, fired_count, created_at, updated_at)
       VALUES (?, ?, '@hourly', 'cron', 'UTC', 'handler', '{"handler":"job"}', ?, 'allow', 0, '', ?, 1,
         ?, 0, ?, ?) RETURNING id`,
    );
    const ids = new Map<string, number>();
    for (const [key, state] of SCHEDULES) {
      const next = state === 'active' ? T0 + 60 * MINUTE : null;
      ids.set(key, (schedule.get(TENANT, key, POLICIES, state, next, T0, T0) as { id: number }).id);
    }
    const run = db.prepare(
      `INSERT INTO runs (tenant_id, schedule_id, schedule_key, schedule_version, kind, state, scheduled_for,
         due_at, priority, attempt, max_attempts, checks, overlap, not_fired_reported, created_at,
         lease_expires_at)
       VALUES (?, ?, ?, 1, 'scheduled', ?, ?, ?, ?, 0, 3, 0, 'allow', 0, ?, ?)`,
    );
    for (const [key, state, priority, dueAt] of RUNS)
      run.run(
        TENANT,
        ids.get(key),
        key,
        state,
        dueAt,
        dueAt,
        priority,
        T0 - 60 * MINUTE,
        state === 'running' ? T0 + MINUTE : null,
      );
    db.close();

    const store = sqliteStore({ path });
    await store.migrate();
    await check(store, async () => {
      const raw = new Database(path, { readonly: true });
      try {
        return raw
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('schedules', 'runs')",
          )
          .pluck()
          .all() as string[];
      } finally {
        raw.close();
      }
    });
    await store.close();
  });
});

describe.runIf(PG_URL !== '' || REQUIRED)('storage diet migration: postgres', () => {
  it('migrates a schema of the previous release and answers every read as before', async () => {
    if (PG_URL === '') throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    await withScratchSchema(PG_URL, async ({ db, schema, s, store }) => {
      await pgSchemaBefore(db, s, 21);
      const ids = new Map<string, string>();
      for (const [key, state] of SCHEDULES) {
        const { rows } = await db.query<{ id: string }>(
          `INSERT INTO ${s}.schedules (tenant_id, key, spec, spec_kind, tz, target, target_kind, policies,
             overlap, jitter_ms, description, state, version, next_fire_at, fired_count, created_at, updated_at)
           VALUES ($1, $2, '@hourly', 'cron', 'UTC', '{"handler":"job"}', 'handler', $3, 'allow', 0, '', $4, 1,
             $5, 0, $6, $6) RETURNING id`,
          [TENANT, key, POLICIES, state, state === 'active' ? T0 + 60 * MINUTE : null, T0],
        );
        ids.set(key, rows[0]!.id);
      }
      for (const [key, state, priority, dueAt] of RUNS)
        await db.query(
          `INSERT INTO ${s}.runs (tenant_id, schedule_id, schedule_key, schedule_version, kind, state,
             scheduled_for, due_at, priority, max_attempts, overlap, created_at, lease_expires_at)
           VALUES ($1, $2, $3, 1, 'scheduled', $4, $5, $5, $6, 3, 'allow', $7, $8)`,
          [
            TENANT,
            ids.get(key),
            key,
            state,
            dueAt,
            priority,
            T0 - 60 * MINUTE,
            state === 'running' ? T0 + MINUTE : null,
          ],
        );
      await store.migrate();
      await check(store, async () => {
        const { rows } = await db.query<{ name: string }>(
          `SELECT indexname AS name FROM pg_indexes WHERE schemaname = $1 AND tablename IN ('schedules', 'runs')`,
          [schema],
        );
        return rows.map((r) => r.name);
      });
      const { rows: marks } = await db.query<{ c: number }>(
        `SELECT compatible_from AS c FROM ${s}.punctual_migrations WHERE version = 21`,
      );
      // An index change only: the previous release still runs beside it.
      expect(marks).toEqual([{ c: 5 }]);
    });
  });
});
