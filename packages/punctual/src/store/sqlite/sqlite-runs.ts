// Run writes shared by several SQLite store operations: inserting runs idempotently by occurrence, and
// cancelling a schedule's pending runs. Callers run these inside their own BEGIN IMMEDIATE transaction; this
// module must never open one itself, nor read a clock.

import { PunctualError } from '../../errors.js';
import type { RunReason, RunState } from '../../domain/run.js';
import type { RunInsert, Transition } from '../store.js';
import { runTransitions } from '../common/transitions.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { parseId, toJson, toRun, type RunRow } from './sqlite-rows.js';

// A duplicate occurrence (a run holding the same schedule id and instant, runs_occurrence) inserts nothing
// and returns no row.
const INSERT_RUN = `
  INSERT INTO runs (tenant_id, schedule_id, schedule_key, schedule_version, holds_occurrence, kind,
    state, scheduled_for, due_at, expires_at, priority, attempt, max_attempts, checks, overlap, payload, reason,
    details, not_fired_reported, created_at, finished_at, expect_by)
  VALUES (@tenantId, @scheduleId, @scheduleKey, @scheduleVersion, @holds, @kind,
    @state, @scheduledFor, @dueAt, @expiresAt, @priority, 0, @maxAttempts, 0, @overlap, @payload, @reason,
    @details, 0, @now, @finishedAt, @expectBy)
  ON CONFLICT (schedule_id, scheduled_for) WHERE holds_occurrence DO NOTHING
  RETURNING *`;

// Uses runs_schedule_state (pending runs only). The occurrence is released so a new version can materialise
// the instant.
const CANCEL_PENDING = `
  UPDATE runs SET state = 'cancelled', reason = ?, finished_at = ?, holds_occurrence = NULL
  WHERE schedule_id = ? AND state = 'scheduled'
  RETURNING *`;

export function scheduleIdOf(id: string): number {
  const n = parseId(id);
  if (n === undefined) throw new PunctualError('SCHEDULE_NOT_FOUND', `no schedule with id ${id}`, { id });
  return n;
}

/** Inserts runs; duplicates of a stored occurrence are skipped. One transition per inserted run. */
export function insertRuns(sql: SqliteDatabase, runs: readonly RunInsert[], now: number): Transition[] {
  const insert = sql.stmt(INSERT_RUN);
  const transitions: Transition[] = [];
  for (const r of runs) {
    const scheduleId = scheduleIdOf(r.scheduleId);
    const row = insert.get({
      tenantId: r.tenantId,
      scheduleId,
      scheduleKey: r.scheduleKey,
      scheduleVersion: r.scheduleVersion,
      // The occurrence id is derived, never written (common/occurrence-id.ts).
      holds: r.unique ? 1 : null,
      kind: r.kind,
      state: r.state,
      scheduledFor: r.scheduledFor,
      dueAt: r.dueAt,
      expiresAt: r.expiresAt,
      expectBy: r.expectBy ?? null,
      priority: r.priority,
      maxAttempts: r.maxAttempts,
      overlap: r.overlap,
      payload: toJson(r.payload),
      reason: r.reason,
      details: toJson(r.details),
      now,
      finishedAt: r.state === 'scheduled' ? null : now,
    }) as RunRow | undefined;
    if (row !== undefined) transitions.push({ run: toRun(row), from: null, to: r.state });
  }
  return transitions;
}

/** Cancels every `scheduled` run of a schedule, releasing their occurrences. */
export function cancelPending(
  sql: SqliteDatabase,
  scheduleId: number,
  reason: RunReason,
  now: number,
): Transition[] {
  const rows = sql.stmt(CANCEL_PENDING).all(reason, now, scheduleId) as RunRow[];
  return changed(rows, 'scheduled');
}

// A paused schedule's occurrences that have not started: skipped (reason paused). Runs made by hand stay.
const SKIP_PAUSED = `
  UPDATE runs SET state = 'skipped', reason = 'paused', finished_at = ?, holds_occurrence = NULL
  WHERE schedule_id = ? AND state = 'scheduled' AND kind = 'scheduled'
  RETURNING *`;

/** Pausing: the schedule's materialised occurrences waiting to run become skipped (paused). */
export function skipPaused(sql: SqliteDatabase, scheduleId: number, now: number): Transition[] {
  return changed(sql.stmt(SKIP_PAUSED).all(now, scheduleId) as RunRow[], 'scheduled');
}

/** Transitions for rows an UPDATE … RETURNING changed from one state, in id order. */
export function changed(rows: RunRow[], from: RunState): Transition[] {
  return runTransitions(rows.map(toRun), from);
}
