// Lease-holding writes of the SQLite store: extending leases, settling runs, reclaiming lapsed leases and
// cancelling a run. The lease token is the fence: every write to a running run names its token, so a worker
// that lost its lease (reclaimed, cancelled) can no longer change the run. It must never read a clock.

import { PunctualError } from '../../errors.js';
import type { Attempt, RunError, RunState } from '../../domain/run.js';
import { settledRun } from '../settled-run.js';
import { endedBeforeDelivery, settledStartedAt, type Settlement, type Transition } from '../store.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { recordExecution } from './sqlite-executions.js';
import { parseId, toJson, toRun, type RunRow } from './sqlite-rows.js';
import { changed } from './sqlite-runs.js';

const EXTEND = `
  UPDATE runs SET lease_expires_at = ? WHERE id = ? AND lease_token = ? AND state = 'running'`;

// No RETURNING: the settled run is known from the run as claimed (settledRun).
const FENCE = `WHERE id = @id AND state = 'running' AND lease_token = @token`;
const RELEASE_LEASE = 'lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL';

// The successful attempt stays on the run row when it says nothing the row does not (migration 0020):
// @succeededBy is its worker, or NULL when it is written as an attempts row instead (sqlite-queries.ts reads
// both).
const SUCCEED = `
  UPDATE runs SET state = 'succeeded', result = @result, reason = NULL, error = NULL, finished_at = @now,
    started_at = @startedAt, ${RELEASE_LEASE}, succeeded_by = @succeededBy,
    attempt_started_at = CASE WHEN @succeededBy IS NULL THEN attempt_started_at ELSE @attemptStartedAt END,
    attempt_finished_at = CASE WHEN @succeededBy IS NULL THEN NULL ELSE @attemptFinishedAt END
  ${FENCE}`;

// retry keeps the attempt count; checkAgain starts a fresh count for the next check; released hands the
// attempt back (a graceful stop is not a failure).
const RESCHEDULE = `
  UPDATE runs SET state = 'scheduled', due_at = @dueAt, reason = @reason, error = @error,
    not_fired_reported = 0, started_at = @startedAt, ${RELEASE_LEASE},
    checks = checks + (@reason = 'checkAgain'),
    attempt = CASE @reason WHEN 'checkAgain' THEN 0 WHEN 'released' THEN MAX(attempt - 1, 0) ELSE attempt END
  ${FENCE}`;

const KILL = `
  UPDATE runs SET state = 'dead', error = @error, reason = NULL, finished_at = @now, started_at = @startedAt,
    ${RELEASE_LEASE}
  ${FENCE}`;

// Ended before its delivery started: the attempt the claim counted is handed back.
const END_HELD = `
  UPDATE runs SET state = @state, reason = @reason, finished_at = @now, started_at = @startedAt,
    attempt = MAX(attempt - 1, 0), ${RELEASE_LEASE}
  ${FENCE}`;

