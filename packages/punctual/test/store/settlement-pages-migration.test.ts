// A SQLite database made by the release before migration 0020 (executed counts on the schedule row,
// runs_schedule_state over every run) migrates forward: the counts of existing schedules move to
// schedule_executions and every schedule reads as before (firedCount, lastFiredAt, lastSucceededAt, by get,
// list, pause, resume, put and delete), runs_schedule_state holds the pending runs only, and the reads that
// used it (pending due instants, cancelling pending runs, a calendar change dropping its future skips)
// answer from the data already there. A settlement after the migration counts on top of the moved counts, and
// its success is an attempt kept on the run row that reads exactly as an attempts row did (and becomes one on
// a rerun).

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePolicies } from '../../src/domain/policies.js';
import { LATEST_VERSION } from '../../src/store/sqlite/migrations.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { draft, T0, TENANT } from '../support/fixtures.js';
import { sqliteDatabaseBefore } from '../support/sqlite-database-before.js';
import { tempFolders } from '../support/temp-folders.js';
import { claimOne, settlement } from './conformance/helpers.js';

const MINUTE = 60_000;
const POLICIES = JSON.stringify(resolvePolicies({}));

/** The old release's schedules: [key, executed_count, last_fired_at, last_succeeded_at]. */
const SCHEDULES: [string, number, number | null, number | null][] = [
  ['a-fired', 7, T0 - 5 * MINUTE, T0 - 4 * MINUTE],
  ['b-never', 0, null, null],
  ['c-failed', 2, T0 - 50 * MINUTE, null], // executed, never succeeded
  ['d-fired', 1, T0 - 90 * MINUTE, T0 - 89 * MINUTE],
];

/** The old release's runs: [schedule key, state, scheduled for, reason]. */
const RUNS: [string, string, number, string | null][] = [
  ['a-fired', 'succeeded', T0 - 60 * MINUTE, null],
  ['a-fired', 'dead', T0 - 30 * MINUTE, null],
  ['a-fired', 'scheduled', T0 - MINUTE, null], // due: claimed and settled after the migration
  ['a-fired', 'scheduled', T0 + 30 * MINUTE, null],
  ['c-failed', 'running', T0 - 10 * MINUTE, null],
  ['c-failed', 'scheduled', T0 + 20 * MINUTE, null],
  ['d-fired', 'skipped', T0 + 60 * MINUTE, 'calendar'], // a future calendar skip
  ['d-fired', 'succeeded', T0 - 90 * MINUTE, null],
];

const FINAL = new Set(['succeeded', 'dead', 'skipped']);

