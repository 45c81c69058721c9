// The SQLite store: the conformance suite on ':memory:' and on a WAL file, plus what only SQLite has:
// migrations, the durability pragmas, reopening a file, and the claim, the stats and the quota counts staying
// index searches with a million pending runs, and the materializer's statements with many schedules.

import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LATEST_VERSION, MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { CLAIM_CANDIDATES, PRIORITY_LEVELS } from '../../src/store/sqlite/sqlite-claim.js';
import {
  PENDING_DUE,
  STATS_DUE,
  STATS_RUNNING,
  STATS_SCHEDULES,
} from '../../src/store/sqlite/sqlite-queries.js';
import {
  CLAIM_DUE,
  NEXT_SCHEDULE_AT,
  SCHEDULE_CLAIMS_DDL,
  TAKE_OVERDUE,
} from '../../src/store/sqlite/sqlite-materializer.js';
import { DUE_EXPECTATIONS, RECENT_OUTCOMES } from '../../src/store/sqlite/sqlite-expectations.js';
import { COUNT_SCHEDULES, COUNT_STARTED } from '../../src/store/sqlite/sqlite-tenants.js';
import { sqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import {
  DEFAULT_SQLITE_DRIVER,
  SQLITE_DRIVERS,
  type SqliteDriver,
} from '../../src/store/sqlite/sqlite-driver.js';
import { draft, runInsert, T0, TENANT } from '../support/fixtures.js';
import { describeStoreConformance } from './conformance.js';
import { notMigratedTests } from './not-migrated.js';

const dirs: string[] = [];
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'punctual-sqlite-'));
  dirs.push(dir);
  return join(dir, 'punctual.db');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describeStoreConformance('sqlite :memory:', async () => {
  const store = sqliteStore({ path: ':memory:' });
  return { store, cleanup: () => store.close() };
});

describeStoreConformance('sqlite file', async () => {
  const store = sqliteStore({ path: tempFile() });
  return { store, cleanup: () => store.close() };
});

// The same contract on the driver that is not the default.
for (const driver of SQLITE_DRIVERS.filter((d) => d !== DEFAULT_SQLITE_DRIVER)) {
  describeStoreConformance(`sqlite file (${driver})`, async () => {
    const store = sqliteStore({ path: tempFile(), driver });
    return { store, cleanup: () => store.close() };
  });
}

const QUOTAS = { maxSchedules: 10, maxRunsPerMinute: null, requestsPerSecond: 5 };

describe('sqlite store before migrate()', () => {
  const opened: SqliteStore[] = [];
  afterEach(async () => {
    for (const s of opened.splice(0)) await s.close();
  });
  notMigratedTests(() => {
    const store = sqliteStore({ path: tempFile() });
    opened.push(store);
    return store;
  });
});

/** A schedule row as schema version 1 wrote it (3 occurrences materialised), written with plain SQL. */
function insertV1Schedule(path: string): void {
  const db = new Database(path);
  db.prepare(
    `INSERT INTO schedules (tenant_id, key, spec, spec_kind, tz, target_kind, target, payload, policies,
       overlap, jitter_ms, description, state, version, next_fire_at, fired_count, created_at, updated_at)
     VALUES (?, 'report', '*/5 * * * *', 'cron', 'UTC', 'handler', '{"handler":"job"}', NULL, ?, 'allow', 0,
       'Every 5 minutes', 'active', 1, ?, 3, ?, ?)`,
  ).run(TENANT, JSON.stringify(draft().policies), T0, T0, T0);
  db.close();
}

