// Expectations and failure rates on SQLite: runs whose `expect_by` came due are taken from the partial index
// runs_expect_due (only runs of schedules that expect something are in it), marked judged (expect_by NULL)
// and turned into `expectation_breached` opens or clearances in the same BEGIN IMMEDIATE transaction; and the
// outcomes of a schedule's latest executed runs are read from runs_schedule_finished. It must never read a
// clock (`now` is a parameter), nor scan runs outside those indexes.

import type { Alert } from '../../domain/alert.js';
import { expectationOps, type DueExpectation } from '../../domain/schedule-expect.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { openOne, resolveOne } from './sqlite-alerts.js';
import { scheduleIdOf } from './sqlite-runs.js';

interface DueRow {
  id: number;
  tenant_id: string;
  schedule_key: string;
  scheduled_for: number;
  expect_by: number;
  state: string;
  finished_at: number | null;
}

export const DUE_EXPECTATIONS = `
  SELECT id, tenant_id, schedule_key, scheduled_for, expect_by, state, finished_at
  FROM runs INDEXED BY runs_expect_due WHERE expect_by IS NOT NULL AND expect_by <= ?
  ORDER BY expect_by, id LIMIT ?`;

/**
 * Judges up to `limit` expectations due at `now`; returns how many it judged and the alerts opened and
 * resolved, in order (repeated verdicts about one schedule are written once: expectationOps).
 */
export function evaluateDueExpectations(
  sql: SqliteDatabase,
  now: number,
  limit: number,
): { judged: number; alerts: Alert[] } {
  return sql.write(() => {
    const rows = sql.stmt(DUE_EXPECTATIONS).all(now, limit) as DueRow[];
    const judged = sql.stmt('UPDATE runs SET expect_by = NULL WHERE id = ?');
    for (const r of rows) judged.run(r.id);
    const out: Alert[] = [];
    for (const v of expectationOps(rows.map(dueOf))) {
      if ('open' in v) {
        const a = openOne(sql, v.open, now);
        if (a) out.push(a);
      } else out.push(...resolveOne(sql, v.clear, now));
    }
    return { judged: rows.length, alerts: out };
  });
}

function dueOf(r: DueRow): DueExpectation {
  return {
    tenantId: r.tenant_id,
    scheduleKey: r.schedule_key,
    runId: String(r.id),
    scheduledFor: r.scheduled_for,
    expectBy: r.expect_by,
    state: r.state,
    finishedAt: r.finished_at,
  };
}

/** The earliest instant an expectation comes due, or null (one probe of runs_expect_due). */
export function nextExpectationAt(sql: SqliteDatabase): number | null {
  return sql.read(
    () =>
      sql
        .pluck('SELECT MIN(expect_by) FROM runs INDEXED BY runs_expect_due WHERE expect_by IS NOT NULL')
        .get() as number | null,
  );
}

/** The states (succeeded or dead) of a schedule's latest `limit` executed runs, newest first. */
export const RECENT_OUTCOMES = `
  SELECT state FROM runs INDEXED BY runs_schedule_finished
  WHERE schedule_id = ? AND finished_at IS NOT NULL AND state IN ('succeeded', 'dead')
  ORDER BY finished_at DESC LIMIT ?`;

export function recentOutcomes(sql: SqliteDatabase, scheduleId: string, limit: number): string[] {
  const id = scheduleIdOf(scheduleId);
  return sql.read(() => sql.pluck(RECENT_OUTCOMES).all(id, limit) as string[]);
}
