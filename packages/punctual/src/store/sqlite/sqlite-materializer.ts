// The materializer's side of the SQLite store: claiming due schedules (a TEMP table of claims, below), the
// compare-and-set advance that inserts a schedule's runs (one schedule, or a batch in one transaction), the
// earliest next occurrence, and the overdue schedules of "not fired" detection. The same slot as
// postgres-materializer.ts. It must never read a clock: `now` always arrives as a parameter.

import type { Schedule } from '../../domain/schedule.js';
import type { Advance, AdvanceResult, ScheduleClaim } from '../store.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { parseId, toSchedule, type ScheduleReadRow, type ScheduleRow } from './sqlite-rows.js';
import { EXECUTIONS_JOIN, executionsOf, WITH_EXECUTIONS } from './sqlite-executions.js';
import { insertRuns } from './sqlite-runs.js';

// Why the statements over due schedules name their index (INDEXED BY schedules_due): `state = 'active'` matched
// schedules_state (state) until migration 0019 dropped it, and without table statistics SQLite took that
// equality over the next_fire_at range: it then read every active schedule and sorted them, on every
// materializer step (116 ms at 200,000 schedules, ~0.6 s at 1,000,000). INDEXED BY keeps the plan an index
// range whatever the statistics say and whatever index a later migration adds.

// The schedules that roll back (`roll: "previous"`): schedules_due_roll_back's predicate, word for word.
const ROLLS_BACK = `state = 'active' AND json_extract(calendar_rules, '$.businessDays.roll') = 'previous'`;

// Compare-and-set: only the version and next occurrence the materializer read may be advanced.
const ADVANCE = `
  UPDATE schedules SET next_fire_at = @nextFireAt, fired_count = fired_count + @fired,
    state = CASE WHEN @complete = 1 THEN 'completed' ELSE state END
  WHERE id = @id AND tenant_id = @tenantId AND version = @version AND next_fire_at IS @expected
    AND state = 'active'`;

// One probe of schedules_due (its first non-null entry).
export const NEXT_SCHEDULE_AT =
  "SELECT MIN(next_fire_at) AS v FROM schedules INDEXED BY schedules_due WHERE state = 'active' AND next_fire_at >= ?";

// One probe of schedules_due_roll_back.
const NEXT_ROLLING_BACK_AT = `SELECT MIN(next_fire_at) AS v FROM schedules INDEXED BY schedules_due_roll_back
  WHERE ${ROLLS_BACK}`;

// The claims of due schedules are kept in a TEMP table of the store's own connection instead of the
// schedule row. A claim only spreads work between materializers (advance's compare-and-set decides), and the
// SQLite store is one process (capabilities.multiInstance is false), so the claim need not be durable;
// written to the row, it cost a WAL page per claimed schedule (4 kB per run,
// bench/results/2026-11-26-wal-per-run.md), since a batch's due schedules lie on different pages. A TEMP
// table is not in the database file: its writes never reach the WAL. A temporary trigger drops a schedule's
// claim whenever a write changes what the materializer reads of it (next occurrence, version, state: put,
// pause, resume, advance, a calendar's rewind), as writing `claimed_until = NULL` with them did.

/** The claims table and the trigger that drops a claim when its schedule changes (idempotent). */
export const SCHEDULE_CLAIMS_DDL = `
  CREATE TEMP TABLE IF NOT EXISTS schedule_claims (id INTEGER PRIMARY KEY, until INTEGER NOT NULL);
  CREATE TEMP TRIGGER IF NOT EXISTS schedule_claims_drop
    AFTER UPDATE OF next_fire_at, version, state, updated_at ON main.schedules
    BEGIN DELETE FROM schedule_claims WHERE id = NEW.id; END;
  CREATE TEMP TRIGGER IF NOT EXISTS schedule_claims_gone AFTER DELETE ON main.schedules
    BEGIN DELETE FROM schedule_claims WHERE id = OLD.id; END;`;

/** Not claimed, or its claim lapsed by @now (a primary-key probe of the TEMP table). */
const UNCLAIMED = `NOT EXISTS (SELECT 1 FROM temp.schedule_claims AS c WHERE c.id = schedules.id AND c.until > @now)`;

// A range of schedules_due, in its order (no sort), and one of schedules_due_roll_back reaching
// @rollBackLeadMs further. INDEXED BY: see above (without statistics SQLite took an equality on state, over
// schedules_state until migration 0019, instead of the next_fire_at range).
export const CLAIM_DUE = `
  SELECT ${WITH_EXECUTIONS} FROM schedules ${EXECUTIONS_JOIN}
  WHERE schedules.id IN (
    SELECT id FROM (
      SELECT id FROM schedules INDEXED BY schedules_due
      WHERE state = 'active' AND next_fire_at <= @horizon AND next_fire_at >= @from AND ${UNCLAIMED}
      ORDER BY next_fire_at, id LIMIT @limit)
    UNION ALL
    SELECT id FROM (
      SELECT id FROM schedules INDEXED BY schedules_due_roll_back
      WHERE ${ROLLS_BACK} AND next_fire_at <= @horizon + @rollBackLeadMs AND ${UNCLAIMED}
      ORDER BY next_fire_at, id LIMIT @limit))`;