describe('settlement pages migration: sqlite', () => {
  const folder = tempFolders('punctual-settlement-pages-');

  it('moves the executed counts, keeps the pending runs indexed and answers every read as before', async () => {
    const dir = folder();
    const path = join(dir, 'punctual.db');
    const db = sqliteDatabaseBefore(path, 20);
    const schedule = db.prepare(
      `INSERT INTO schedules (tenant_id, key, spec, spec_kind, tz, target_kind, target, policies, overlap,
         jitter_ms, description, state, version, next_fire_at, fired_count, created_at, updated_at,
         executed_count, last_fired_at, last_succeeded_at, calendar_rules)
       VALUES (?, ?, '@hourly', 'cron', 'UTC', 'handler', '{"handler":"job"}', ?, 'allow', 0, '', 'active', 1,
         ?, 3, ?, ?, ?, ?, ?, ?) RETURNING id`,
    );
    const ids = new Map<string, number>();
    for (const [key, executed, fired, succeeded] of SCHEDULES) {
      const rules = key === 'd-fired' ? JSON.stringify({ exclude: ['holidays'] }) : null;
      const row = schedule.get(
        TENANT,
        key,
        POLICIES,
        T0 + 60 * MINUTE,
        T0,
        T0,
        executed,
        fired,
        succeeded,
        rules,
      );
      ids.set(key, (row as { id: number }).id);
    }
    const run = db.prepare(
      `INSERT INTO runs (tenant_id, schedule_id, schedule_key, schedule_version, occurrence_key, occurrence_id,
         kind, state, scheduled_for, due_at, priority, attempt, max_attempts, checks, overlap,
         not_fired_reported, created_at, started_at, finished_at, lease_owner, lease_token, lease_expires_at,
         reason)
       VALUES (@tenant, @scheduleId, @key, 1, @occurrence, @occurrence, 'scheduled', @state, @at, @at, 0,
         @attempt, 3, 0, 'allow', 0, @created, @started, @finished, @owner, @token, @leaseUntil, @reason)`,
    );
    for (const [key, state, at, reason] of RUNS) {
      const scheduleId = ids.get(key)!;
      const running = state === 'running';
      run.run({
        tenant: TENANT,
        scheduleId,
        key,
        occurrence: `${scheduleId}:${at}`,
        state,
        at,
        attempt: running || state === 'succeeded' || state === 'dead' ? 1 : 0,
        created: T0 - 120 * MINUTE,
        started: running || state === 'succeeded' || state === 'dead' ? at : null,
        finished: FINAL.has(state) ? at + 1000 : null,
        owner: running ? 'w' : null,
        token: running ? 'tok' : null,
        leaseUntil: running ? T0 + MINUTE : null,
        reason,
      });
    }
    // The old release's attempts row of a success.
    const oldSuccess = db
      .prepare("SELECT id FROM runs WHERE schedule_key = 'a-fired' AND state = 'succeeded'")
      .pluck()
      .get() as number;
    db.prepare(
      `INSERT INTO attempts (tenant_id, run_id, attempt, worker_id, started_at, finished_at, outcome, result)
       VALUES (?, ?, 1, 'old-worker', ?, ?, 'succeeded', '{"n":1}')`,
    ).run(TENANT, oldSuccess, T0 - 60 * MINUTE, T0 - 60 * MINUTE + 1000);
    db.close();

    const store = sqliteStore({ path });
    await store.migrate();

    // Every schedule reads the counts it had, from get and from the list.
    const expected = new Map(
      SCHEDULES.map(([key, firedCount, lastFiredAt, lastSucceededAt]) => [
        key,
        { key, firedCount, lastFiredAt, lastSucceededAt, materializedCount: 3 },
      ]),
    );
    for (const [key, want] of expected) expect(await store.getSchedule(TENANT, key)).toMatchObject(want);
    const page = await store.listSchedules({ tenantId: TENANT, limit: 10 });
    expect(page.items.map((s) => s.firedCount)).toEqual(SCHEDULES.map((s) => s[1]));
    expect(page.items).toMatchObject([...expected.values()]);

    const raw = new Database(path, { readonly: true });
    expect(raw.prepare('SELECT MAX(version) FROM punctual_migrations').pluck().get()).toBe(LATEST_VERSION);
    const columns = raw.prepare("SELECT name FROM pragma_table_info('schedules')").pluck().all();
    expect(columns).not.toContain('executed_count');
    expect(columns).not.toContain('last_fired_at');
    // A row per schedule, with the counts it had.
    expect(
      raw
        .prepare('SELECT schedule_id, executed_count FROM schedule_executions ORDER BY schedule_id')
        .raw()
        .all(),
    ).toEqual(SCHEDULES.map(([key, executed]) => [ids.get(key), executed]));
    // The pending runs (three scheduled, one running), read from the index alone.
    const indexed = raw
      .prepare(
        `SELECT COUNT(*) FROM runs INDEXED BY runs_schedule_state
         WHERE schedule_id > 0 AND (state = 'scheduled' OR state = 'running')`,
      )
      .pluck()
      .get();
    expect(indexed).toBe(4);
    const definition = raw
      .prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'runs_schedule_state'")
      .pluck()
      .get() as string;
    expect(definition).toMatch(/WHERE state = 'scheduled' OR state = 'running'/);
    raw.close();

    // The pending reads answer from the partial index.
    const pending = await store.pendingDueAt(TENANT, [...ids.values()].map(String));
    expect(pending).toEqual(
      new Map([
        [String(ids.get('a-fired')), T0 - MINUTE],
        [String(ids.get('c-failed')), T0 + 20 * MINUTE],
      ]),
    );

    // A settlement counts on top of the moved counts; the schedule row's other fields are untouched.
    const claimed = await claimOne(store, T0);
    expect(claimed.run.scheduleKey).toBe('a-fired');
    expect(claimed.schedule).toMatchObject(expected.get('a-fired')!);
    // The success's attempt ended before the settlement was written: it keeps its own end and worker.
    const done = settlement(claimed, { state: 'succeeded', result: { ok: true } }, T0 + 900);
    const [settled] = await store.settleRuns(
      [{ ...done, attempt: { ...done.attempt, workerId: 'w-9' } }],
      T0 + 1000,
    );
    expect(settled?.to).toBe('succeeded');
    expect(await store.getSchedule(TENANT, 'a-fired')).toMatchObject({
      firedCount: 8,
      lastFiredAt: T0,
      lastSucceededAt: T0 + 1000,
    });
    const success = {
      runId: claimed.run.id,
      attempt: 1,
      workerId: 'w-9',
      startedAt: T0,
      finishedAt: T0 + 900,
      outcome: 'succeeded',
      error: null,
      result: { ok: true },
    };
    expect((await store.getRun(TENANT, claimed.run.id))?.attempts).toEqual([success]);
    // The old success reads its attempts row as before.
    expect((await store.getRun(TENANT, String(oldSuccess)))?.attempts).toEqual([
      {
        runId: String(oldSuccess),
        attempt: 1,
        workerId: 'old-worker',
        startedAt: T0 - 60 * MINUTE,
        finishedAt: T0 - 60 * MINUTE + 1000,
        outcome: 'succeeded',
        error: null,
        result: { n: 1 },
      },
    ]);
    const attemptRows = (runId: string): number => {
      const check = new Database(path, { readonly: true });
      try {
        return check
          .prepare('SELECT COUNT(*) FROM attempts WHERE run_id = ?')
          .pluck()
          .get(Number(runId)) as number;
      } finally {
        check.close();
      }
    };
    expect(attemptRows(claimed.run.id)).toBe(0);
    // A rerun writes the success out as an attempts row: the run's attempts read the same.
    const rerun = await store.rerunRuns({
      tenantId: TENANT,
      scheduleId: String(ids.get('a-fired')),
      runIds: [claimed.run.id],
      attempts: 1,
      scheduleVersion: 1,
      now: T0 + 1500,
    });
    expect(rerun.transitions.map((t) => t.to)).toEqual(['scheduled']);
    expect(attemptRows(claimed.run.id)).toBe(1);
    expect((await store.getRun(TENANT, claimed.run.id))?.attempts).toEqual([success]);

    // Pausing, resuming and a change keep the counts; a change cancels the pending runs.
    const paused = await store.pauseSchedule(TENANT, 'c-failed', {
      cancelPending: false,
      note: null,
      now: T0,
    });
    expect(paused?.schedule).toMatchObject({ state: 'paused', ...expected.get('c-failed') });
    const resumed = await store.resumeSchedule(TENANT, 'c-failed', {
      nextFireAt: T0 + 60 * MINUTE,
      skipped: [],
      now: T0,
    });
    expect(resumed?.schedule).toMatchObject({ state: 'active', ...expected.get('c-failed') });
    const put = await store.putSchedule({
      draft: draft({ key: 'a-fired', summary: 'changed' }),
      nextFireAt: T0 + 60 * MINUTE,
      now: T0 + 2000,
    });
    expect(put.schedule).toMatchObject({ summary: 'changed', firedCount: 8, lastSucceededAt: T0 + 1000 });
    // The rerun one and the future one: both pending, both found through the partial index.
    expect(put.transitions.map((t) => [t.run.scheduledFor, t.to])).toEqual([
      [T0 - MINUTE, 'cancelled'],
      [T0 + 30 * MINUTE, 'cancelled'],
    ]);

    // A calendar change drops the future calendar skip (no longer in runs_schedule_state).
    const rewound = await store.rewindCalendarUsers({
      tenantId: TENANT,
      calendar: 'holidays',
      after: null,
      limit: 10,
      now: T0,
    });
    expect(rewound.schedules).toBe(1);
    const dRuns = await store.listRuns({ tenantId: TENANT, scheduleKey: 'd-fired', limit: 10 });
    expect(dRuns.items.map((r) => r.state)).toEqual(['succeeded']);
    expect(await store.getSchedule(TENANT, 'd-fired')).toMatchObject({
      nextFireAt: T0 + 60 * MINUTE,
      ...expected.get('d-fired'),
    });

    // A deleted schedule's counts go with it.
    expect((await store.deleteSchedule(TENANT, 'd-fired', T0)).deleted).toBe(true);
    await store.close();
    const after = new Database(path, { readonly: true });
    expect(
      after
        .prepare('SELECT COUNT(*) FROM schedule_executions WHERE schedule_id = ?')
        .pluck()
        .get(ids.get('d-fired')),
    ).toBe(0);
    after.close();
  });
});
