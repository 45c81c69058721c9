// A schedule's executed counts in the SQLite store (firedCount, lastFiredAt, lastSucceededAt): the narrow
// table schedule_executions (migration 0020; triggers insert a schedule's row with the schedule and delete
// it with the schedule), updated once per settled run that executed to an outcome, and joined to the
// schedule row wherever a schedule is read. The settlement writes here rather than to the
// schedule row because a boundary's schedules lie on scattered pages: the narrow rows pack about 160
// schedules a page, the schedule rows a few. It must never read a clock.

import type { SqliteDatabase } from './sqlite-database.js';

/** The three values, as the shared decoding reads them. */
export interface ExecutionColumns {
  executed_count: number;
  last_fired_at: number | null;
  last_succeeded_at: number | null;
}

/** What a schedule that never executed a run shows (its row as the schedule's insert made it). */
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

// A run executed to an outcome (succeeded or dead) counts on its schedule: instants only move forward. An
// update in place of the row the schedule's insert made (a settlement after its schedule was deleted matches
// nothing).
const RECORD = `
  UPDATE schedule_executions SET executed_count = executed_count + 1,
    last_fired_at = MAX(COALESCE(last_fired_at, @firedAt), @firedAt),
    last_succeeded_at = CASE WHEN @succeeded = 1
      THEN MAX(COALESCE(last_succeeded_at, @now), @now) ELSE last_succeeded_at END
  WHERE schedule_id = @scheduleId`;

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
