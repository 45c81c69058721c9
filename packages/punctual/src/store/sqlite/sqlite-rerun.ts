// Re-running final runs on the SQLite store: each run asked for goes back to `scheduled`, due now, as new
// attempts of the same occurrence (same run id, occurrence id, scheduledFor and attempt history). One
// BEGIN IMMEDIATE transaction for the whole request. It must never read a clock: `now` comes from the caller.

import { isFinal, type RunState } from '../../domain/run.js';
import type { RerunRefusal, RerunRequest, RerunResult, Transition } from '../store.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { parseId, toRun, type RunRow } from './sqlite-rows.js';

const FIND = `
  SELECT id, state, kind, schedule_id, scheduled_for, holds_occurrence FROM runs
  WHERE id = ? AND tenant_id = ? AND schedule_id = ?`;

// runs_occurrence: another run holding the occurrence.
const HOLDER =
  'SELECT id FROM runs WHERE schedule_id = ? AND scheduled_for = ? AND holds_occurrence AND id <> ?';

// A success kept on its run row (migration 0020) becomes an attempts row before the row is reused.
const KEEP_SUCCESS = `
  INSERT INTO attempts (tenant_id, run_id, attempt, worker_id, started_at, finished_at, outcome, error, result)
  SELECT tenant_id, id, attempt, succeeded_by, attempt_started_at, attempt_finished_at, 'succeeded', NULL, result
  FROM runs WHERE id = ? AND succeeded_by IS NOT NULL`;

// No deadline (a person asked for it now), a fresh check count, the schedule's current version; the last
// error stays until the next attempt settles.
const RERUN = `
  UPDATE runs SET state = 'scheduled', reason = 'rerun', due_at = @now, expires_at = NULL, result = NULL,
    finished_at = NULL, not_fired_reported = 0, checks = 0, max_attempts = attempt + @attempts,
    schedule_version = @version, succeeded_by = NULL, attempt_finished_at = NULL, holds_occurrence = CASE WHEN kind = 'manual' THEN NULL ELSE 1 END
  WHERE id = @id
  RETURNING *`;

interface Found {
  id: number;
  state: RunState;
  kind: string;
  schedule_id: number;
  scheduled_for: number;
  holds_occurrence: number | null;
}

export function rerunRuns(sql: SqliteDatabase, req: RerunRequest): RerunResult {
  const scheduleId = parseId(req.scheduleId);
  return sql.write(() => {
    const transitions: Transition[] = [];
    const refused: RerunRefusal[] = [];
    for (const runId of new Set(req.runIds)) {
      const id = parseId(runId);
      const found =
        id === undefined || scheduleId === undefined
          ? undefined
          : (sql.stmt(FIND).get(id, req.tenantId, scheduleId) as Found | undefined);
      if (found === undefined) {
        refused.push({ runId, why: 'notFound' });
        continue;
      }
      if (!isFinal(found.state)) {
        refused.push({ runId, why: 'notFinal', state: found.state });
        continue;
      }
      // A run that released its occurrence (not a manual one, which never holds one) takes it back unless
      // another run of the schedule holds it now.
      if (found.holds_occurrence === null && found.kind !== 'manual') {
        const holder = sql.pluck(HOLDER).get(found.schedule_id, found.scheduled_for, found.id) as
          number | undefined;
        if (holder !== undefined) {
          refused.push({ runId, why: 'occurrenceTaken', state: found.state, heldBy: String(holder) });
          continue;
        }
      }
      sql.stmt(KEEP_SUCCESS).run(found.id);
      const row = sql
        .stmt(RERUN)
        .get({ id: found.id, now: req.now, attempts: req.attempts, version: req.scheduleVersion }) as RunRow;
      transitions.push({ run: toRun(row), from: found.state, to: 'scheduled' });
    }
    return { transitions, refused };
  });
}