const CLAIM = 'INSERT OR REPLACE INTO temp.schedule_claims (id, until) VALUES (?, ?)';

/** Connections whose TEMP table and triggers exist. */
const ready = new WeakSet<SqliteDatabase>();

export function claimDueSchedules(sql: SqliteDatabase, req: ScheduleClaim): Schedule[] {
  if (req.limit <= 0) return [];
  if (!ready.has(sql)) {
    // Preparing a statement on schedules first: a database never migrated is STORE_NOT_MIGRATED, not the
    // trigger's "no such table".
    sql.stmt('SELECT 1 FROM schedules LIMIT 0');
    sql.exec(SCHEDULE_CLAIMS_DDL);
    ready.add(sql);
  }
  const rows = sql.write(() => {
    const due = sql.stmt(CLAIM_DUE).all({
      horizon: req.horizon,
      now: req.now,
      limit: req.limit,
      rollBackLeadMs: req.rollBackLeadMs ?? 0,
      from: req.from ?? Number.MIN_SAFE_INTEGER,
    }) as ScheduleReadRow[];
    const claim = sql.stmt(CLAIM);
    for (const r of due) claim.run(r.id, req.now + req.leaseMs);
    return due;
  });
  return rows.sort((a, b) => (a.next_fire_at ?? 0) - (b.next_fire_at ?? 0) || a.id - b.id).map(toSchedule);
}

export function advanceSchedule(sql: SqliteDatabase, a: Advance): AdvanceResult {
  return sql.write(() => advanceIn(sql, a));
}

/**
 * Several advances in one transaction (one commit), each its own compare-and-set; results in input order.
 * No savepoint per advance: one that throws rolls the whole transaction back anyway, and a savepoint copies
 * every page the advance changes into SQLite's sub-journal (about 50 kB per run, written to a temporary
 * file once it outgrew memory: bench/results/2026-11-26-sqlite-million-2.md).
 */
export function advanceSchedules(sql: SqliteDatabase, advances: Advance[]): AdvanceResult[] {
  return sql.write(() => advances.map((a) => advanceIn(sql, a)));
}

/** One compare-and-set advance and its runs, inside the caller's transaction. */
function advanceIn(sql: SqliteDatabase, a: Advance): AdvanceResult {
  const id = parseId(a.scheduleId);
  if (id === undefined) return { status: 'conflict', transitions: [] };
  const { changes } = sql.stmt(ADVANCE).run({
    id,
    tenantId: a.tenantId,
    version: a.version,
    expected: a.expectedNextFireAt,
    nextFireAt: a.nextFireAt,
    fired: a.fired,
    complete: a.complete ? 1 : 0,
  });
  if (changes === 0) return { status: 'conflict', transitions: [] };
  return { status: 'advanced', transitions: insertRuns(sql, a.runs, a.now) };
}

export function nextRollingBackAt(sql: SqliteDatabase): number | null {
  const row = sql.read(() => sql.stmt(NEXT_ROLLING_BACK_AT).get()) as { v: number | null };
  return row.v;
}

export function nextScheduleAt(sql: SqliteDatabase, from?: number): number | null {
  const row = sql.read(() => sql.stmt(NEXT_SCHEDULE_AT).get(from ?? Number.MIN_SAFE_INTEGER)) as {
    v: number | null;
  };
  return row.v;
}

// schedules_due range: active schedules whose next occurrence passed the cutoff, not reported for it yet
// (reported ones stay few: they are overdue). INDEXED BY: see above.
export const TAKE_OVERDUE = `
  UPDATE schedules SET not_fired_at = next_fire_at
  WHERE id IN (SELECT id FROM schedules INDEXED BY schedules_due
               WHERE state = 'active' AND next_fire_at < @cutoff
                 AND (not_fired_at IS NULL OR not_fired_at <> next_fire_at)
               ORDER BY next_fire_at, id LIMIT @limit)
  RETURNING *`;

/** Overdue schedules (nothing materialised their next occurrence within the grace), each returned once. */
export function takeOverdueSchedules(
  sql: SqliteDatabase,
  now: number,
  graceMs: number,
  limit: number,
): Schedule[] {
  if (limit <= 0) return [];
  const rows = sql.write(() =>
    (sql.stmt(TAKE_OVERDUE).all({ cutoff: now - graceMs, limit }) as ScheduleRow[]).map(
      (r): ScheduleReadRow => ({ ...r, ...executionsOf(sql, r.id) }),
    ),
  );
  return rows
    .map(toSchedule)
    .sort((a, b) => (a.nextFireAt ?? 0) - (b.nextFireAt ?? 0) || Number(a.id) - Number(b.id));
}
