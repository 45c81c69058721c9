// Run statements shared by several store operations: inserting runs (unique occurrences ON CONFLICT DO
// NOTHING, with a wake-up hint), cancelling a schedule's pending runs, and turning changed rows into
// transitions. Every function runs inside the caller's transaction; none reads a clock (`now` is passed).

import { PunctualError } from '../../errors.js';
import { type RunReason, type RunState } from '../../domain/run.js';
import type { RunInsert, Transition } from '../store.js';
import { runTransitions } from '../common/transitions.js';
import type { PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';
import { ID_RE, jsonParam, RUN_COLUMNS, toRun, type RunRow } from './postgres-rows.js';

/** A schedule id as the BIGINT it names; SCHEDULE_NOT_FOUND when it cannot name a row. */
export function scheduleIdOf(id: string): string {
  if (!ID_RE.test(id)) throw new PunctualError('SCHEDULE_NOT_FOUND', `no schedule with id ${id}`, { id });
  return id;
}

export function transitionsOf(rows: RunRow[], from: RunState | null): Transition[] {
  return runTransitions(rows.map(toRun), from);
}

/**
 * The INSERT of runs from arrays: parameters $first to $first+15 are the columns (runValues), $first+16 now,
 * $first+17 the expect_by column.
 * `guard` (SQL) must hold for anything to be inserted. Unique occurrences (`unique`) hold their
 * (schedule_id, scheduled_for) in runs_occurrence (`holds_occurrence`, migration 27) and a duplicate is
 * silently left out. The occurrence id is derived, never
 * written (common/occurrence-id.ts).
 */
export function insertRunsSql(s: string, first: number, guard = 'true'): string {
  const $ = (i: number) => `$${first + i}`;
  const now = `${$(16)}::bigint`;
  return `
    INSERT INTO ${s}.runs (tenant_id, schedule_id, schedule_key, schedule_version, holds_occurrence,
      kind, state, scheduled_for, due_at, expires_at, priority, max_attempts, overlap, payload,
      reason, details, created_at, finished_at, expect_by)
    SELECT u.tenant_id, u.schedule_id, u.schedule_key, u.schedule_version, u.holds_occurrence, u.kind,
           u.state, u.scheduled_for, u.due_at, u.expires_at, u.priority, u.max_attempts, u.overlap,
           u.payload::jsonb, u.reason, u.details::jsonb,
           ${now}, CASE WHEN u.state = 'scheduled' THEN NULL ELSE ${now} END, u.expect_by
      FROM unnest(${$(0)}::text[], ${$(1)}::bigint[], ${$(2)}::text[], ${$(3)}::int[], ${$(4)}::boolean[],
                  ${$(5)}::text[], ${$(6)}::text[], ${$(7)}::bigint[], ${$(8)}::bigint[], ${$(9)}::bigint[],
                  ${$(10)}::int[], ${$(11)}::int[], ${$(12)}::text[], ${$(13)}::text[], ${$(14)}::text[],
                  ${$(15)}::text[], ${$(17)}::bigint[])
        WITH ORDINALITY AS u(tenant_id, schedule_id, schedule_key, schedule_version, holds_occurrence, kind,
                             state, scheduled_for, due_at, expires_at, priority, max_attempts, overlap,
                             payload, reason, details, expect_by, n)
     WHERE ${guard}
     ORDER BY u.n
    ON CONFLICT (schedule_id, scheduled_for) WHERE holds_occurrence DO NOTHING
    RETURNING ${RUN_COLUMNS.join(', ')}`;
}

/** The values of insertRunsSql, in order (the column arrays, then now, then expect_by). */
export function runValues(runs: RunInsert[], now: number): unknown[] {
  return [
    runs.map((r) => r.tenantId),
    runs.map((r) => scheduleIdOf(r.scheduleId)),
    runs.map((r) => r.scheduleKey),
    runs.map((r) => r.scheduleVersion),
    runs.map((r) => (r.unique ? true : null)),
    runs.map((r) => r.kind),
    runs.map((r) => r.state),
    runs.map((r) => r.scheduledFor),
    runs.map((r) => r.dueAt),
    runs.map((r) => r.expiresAt),
    runs.map((r) => r.priority),
    runs.map((r) => r.maxAttempts),
    runs.map((r) => r.overlap),
    runs.map((r) => jsonParam(r.payload)),
    runs.map((r) => r.reason),
    runs.map((r) => jsonParam(r.details)),
    now,
    runs.map((r) => r.expectBy ?? null),
  ];
}

/** Inserts runs in one statement (insertRunsSql); queues a wake-up for the earliest inserted scheduled run. */
export async function insertRunRows(
  db: PgDb,
  c: PgQueryable,
  runs: RunInsert[],
  now: number,
): Promise<Transition[]> {
  if (runs.length === 0) return [];
  const { rows } = await c.query<RunRow>(insertRunsSql(db.s, 1), runValues(runs, now));
  const transitions = transitionsOf(rows, null);
  const due = transitions.filter((t) => t.to === 'scheduled').map((t) => t.run.dueAt);
  if (due.length > 0) await db.notifyWake(c, Math.min(...due));
  return transitions;
}

/**
 * Cancels the schedule's `scheduled` runs, releasing their occurrences so a new version of the schedule
 * can materialise the same instants again.
 */
export async function cancelScheduledRuns(
  db: PgDb,
  c: PgQueryable,
  scheduleId: string,
  reason: RunReason,
  now: number,
): Promise<Transition[]> {
  const { rows } = await c.query<RunRow>(
    `UPDATE ${db.s}.runs SET state = 'cancelled', reason = $2, finished_at = $3, holds_occurrence = NULL
      WHERE schedule_id = $1 AND state = 'scheduled'
      RETURNING *`,
    [scheduleId, reason, now],
  );
  return transitionsOf(rows, 'scheduled');
}

/** Pausing: the schedule's materialised occurrences waiting to run become skipped (paused); manual runs stay. */
export async function skipPausedRuns(
  db: PgDb,
  c: PgQueryable,
  scheduleId: string,
  now: number,
): Promise<Transition[]> {
  const { rows } = await c.query<RunRow>(
    `UPDATE ${db.s}.runs SET state = 'skipped', reason = 'paused', finished_at = $2, holds_occurrence = NULL
      WHERE schedule_id = $1 AND state = 'scheduled' AND kind = 'scheduled'
      RETURNING *`,
    [scheduleId, now],
  );
  return transitionsOf(rows, 'scheduled');
}
