// A schedule's executed counts in the SQLite store (firedCount, lastFiredAt, lastSucceededAt): the narrow
// table schedule_executions (migration 0020), written once per settled run that executed to an outcome, and
// joined to the schedule row wherever a schedule is read. The settlement writes here rather than to the
// schedule row because a boundary's schedules lie on scattered pages: the narrow rows pack about 150
// schedules a page, the schedule rows a few. It must never read a clock.

import type { SqliteDatabase } from './sqlite-database.js';

/** The three values, as the shared decoding reads them. */
export interface ExecutionColumns {
  executed_count: number;
  last_fired_at: number | null;
  last_succeeded_at: number | null;
}

/** What a schedule that never executed a run shows (it has no row). */
export const NO_EXECUTIONS: ExecutionColumns = {
  executed_count: 0,
  last_fired_at: null,
  last_succeeded_at: null,
};

/** Select list and join that put the counts beside `schedules.*` (a primary-key probe per schedule). */
export const WITH_EXECUTIONS = `schedules.*, COALESCE(e.executed_count, 0) AS executed_count,
  e.last_fired_at AS last_fired_at, e.last_succeeded_at AS last_succeeded_at`;
export const EXECUTIONS_JOIN = 'LEFT JOIN schedule_executions AS e ON e.schedule_id = schedules.id';

const GET = `
  SELECT executed_count, last_fired_at, last_succeeded_at FROM schedule_executions WHERE schedule_id = ?`;

// A run executed to an outcome (succeeded or dead) counts on its schedule: instants only move forward. A
// settlement that comes after its schedule was deleted counts nowhere (the schedule's page is read, not
// written).
const RECORD = `
  INSERT INTO schedule_executions (schedule_id, executed_count, last_fired_at, last_succeeded_at)
  SELECT @scheduleId, 1, @firedAt, CASE WHEN @succeeded = 1 THEN @now END
  WHERE EXISTS (SELECT 1 FROM schedules WHERE id = @scheduleId)
  ON CONFLICT (schedule_id) DO UPDATE SET executed_count = executed_count + 1,
    last_fired_at = MAX(COALESCE(last_fired_at, excluded.last_fired_at), excluded.last_fired_at),
    last_succeeded_at = CASE WHEN @succeeded = 1
      THEN MAX(COALESCE(last_succeeded_at, @now), @now) ELSE last_succeeded_at END`;

const FORGET = 'DELETE FROM schedule_executions WHERE schedule_id = ?';

/** The counts of one schedule (a primary-key probe), for rows that come back from a write's RETURNING. */
export function executionsOf(sql: SqliteDatabase, scheduleId: number): ExecutionColumns {
  return (sql.stmt(GET).get(scheduleId) as ExecutionColumns | undefined) ?? NO_EXECUTIONS;
}

/** The three values of a row read WITH_EXECUTIONS (to carry them onto a later RETURNING of the same row). */
export function executionsIn(row: ExecutionColumns): ExecutionColumns {
  return {
    executed_count: row.executed_count,
    last_fired_at: row.last_fired_at,
    last_succeeded_at: row.last_succeeded_at,
  };
}

/** Counts one run executed to an outcome; the caller is inside the settlement's transaction. */
export function recordExecution(
  sql: SqliteDatabase,
  e: { scheduleId: number; firedAt: number; succeeded: boolean; now: number },
): void {
  sql
    .stmt(RECORD)
    .run({ scheduleId: e.scheduleId, firedAt: e.firedAt, succeeded: e.succeeded ? 1 : 0, now: e.now });
}

/** A deleted schedule's counts go with it; the caller is inside the delete's transaction. */
export function forgetExecutions(sql: SqliteDatabase, scheduleId: number): void {
  sql.stmt(FORGET).run(scheduleId);
}
