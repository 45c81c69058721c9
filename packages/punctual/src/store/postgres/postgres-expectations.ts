// Expectations and failure rates on PostgreSQL: runs whose `expect_by` came due are taken from the partial
// index runs_expect_due (only runs of schedules that expect something are in it) with FOR UPDATE SKIP
// LOCKED, so each is judged by one instance, marked judged (expect_by NULL) and turned into
// `expectation_breached` opens or clearances in the same transaction; and the outcomes of a schedule's latest
// executed runs are read from runs_schedule_finished. It must never read a clock (`now` is a parameter), nor
// put input into SQL text.

import type { Alert } from '../../domain/alert.js';
import { expectationOps } from '../../domain/schedule-expect.js';
import type { PgDb } from './postgres-database.js';
import { openOne, resolveOne } from './postgres-alerts.js';
import { scheduleIdOf } from './postgres-runs.js';

interface DueRow {
  id: string;
  tenant_id: string;
  schedule_key: string;
  scheduled_for: string;
  expect_by: string;
  state: string;
  finished_at: string | null;
}

/** Takes and marks judged the runs whose expect_by is due ($1 now, $2 limit), from runs_expect_due. */
export function dueExpectationsSql(s: string): string {
  return `WITH due AS (
      SELECT id, expect_by FROM ${s}.runs
      WHERE expect_by IS NOT NULL AND expect_by <= $1
      ORDER BY expect_by, id LIMIT $2 FOR UPDATE SKIP LOCKED)
    UPDATE ${s}.runs r SET expect_by = NULL FROM due WHERE r.id = due.id
    RETURNING r.id::text AS id, r.tenant_id, r.schedule_key, r.scheduled_for, due.expect_by, r.state,
              r.finished_at`;
}

/**
 * Judges up to `limit` expectations due at `now`; returns how many it judged and the alerts opened and
 * resolved, in order (repeated verdicts about one schedule are written once: expectationOps).
 */
export async function evaluateDueExpectations(
  db: PgDb,
  now: number,
  limit: number,
): Promise<{ judged: number; alerts: Alert[] }> {
  return db.tx(async (c) => {
    const { rows } = await c.query<DueRow>(dueExpectationsSql(db.s), [now, limit]);
    rows.sort((a, b) => Number(a.expect_by) - Number(b.expect_by) || Number(a.id) - Number(b.id));
    const dues = rows.map((r) => ({
      tenantId: r.tenant_id,
      scheduleKey: r.schedule_key,
      runId: r.id,
      scheduledFor: Number(r.scheduled_for),
      expectBy: Number(r.expect_by),
      state: r.state,
      finishedAt: r.finished_at === null ? null : Number(r.finished_at),
    }));
    const out: Alert[] = [];
    for (const v of expectationOps(dues)) {
      if ('open' in v) {
        const a = await openOne(db, c, v.open, now);
        if (a) out.push(a);
      } else out.push(...(await resolveOne(db, c, v.clear, now)));
    }
    return { judged: rows.length, alerts: out };
  });
}

/** The earliest instant an expectation comes due, or null (one probe of runs_expect_due). */
export async function nextExpectationAt(db: PgDb): Promise<number | null> {
  const rows = await db.query<{ at: string | null }>(
    `SELECT min(expect_by) AS at FROM ${db.s}.runs WHERE expect_by IS NOT NULL`,
  );
  const at = rows[0]?.at ?? null;
  return at === null ? null : Number(at);
}

/** The states (succeeded or dead) of a schedule's latest `limit` executed runs, newest first. */
export async function recentOutcomes(db: PgDb, scheduleId: string, limit: number): Promise<string[]> {
  const rows = await db.query<{ state: string }>(
    `SELECT state FROM ${db.s}.runs
     WHERE schedule_id = $1 AND finished_at IS NOT NULL AND state IN ('succeeded', 'dead')
     ORDER BY finished_at DESC, id DESC LIMIT $2`,
    [scheduleIdOf(scheduleId), limit],
  );
  return rows.map((r) => r.state);
}
