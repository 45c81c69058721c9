// Re-running final runs on the PostgreSQL store: each run asked for goes back to `scheduled`, due now, as new
// attempts of the same occurrence (same run id, occurrence id, scheduledFor and attempt history). One
// transaction: the runs are locked in id order, checked, and updated by one statement; other instances are
// woken (NOTIFY) when any run is due again. It must never read a clock: `now` comes from the caller.

import { isFinal, type RunState } from '../../domain/run.js';
import type { RerunRefusal, RerunRequest, RerunResult, Transition } from '../store.js';
import type { PgDb } from './postgres-database.js';
import { ID_RE, toRun, type RunRow } from './postgres-rows.js';

interface Found {
  id: string;
  state: RunState;
  kind: string;
  scheduled_for: string;
  holds_occurrence: boolean | null;
}

export async function rerunRuns(db: PgDb, req: RerunRequest): Promise<RerunResult> {
  const asked = [...new Set(req.runIds)];
  const ids = asked.filter((id) => ID_RE.test(id));
  if (!ID_RE.test(req.scheduleId) || ids.length === 0) {
    return { transitions: [], refused: asked.map((runId) => ({ runId, why: 'notFound' as const })) };
  }
  return db.tx(async (c) => {
    const { rows: found } = await c.query<Found>(
      `SELECT id::text AS id, state, kind, scheduled_for::text AS scheduled_for, holds_occurrence FROM ${db.s}.runs
        WHERE id = ANY($1::bigint[]) AND tenant_id = $2 AND schedule_id = $3
        ORDER BY id FOR UPDATE`,
      [ids, req.tenantId, req.scheduleId],
    );
    const byId = new Map(found.map((r) => [r.id, r]));
    // A run that released its occurrence (not a manual one, which never holds one) takes it back unless
    // another run of the schedule holds it now (runs_occurrence).
    const releasedOccurrence = (r: Found): boolean => r.holds_occurrence !== true && r.kind !== 'manual';
    const wanted = found.filter(releasedOccurrence);
    const { rows: holders } =
      wanted.length === 0
        ? { rows: [] as { id: string; scheduled_for: string }[] }
        : await c.query<{ id: string; scheduled_for: string }>(
            `SELECT id::text AS id, scheduled_for::text AS scheduled_for FROM ${db.s}.runs
              WHERE schedule_id = $1 AND scheduled_for = ANY($2::bigint[]) AND holds_occurrence`,
            [req.scheduleId, wanted.map((r) => r.scheduled_for)],
          );
    const heldBy = new Map(holders.map((h) => [h.scheduled_for, h.id]));
    const refused: RerunRefusal[] = [];
    const go: Found[] = [];
    for (const runId of asked) {
      const r = byId.get(runId);
      if (r === undefined) refused.push({ runId, why: 'notFound' });
      else if (!isFinal(r.state)) refused.push({ runId, why: 'notFinal', state: r.state });
      else if (releasedOccurrence(r) && heldBy.has(r.scheduled_for)) {
        refused.push({ runId, why: 'occurrenceTaken', state: r.state, heldBy: heldBy.get(r.scheduled_for)! });
      } else go.push(r);
    }
    if (go.length === 0) return { transitions: [], refused };
    const goIds = go.map((r) => r.id);
    // A success kept on its run row (migration 5) becomes an attempts row before the row is reused.
    await c.query(
      `INSERT INTO ${db.s}.attempts (tenant_id, run_id, attempt, worker_id, started_at, finished_at, outcome,
         error, result)
       SELECT tenant_id, id, attempt, succeeded_by, attempt_started_at, finished_at, 'succeeded', NULL, result
         FROM ${db.s}.runs WHERE id = ANY($1::bigint[]) AND succeeded_by IS NOT NULL`,
      [goIds],
    );
    // No deadline (a person asked for it now), a fresh check count, the schedule's current version; the
    // last error stays until the next attempt settles.
    const { rows } = await c.query<RunRow>(
      `UPDATE ${db.s}.runs
          SET state = 'scheduled', reason = 'rerun', due_at = $2, expires_at = NULL, result = NULL,
              finished_at = NULL, not_fired_reported = false, checks = 0, max_attempts = attempt + $3,
              schedule_version = $4, succeeded_by = NULL,
              holds_occurrence = CASE WHEN kind <> 'manual' THEN true END
        WHERE id = ANY($1::bigint[])
        RETURNING *`,
      [goIds, req.now, req.attempts, req.scheduleVersion],
    );
    await db.notifyWake(c, req.now);
    const updated = new Map(rows.map((r) => [String(r.id), r]));
    const transitions: Transition[] = go.map((r) => ({
      run: toRun(updated.get(r.id)!),
      from: r.state,
      to: 'scheduled',
    }));
    return { transitions, refused };
  });
}
