// Held occurrences (PostgreSQL migration 27, SQLite 0022), on a schema of the release before: runs written
// with a text occurrence key come out of the migration holding their occurrence by the flag (and those that
// had released it, or never held one, without it), the text column and its constraint are gone, a duplicate
// of a held occurrence is still left out while a released one is materialised again, a rerun of a released
// occurrence is refused while another run holds it and a rerun of a held one keeps it. On PostgreSQL the step
// is recorded as a contract one; on SQLite, which rebuilds `runs`, the attempts, the id sequence and every
// page of runs (now merged from the finished, running and scheduled parts) come through as they were. The
// PostgreSQL half needs PUNCTUAL_TEST_PG_URL; skipped without it, failed when PUNCTUAL_REQUIRE_SERVICES=1.

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePolicies } from '../../src/domain/policies.js';
import type { Run } from '../../src/domain/run.js';
import { MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { LATEST_VERSION } from '../../src/store/sqlite/migrations.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { MINUTE, runInsert, T0, TENANT } from '../support/fixtures.js';
import { pgSchemaBefore } from '../support/pg-schema-before.js';
import { withScratchSchema } from '../support/pg-scratch-schema.js';
import { sqliteDatabaseBefore } from '../support/sqlite-database-before.js';
import { tempFolders } from '../support/temp-folders.js';

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

      await expectHeldOnce(store, sid, [1, 2, 3], { released, done, manual }, T0 + 5 * MINUTE);
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

/**
 * After the migration, exactly once still holds: of the schedule's runs put again at these minutes past T0,
 * only minute 3 (whose run was released) is materialised, once; then a rerun of the released run is refused
 * while that new run holds its occurrence, and the held ones (finished, manual) are scheduled again.
 */
async function expectHeldOnce(
  store: Store,
  scheduleId: string,
  minutes: number[],
  ids: { released: string; done: string; manual: string },
  at: number,
): Promise<void> {
  const schedule = { scheduleId, tenantId: TENANT, scheduleKey: 'report' };
  const again = minutes.map((m) => runInsert({ ...schedule, scheduledFor: T0 + m * MINUTE }));
  const inserted = await store.insertRuns(again, at);
  expect(inserted.map((t) => t.run.scheduledFor)).toEqual([T0 + 3 * MINUTE]);
  expect(await store.insertRuns(again, at)).toEqual([]);
  const res = await store.rerunRuns({
    tenantId: TENANT,
    scheduleId,
    scheduleVersion: 1,
    runIds: [ids.released, ids.done, ids.manual],
    attempts: 1,
    now: at + MINUTE,
  });
  expect(res.refused).toEqual([
    { runId: ids.released, why: 'occurrenceTaken', state: 'cancelled', heldBy: inserted[0]!.run.id },
  ]);
  expect(res.transitions.map((t) => [t.run.id, t.to])).toEqual([
    [ids.done, 'scheduled'],
    [ids.manual, 'scheduled'],
  ]);
}

/** Every run of the tenant, a page of two at a time: [id, state], newest first. */
async function everyRun(store: Store, q: { scheduleKey?: string } = {}): Promise<[string, string][]> {
  const out: [string, string][] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listRuns({ tenantId: TENANT, limit: 2, ...q, ...(cursor ? { cursor } : {}) });
    out.push(...page.items.map((r: Run): [string, string] => [r.id, r.state]));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return out;
}

describe('held occurrences migration: sqlite', () => {
  const folder = tempFolders('punctual-held-occurrences-');

  it('rebuilds runs with held flags, keeps attempts, ids and pages, and keeps exactly once', async () => {
    const path = join(folder(), 'punctual.db');
    const db = sqliteDatabaseBefore(path, 22);
    const sid = (
      db
        .prepare(
          `INSERT INTO schedules (tenant_id, key, spec, spec_kind, tz, target_kind, target, policies, overlap,
             jitter_ms, description, state, version, next_fire_at, fired_count, created_at, updated_at)
           VALUES (?, 'report', '*/5 * * * *', 'cron', 'UTC', 'handler', '{"handler":"job"}', ?, 'allow', 0, '',
             'active', 1, ?, 0, ?, ?) RETURNING id`,
        )
        .get(TENANT, JSON.stringify(resolvePolicies({})), T0 + 60 * MINUTE, T0, T0) as { id: number }
    ).id;
    const insert = db.prepare(
      `INSERT INTO runs (tenant_id, schedule_id, schedule_key, schedule_version, occurrence_key, kind, state,
         scheduled_for, due_at, priority, attempt, max_attempts, checks, overlap, not_fired_reported, created_at,
         started_at, finished_at, lease_owner, lease_token, lease_expires_at)
       VALUES (?, ?, 'report', 1, ?, ?, ?, ?, ?, 0, ?, 3, 0, 'allow', 0, ?, ?, ?, ?, ?, ?) RETURNING id`,
    );
    const run = (at: number, kind: string, state: string, held: boolean): string => {
      const running = state === 'running';
      const started = state === 'scheduled' || state === 'cancelled' ? null : at;
      const row = insert.get(
        TENANT,
        sid,
        held ? `${sid}:${at}` : null,
        kind,
        state,
        at,
        at,
        started === null ? 0 : 1,
        at,
        started,
        state === 'scheduled' || running ? null : at + 1,
        running ? 'w' : null,
        running ? 'tok' : null,
        running ? T0 + 60 * MINUTE : null,
      ) as { id: number };
      return String(row.id);
    };
    const pending = run(T0 + MINUTE, 'scheduled', 'scheduled', true);
    const done = run(T0 + 2 * MINUTE, 'scheduled', 'succeeded', true);
    const released = run(T0 + 3 * MINUTE, 'scheduled', 'cancelled', false);
    const manual = run(T0 + 4 * MINUTE, 'manual', 'succeeded', false);
    const dead = run(T0 + 5 * MINUTE, 'scheduled', 'dead', true);
    const running = run(T0 + 6 * MINUTE, 'scheduled', 'running', true);
    const later = run(T0 + 7 * MINUTE, 'scheduled', 'scheduled', true);
    // The newest run was pruned: its id is never handed out again.
    const pruned = run(T0 + 8 * MINUTE, 'scheduled', 'succeeded', true);
    db.prepare('DELETE FROM runs WHERE id = ?').run(Number(pruned));
    db.prepare(
      `INSERT INTO attempts (tenant_id, run_id, attempt, worker_id, started_at, finished_at, outcome, error)
       VALUES (?, ?, 1, 'w-1', ?, ?, 'dead', '{"message":"boom"}')`,
    ).run(TENANT, Number(dead), T0 + 5 * MINUTE, T0 + 5 * MINUTE + 1);
    db.close();

    const store = sqliteStore({ path });
    await store.migrate();
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare('SELECT MAX(version) FROM punctual_migrations').pluck().get()).toBe(LATEST_VERSION);
    const columns = raw.prepare("SELECT name FROM pragma_table_info('runs')").pluck().all();
    expect(columns).not.toContain('occurrence_key');
    expect(raw.prepare('SELECT id, holds_occurrence FROM runs ORDER BY id').raw().all()).toEqual(
      [
        [pending, 1],
        [done, 1],
        [released, null],
        [manual, null],
        [dead, 1],
        [running, 1],
        [later, 1],
      ].map(([id, held]) => [Number(id), held]),
    );
    const indexes = raw
      .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'runs' ORDER BY name")
      .all() as { name: string; sql: string | null }[];
    expect(indexes.map((i) => i.name)).not.toContain('sqlite_autoindex_runs_1');
    expect(indexes.find((i) => i.name === 'runs_tenant_key_time')?.sql).toMatch(
      /WHERE state NOT IN \('scheduled', 'running'\)$/,
    );
    // The listing indexes hold the five finished runs only.
    const listed = raw
      .prepare(
        `SELECT COUNT(*) FROM runs INDEXED BY runs_tenant_time
          WHERE tenant_id = ? AND state NOT IN ('scheduled', 'running')`,
      )
      .pluck()
      .get(TENANT);
    expect(listed).toBe(4);
    expect(raw.pragma('foreign_key_check')).toEqual([]);
    // The id sequence stayed past the pruned run (the copy alone would have set it to the highest id left).
    expect(raw.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'runs'").pluck().get()).toBe(
      Number(pruned),
    );
    raw.close();

    // Pages merge the finished, running and scheduled parts, newest first, with and without a key and a state.
    const all = [later, running, dead, manual, released, done, pending];
    const states = new Map((await everyRun(store)).map(([id, state]) => [id, state]));
    expect(await everyRun(store)).toEqual(all.map((id) => [id, states.get(id)]));
    expect(await everyRun(store, { scheduleKey: 'report' })).toEqual(all.map((id) => [id, states.get(id)]));
    expect([...states.values()]).toEqual([
      'scheduled',
      'running',
      'dead',
      'succeeded',
      'cancelled',
      'succeeded',
      'scheduled',
    ]);
    const running2 = await store.listRuns({ tenantId: TENANT, state: 'running', limit: 10 });
    expect(running2.items.map((r) => r.id)).toEqual([running]);
    // The dead run's attempt came through the rebuild.
    expect((await store.getRun(TENANT, dead))!.attempts).toMatchObject([
      { runId: dead, attempt: 1, workerId: 'w-1', outcome: 'dead', error: { message: 'boom' } },
    ]);

    await expectHeldOnce(store, String(sid), [1, 2, 3, 5], { released, done, manual }, T0 + 9 * MINUTE);
    // Deleting a run still takes its attempts with it (the reference survived the rename).
    await store.close();
    const rw = new Database(path);
    rw.pragma('foreign_keys = ON');
    rw.prepare('DELETE FROM runs WHERE id = ?').run(Number(dead));
    expect(rw.prepare('SELECT COUNT(*) FROM attempts').pluck().get()).toBe(0);
    expect(
      rw
        .prepare('SELECT id, holds_occurrence FROM runs WHERE id IN (?, ?) ORDER BY id')
        .raw()
        .all(Number(done), Number(manual)),
    ).toEqual([
      [Number(done), 1],
      [Number(manual), null],
    ]);
    rw.close();
  });
});