describe('sqlite store', () => {
  async function opened(path = tempFile()): Promise<SqliteStore> {
    const store = sqliteStore({ path });
    await store.migrate();
    return store;
  }

  it('opens with the driver asked for, and refuses one it does not know', async () => {
    for (const driver of SQLITE_DRIVERS) {
      const store = sqliteStore({ path: ':memory:', driver });
      expect(store.diagnostics().driver).toBe(driver);
      await store.close();
    }
    const byDefault = sqliteStore({ path: ':memory:' });
    expect(byDefault.diagnostics().driver).toBe(DEFAULT_SQLITE_DRIVER);
    await byDefault.close();
    expect(() => sqliteStore({ path: ':memory:', driver: 'sqlite3' as SqliteDriver })).toThrow(
      expect.objectContaining({ code: 'STORE_DRIVER_UNAVAILABLE' }),
    );
  });

  it('migrates idempotently and records the version', async () => {
    const path = tempFile();
    const store = await opened(path);
    await store.migrate();
    expect(store.diagnostics().schemaVersion).toBe(LATEST_VERSION);
    await store.close();
    const db = new Database(path, { readonly: true });
    const rows = db.prepare('SELECT version FROM punctual_migrations ORDER BY version').pluck().all();
    db.close();
    expect(rows).toEqual(MIGRATIONS.map((m) => m.version));
  });

  it('upgrades a version 1 database to tenancy, keeping its data', async () => {
    const path = tempFile();
    const db = new Database(path);
    db.exec('CREATE TABLE punctual_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT');
    db.exec(MIGRATIONS[0]!.sql);
    db.prepare('INSERT INTO punctual_migrations (version, name) VALUES (?, ?)').run(1, MIGRATIONS[0]!.name);
    db.close();
    const old = sqliteStore({ path });
    expect(old.diagnostics().schemaVersion).toBe(1);
    await old.close();
    insertV1Schedule(path);

    const store = await opened(path);
    expect(store.diagnostics().schemaVersion).toBe(LATEST_VERSION);
    expect(await store.getSchedule(TENANT, 'report')).toMatchObject({
      key: 'report',
      spec: '*/5 * * * *',
      nextFireAt: T0,
      createdAt: T0,
    });
    expect(await store.countSchedules(TENANT)).toBe(1);
    await store.createTenant({ id: TENANT, quotas: QUOTAS, webhookSecret: 'whsec_x', now: T0 });
    expect((await store.getTenant(TENANT))?.quotas).toEqual(QUOTAS);
    await store.close();
  });

  it('upgrades a version 4 database to the schedule fields, counting the runs already executed', async () => {
    const path = tempFile();
    const db = new Database(path);
    db.exec('CREATE TABLE punctual_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT');
    for (const m of MIGRATIONS.slice(0, 4)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO punctual_migrations (version, name) VALUES (?, ?)').run(m.version, m.name);
    }
    db.close();
    insertV1Schedule(path);
    const raw = new Database(path);
    const run = raw.prepare(
      `INSERT INTO runs (tenant_id, schedule_id, schedule_key, schedule_version, kind, state, scheduled_for,
         due_at, priority, attempt, max_attempts, checks, overlap, not_fired_reported, created_at, started_at,
         finished_at)
       VALUES (?, 1, 'report', 1, 'scheduled', ?, ?, ?, 0, 1, 1, 0, 'allow', 0, ?, ?, ?)`,
    );
    run.run(TENANT, 'succeeded', T0, T0, T0, T0 + 10, T0 + 20);
    run.run(TENANT, 'dead', T0 + 300_000, T0 + 300_000, T0, T0 + 300_010, T0 + 300_020);
    run.run(TENANT, 'skipped', T0 + 600_000, T0 + 600_000, T0, null, T0 + 600_000);
    raw.close();

    const store = await opened(path);
    expect(store.diagnostics().schemaVersion).toBe(LATEST_VERSION);
    expect(await store.getSchedule(TENANT, 'report')).toMatchObject({
      key: 'report',
      summary: null,
      labels: {},
      materializedCount: 3,
      firedCount: 2,
      lastFiredAt: T0 + 300_010,
      lastSucceededAt: T0 + 20,
    });
    await store.close();
  });

  it('refuses a database migrated by a newer Punctual', async () => {
    const path = tempFile();
    await (await opened(path)).close();
    const db = new Database(path);
    db.prepare('INSERT INTO punctual_migrations (version, name) VALUES (?, ?)').run(
      LATEST_VERSION + 1,
      'future',
    );
    db.close();
    const store = sqliteStore({ path });
    await expect(store.migrate()).rejects.toMatchObject({ code: 'SCHEMA_TOO_NEW' });
    await store.close();
  });

  it('reports the applied and the expected schema version, creating nothing', async () => {
    const path = tempFile();
    const fresh = sqliteStore({ path });
    expect(await fresh.schemaVersion()).toEqual({ applied: 0, expected: LATEST_VERSION });
    await fresh.close();
    const raw = new Database(path, { readonly: true });
    expect(raw.prepare('SELECT name FROM sqlite_master').pluck().all()).toEqual([]);
    raw.close();

    const store = await opened(path);
    expect(await store.schemaVersion()).toEqual({ applied: LATEST_VERSION, expected: LATEST_VERSION });
    await store.close();
    const db = new Database(path);
    db.prepare('INSERT INTO punctual_migrations (version, name) VALUES (?, ?)').run(
      LATEST_VERSION + 1,
      'future',
    );
    db.close();
    const newer = sqliteStore({ path });
    expect(await newer.schemaVersion()).toEqual({ applied: LATEST_VERSION + 1, expected: LATEST_VERSION });
    await newer.close();
  });

  it('runs in WAL mode with synchronous=FULL by default', async () => {
    const store = await opened();
    expect(store.diagnostics()).toMatchObject({ journalMode: 'wal', synchronous: 'FULL' });
    await store.close();
    const relaxed = sqliteStore({ path: tempFile(), synchronous: 'NORMAL' });
    expect(relaxed.diagnostics().synchronous).toBe('NORMAL');
    await relaxed.close();
  });

  it('keeps its data when the file is reopened', async () => {
    const path = tempFile();
    const first = await opened(path);
    const { schedule } = await first.putSchedule({ draft: draft(), nextFireAt: T0, now: T0 });
    const [t] = await first.insertRuns([runInsert({ schedule })], T0);
    await first.close();
    const second = await opened(path);
    expect(await second.getSchedule(TENANT, schedule.key)).toEqual(schedule);
    expect((await second.getRun(TENANT, t!.run.id))?.run).toEqual(t!.run);
    await second.close();
  });

  it('rejects every call after close with STORE_CLOSED', async () => {
    const store = await opened();
    await store.close();
    await store.close();
    await expect(store.getSchedule(TENANT, 'x')).rejects.toMatchObject({ code: 'STORE_CLOSED' });
    await expect(store.claimRuns({ workerId: 'w', now: T0, limit: 1, leaseMs: 1 })).rejects.toMatchObject({
      code: 'STORE_CLOSED',
    });
  });

  it('claims due schedules without writing the database (the claims live in a TEMP table)', async () => {
    const path = tempFile();
    const store = await opened(path);
    const s = (await store.putSchedule({ draft: draft({ key: 'due' }), nextFireAt: T0, now: T0 })).schedule;
    const wal = () => statSync(`${path}-wal`).size;
    const before = wal();
    const req = { now: T0, horizon: T0, limit: 10, leaseMs: 60_000 };
    expect((await store.claimDueSchedules(req)).map((x) => x.key)).toEqual(['due']);
    expect(await store.claimDueSchedules(req)).toEqual([]);
    expect(wal()).toBe(before);
    const res = await store.advanceSchedule({
      tenantId: TENANT,
      scheduleId: s.id,
      version: s.version,
      expectedNextFireAt: T0,
      nextFireAt: T0,
      fired: 0,
      complete: false,
      runs: [],
      now: T0,
    });
    expect(res.status).toBe('advanced');
    expect(wal()).toBeGreaterThan(before);
    // The advance released the claim (its next occurrence moved, even to the same instant).
    expect((await store.claimDueSchedules(req)).map((x) => x.key)).toEqual(['due']);
    await store.close();
  });

  it(
    'finds due schedules from schedules_due with 200,000 active schedules',
    { timeout: 120_000 },
    async () => {
      const path = tempFile();
      const store = await opened(path);
      const due = await store.putSchedule({ draft: draft({ key: 'due' }), nextFireAt: T0, now: T0 });
      await store.close();
      const db = new Database(path);
      const hour = 3_600_000;
      // 200,000 active schedules due over the next hour, copies of the first one (one statement).
      db.prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000)
       INSERT INTO schedules (tenant_id, key, spec, spec_kind, tz, target_kind, target, payload, policies,
         overlap, jitter_ms, description, labels, state, version, next_fire_at, fired_count, created_at,
         updated_at)
       SELECT tenant_id, 'k' || i, spec, spec_kind, tz, target_kind, target, payload, policies, overlap,
         jitter_ms, description, labels, state, 1, ? + i % ?, 0, created_at, updated_at
       FROM schedules, n WHERE key = 'due'`,
      ).run(T0 + hour, hour);
      const plan = (sql: string, params: unknown): string =>
        (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[])
          .map((r) => r.detail)
          .join('\n');
      // Never schedules_state (state = 'active' is every schedule), never a sort: a range in index order.
      db.exec(SCHEDULE_CLAIMS_DDL);
      const claim = plan(CLAIM_DUE, {
        horizon: T0,
        now: T0,
        limit: 10,
        rollBackLeadMs: hour,
        from: T0 - hour,
      });
      expect(claim).toMatch(
        /SEARCH schedules USING (COVERING )?INDEX schedules_due \(next_fire_at>\? AND next_fire_at<\?\)/,
      );
      // The claims are a primary-key probe of the TEMP table per candidate.
      expect(claim).toMatch(/SEARCH c USING INTEGER PRIMARY KEY/);
      expect(claim).toMatch(/SEARCH schedules USING INDEX schedules_due_roll_back \(next_fire_at<\?\)/);
      expect(claim).not.toMatch(/schedules_state|TEMP B-TREE/);
      const overdue = plan(TAKE_OVERDUE, { cutoff: T0, limit: 10 });
      expect(overdue).toMatch(/SEARCH schedules USING INDEX schedules_due \(next_fire_at<\?\)/);
      expect(overdue).not.toMatch(/schedules_state|TEMP B-TREE/);
      expect(plan(NEXT_SCHEDULE_AT, [T0])).toMatch(/COVERING INDEX schedules_due \(next_fire_at>\?\)/);
      const pending = plan(PENDING_DUE, ['[1]', TENANT]);
      expect(pending).toMatch(/SEARCH runs USING INDEX runs_schedule_state \(schedule_id=\? AND state=\?\)/);
      expect(pending).not.toMatch(/runs_claim_tenant/);
      db.close();

      const big = await opened(path);
      const started = performance.now();
      const claimed = await big.claimDueSchedules({ now: T0, horizon: T0 + 1000, limit: 200, leaseMs: 1000 });
      const none = await big.claimDueSchedules({ now: T0, horizon: T0 + 1000, limit: 200, leaseMs: 1000 });
      const next = await big.nextScheduleAt();
      const late = await big.takeOverdueSchedules(T0 + 1000, 0, 10);
      const pendingAt = await big.pendingDueAt(TENANT, [due.schedule.id]);
      const elapsed = performance.now() - started;
      expect(claimed.map((s) => s.key)).toEqual(['due']);
      expect(none).toEqual([]);
      expect(next).toBe(T0);
      expect(late.map((s) => s.key)).toEqual(['due']);
      expect(pendingAt.size).toBe(0);
      // Each of these read and sorted every active schedule before: about 100 ms apiece, 450 ms for the
      // four on a quiet machine. The bound leaves room for a loaded one; the plans above are the exact check.
      expect(elapsed).toBeLessThan(250);
      await big.close();
    },
  );

  it('claims from the index with a million future runs pending', { timeout: 120_000 }, async () => {
    const path = tempFile();
    const store = await opened(path);
    const { schedule } = await store.putSchedule({ draft: draft(), nextFireAt: T0, now: T0 });
    await store.close();
    const db = new Database(path);
    const far = T0 + 365 * 24 * 3_600_000;
    // A million pending runs a year ahead, in two priority levels, written in one statement.
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000)
       INSERT INTO runs (tenant_id, schedule_id, schedule_key, schedule_version, holds_occurrence, occurrence_id,
         kind, state, scheduled_for, due_at, priority, attempt, max_attempts, checks, overlap,
         not_fired_reported, created_at)
       SELECT ?, ?, ?, 1, NULL, NULL, 'manual', 'scheduled', ? + i, ? + i, i % 2, 0, 3, 0, 'allow', 0, ?
       FROM n`,
    ).run(TENANT, Number(schedule.id), schedule.key, far, far, T0);
    const plan = (sql: string, params: unknown): string =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[])
        .map((r) => r.detail)
        .join('\n');
    const candidates = plan(CLAIM_CANDIDATES, {
      priority: 0,
      now: T0,
      dueBy: T0 + 100,
      afterDue: 0,
      afterId: 0,
      waiting: '[]',
      limit: 10,
    });
    expect(candidates).toMatch(/SEARCH r USING INDEX runs_claim \(priority=\? AND due_at>\? AND due_at<\?\)/);
    expect(candidates).not.toMatch(/SCAN r\b/);
    expect(plan(PRIORITY_LEVELS, [])).toMatch(/COVERING INDEX runs_claim/);
    // Stats and quota counts: index ranges only; the one SCAN of runs walks the running-only partial index.
    const due = plan(STATS_DUE, { now: T0 });
    expect(due).toMatch(/SEARCH runs USING COVERING INDEX runs_claim \(priority=\? AND due_at<\?\)/);
    expect(due).not.toMatch(/SCAN runs\b/);
    expect(plan(STATS_RUNNING, [])).toBe('SCAN runs USING COVERING INDEX runs_lease');
    // Schedule counts read the counters kept by triggers, never the schedules.
    expect(plan(STATS_SCHEDULES, [])).toMatch(/^SCAN schedule_counts\b/);
    expect(plan(COUNT_SCHEDULES, [TENANT])).toBe('SEARCH schedule_counts USING PRIMARY KEY (tenant_id=?)');
    expect(plan(COUNT_STARTED, [TENANT, T0])).toBe(
      'SEARCH runs USING COVERING INDEX runs_tenant_started (tenant_id=? AND started_at>?)',
    );
    // Expectations and failure rates: the expectation index holds only runs that expect something.
    expect(plan(DUE_EXPECTATIONS, [T0, 10])).toBe(
      'SEARCH runs USING INDEX runs_expect_due (expect_by>? AND expect_by<?)',
    );
    expect(plan(RECENT_OUTCOMES, [1, 10])).toMatch(
      /^SEARCH runs USING INDEX runs_schedule_finished \(schedule_id=\? AND finished_at>\?\)$/,
    );
    db.close();

    const big = await opened(path);
    await big.insertRuns([runInsert({ schedule, scheduledFor: T0 })], T0);
    // A record with an expectation (a skip: nothing to claim; it is taken from the index and not judged).
    await big.insertRuns(
      [
        runInsert({
          schedule,
          scheduledFor: T0 - 1,
          expectBy: T0,
          unique: false,
          state: 'skipped',
          reason: 'misfire',
        }),
      ],
      T0,
    );
    const startedExpect = performance.now();
    const nextExpect = await big.nextExpectationAt();
    const judged = await big.evaluateDueExpectations(T0, 100);
    const noneDue = await big.evaluateDueExpectations(T0, 100);
    const outcomes = await big.recentOutcomes(schedule.id, 10);
    const expectElapsed = performance.now() - startedExpect;
    expect([nextExpect, judged.judged, noneDue.judged, outcomes]).toEqual([T0, 1, 0, []]);
    expect(expectElapsed).toBeLessThan(50);
    const started = performance.now();
    const res = await big.claimRuns({ workerId: 'w', now: T0, limit: 100, leaseMs: 1000 });
    const empty = await big.claimRuns({ workerId: 'w', now: T0, limit: 100, leaseMs: 1000 });
    const nextDue = await big.nextRunDueAt();
    const notFired = await big.takeNotFired(T0 + 1000, 0, 10);
    const stats = await big.stats(T0 + 1000);
    const started1 = await big.countRunsStartedSince(TENANT, T0);
    const schedules = await big.countSchedules(TENANT);
    const elapsed = performance.now() - started;
    expect(res.claimed).toHaveLength(1);
    expect(empty.claimed).toHaveLength(0);
    expect(nextDue).toBe(far + 1);
    expect(notFired).toHaveLength(0);
    expect(stats).toEqual({
      dueRuns: 0,
      runningRuns: 1,
      schedulesByState: { active: 1, paused: 0, completed: 0 },
      oldestDueAt: null,
    });
    expect([started1, schedules]).toEqual([1, 1]);
    expect(elapsed).toBeLessThan(50);
    await big.close();
  });
});