const INSERT_ATTEMPT = `
  INSERT INTO attempts (tenant_id, run_id, attempt, worker_id, started_at, finished_at, outcome, error, result)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;

// Uses runs_lease. Strictly before now: a lease is held up to and including its expiry instant.
const LAPSED = `
  SELECT * FROM runs WHERE state = 'running' AND lease_expires_at < ? ORDER BY lease_expires_at, id LIMIT ?`;

// Out of attempts → dead; otherwise due again at once. The token is cleared so the old worker is refused.
const RECLAIM = `
  UPDATE runs SET reason = 'leaseExpired', error = @error, ${RELEASE_LEASE},
    state = CASE WHEN attempt >= max_attempts THEN 'dead' ELSE 'scheduled' END,
    due_at = CASE WHEN attempt >= max_attempts THEN due_at ELSE @now END,
    finished_at = CASE WHEN attempt >= max_attempts THEN @now ELSE NULL END,
    not_fired_reported = 0
  WHERE id = @id AND state = 'running'
  RETURNING *`;

const CANCEL = `
  UPDATE runs SET state = 'cancelled', reason = 'manual', finished_at = @now, ${RELEASE_LEASE}
  WHERE id = @id AND tenant_id = @tenantId AND state IN ('scheduled', 'running')
  RETURNING *`;

const RUN_STATE = 'SELECT state FROM runs WHERE id = ? AND tenant_id = ?';

const LEASE_EXPIRED: RunError = {
  code: 'LEASE_EXPIRED',
  message: "the worker's lease lapsed before it settled the run",
};

export function extendLeases(
  sql: SqliteDatabase,
  leases: { runId: string; token: string }[],
  until: number,
): string[] {
  if (leases.length === 0) return [];
  return sql.write(() => {
    const extend = sql.stmt(EXTEND);
    return leases
      .filter((l) => {
        const id = parseId(l.runId);
        return id !== undefined && extend.run(until, id, l.token).changes > 0;
      })
      .map((l) => l.runId);
  });
}

export function settleRuns(
  sql: SqliteDatabase,
  settlements: Settlement[],
  now: number,
): (Transition | null)[] {
  if (settlements.length === 0) return [];
  return sql.write(() => settleIn(sql, settlements, now));
}

/** settleRuns inside the caller's transaction (settleAndClaim: no savepoint of its own). */
export function settleIn(sql: SqliteDatabase, settlements: Settlement[], now: number): (Transition | null)[] {
  return settlements.map((s) => settleOne(sql, s, now));
}

function settleOne(sql: SqliteDatabase, s: Settlement, now: number): Transition | null {
  const id = parseId(s.runId);
  if (id === undefined) return null;
  const fence = { id, token: s.token, now, startedAt: settledStartedAt(s) };
  const o = s.outcome;
  let changes: number;
  let onRow = false;
  switch (o.state) {
    case 'succeeded': {
      const result = toJson(o.result);
      onRow = keptOnRow(s, result);
      changes = sql.stmt(SUCCEED).run({
        ...fence,
        result,
        succeededBy: onRow ? s.attempt.workerId : null,
        attemptStartedAt: s.attempt.startedAt,
        attemptFinishedAt: s.attempt.finishedAt,
      }).changes;
      break;
    }
    case 'scheduled':
      changes = sql
        .stmt(RESCHEDULE)
        .run({ ...fence, dueAt: o.dueAt, reason: o.reason, error: toJson(o.error) }).changes;
      break;
    case 'dead':
      changes = sql.stmt(KILL).run({ ...fence, error: toJson(o.error) }).changes;
      break;
    case 'cancelled':
    case 'skipped':
    case 'expired':
      changes = sql.stmt(END_HELD).run({ ...fence, state: o.state, reason: o.reason }).changes;
      break;
  }
  if (changes === 0) return null;
  if (!onRow && !endedBeforeDelivery(o)) insertAttempt(sql, s.run.tenantId, id, s.attempt);
  if (o.state === 'succeeded' || o.state === 'dead') {
    // firedCount, lastFiredAt (when it started delivery), lastSucceededAt: schedule_executions.
    recordExecution(sql, {
      scheduleId: parseId(s.run.scheduleId) ?? -1,
      firedAt: fence.startedAt ?? s.attempt.startedAt,
      succeeded: o.state === 'succeeded',
      now,
    });
  }
  return { run: settledRun(s.run, o, now, fence.startedAt), from: 'running', to: o.state };
}

/**
 * Whether a success's attempt can live on its run row: everything it says but its worker and its start and
 * end is already there (the attempt number, outcome succeeded, no error, the run's result). Otherwise it is an
 * attempts row, as every attempt was before migration 0020. One row and one attempts_run entry less per run.
 */
function keptOnRow(s: Settlement, result: string | null): boolean {
  const a = s.attempt;
  return (
    a.outcome === 'succeeded' &&
    a.runId === s.runId &&
    a.attempt === s.run.attempt &&
    a.error === null &&
    toJson(a.result) === result
  );
}

function insertAttempt(sql: SqliteDatabase, tenantId: string, runId: number, a: Attempt): void {
  sql
    .stmt(INSERT_ATTEMPT)
    .run(
      tenantId,
      runId,
      a.attempt,
      a.workerId,
      a.startedAt,
      a.finishedAt,
      a.outcome,
      toJson(a.error),
      toJson(a.result),
    );
}

export function reclaimExpiredLeases(sql: SqliteDatabase, now: number, limit: number): Transition[] {
  if (limit <= 0) return [];
  return sql.write(() => {
    const lapsed = sql.stmt(LAPSED).all(now, limit) as RunRow[];
    const rows: RunRow[] = [];
    for (const r of lapsed) {
      insertAttempt(sql, r.tenant_id, r.id, {
        runId: String(r.id),
        attempt: r.attempt,
        workerId: r.lease_owner ?? '',
        startedAt: r.attempt_started_at ?? now,
        finishedAt: now,
        outcome: 'leaseExpired',
        error: LEASE_EXPIRED,
        result: null,
      });
      const row = sql.stmt(RECLAIM).get({ id: r.id, now, error: toJson(LEASE_EXPIRED) }) as
        RunRow | undefined;
      if (row !== undefined) rows.push(row);
    }
    return changed(rows, 'running');
  });
}

export function cancelRun(
  sql: SqliteDatabase,
  tenantId: string,
  runId: string,
  now: number,
): Transition | undefined {
  const id = parseId(runId);
  if (id === undefined) return undefined;
  return sql.write(() => {
    const from = sql.pluck(RUN_STATE).get(id, tenantId) as RunState | undefined;
    if (from === undefined) return undefined;
    if (from !== 'scheduled' && from !== 'running') {
      throw new PunctualError('RUN_NOT_CANCELLABLE', `run ${runId} is already ${from}`, {
        runId,
        state: from,
      });
    }
    const row = sql.stmt(CANCEL).get({ id, tenantId, now }) as RunRow;
    return { run: toRun(row), from, to: 'cancelled' };
  });
}
