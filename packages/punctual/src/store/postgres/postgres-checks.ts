// Checks on PostgreSQL: writing one (a heartbeat armed from its last beat, a deadline from its first window
// ahead; a change of kind resolves the former kind's alert), and judging one due deadline check in the
// caller's transaction (evaluateDueChecks took it FOR UPDATE SKIP LOCKED and disarmed it): looks for a
// run of its schedule that succeeded in the window (runs_tenant_key_time, one index range), opens or resolves
// `deadline_missed`, and arms the next window. It must never read a clock, nor put input into SQL text.

import type { Alert, Check } from '../../domain/alert.js';
import { parseCheckInput } from '../../domain/alert-input.js';
import { missedKindOf, type DeadlineSpec } from '../../domain/deadline-check.js';
import { toCheck, type CheckRow } from '../alert-rows.js';
import { firstWindow, judgedWindow, windowLookup } from '../deadline-rows.js';
import { openOne, resolveOne } from './postgres-alerts.js';
import type { PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';
import { FINISHED_RUNS } from '../common/run-list-parts.js';

/** Creates or replaces a deadline check, watching its first window whose close is ahead of `now`. */
export async function putDeadline(
  db: PgDb,
  c: PgQueryable,
  tenantId: string,
  name: string,
  d: DeadlineSpec,
  now: number,
): Promise<{ rows: (CheckRow & { created: boolean })[] }> {
  const w = firstWindow(d, now);
  return c.query<CheckRow & { created: boolean }>(
    `INSERT INTO ${db.s}.checks (tenant_id, name, kind, every_ms, last_beat_at, next_check_at, created_at,
       updated_at, schedule_key, spec, tz, within_ms, window_start)
     VALUES ($1, $2, 'deadline', 0, NULL, $3, $4, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (tenant_id, name) DO UPDATE SET kind = 'deadline', every_ms = 0, last_beat_at = NULL,
       next_check_at = excluded.next_check_at, updated_at = excluded.updated_at,
       schedule_key = excluded.schedule_key, spec = excluded.spec, tz = excluded.tz,
       within_ms = excluded.within_ms, window_start = excluded.window_start
     RETURNING *, (xmax = 0) AS created`,
    [tenantId, name, w.nextCheckAt, now, d.schedule, d.spec, d.tz, d.withinMs, w.windowStart],
  );
}

export async function judgeDeadline(db: PgDb, c: PgQueryable, check: Check, now: number): Promise<Alert[]> {
  const start = check.windowStart;
  if (check.deadline === null || start === null) return [];
  const q = windowLookup(check, start);
  // FINISHED_RUNS names runs_tenant_key_time's predicate (migration 24), so the planner matches it.
  const { rows } = await c.query(
    `SELECT 1 FROM ${db.s}.runs
     WHERE tenant_id = $1 AND schedule_key = $2 AND scheduled_for >= $3 AND scheduled_for <= $5
       AND state = 'succeeded' AND ${FINISHED_RUNS} AND finished_at >= $4 AND finished_at <= $5
     LIMIT 1`,
    [q.tenantId, q.scheduleKey, q.scheduledFrom, q.start, q.close],
  );
  const j = judgedWindow(check, start, rows.length > 0, now);
  await c.query(
    `UPDATE ${db.s}.checks SET window_start = $1, next_check_at = $2 WHERE tenant_id = $3 AND name = $4`,
    [j.windowStart, j.nextCheckAt, check.tenantId, check.name],
  );
  if ('clear' in j.op) return resolveOne(db, c, j.op.clear, now);
  const a = await openOne(db, c, j.op.open, now);
  return a ? [a] : [];
}

export async function putCheck(
  db: PgDb,
  tenantId: string,
  input: unknown,
  now: number,
): Promise<{ check: Check; created: boolean }> {
  const c = parseCheckInput(input, now);
  return db.tx(async (tx) => {
    const { rows: before } = await tx.query<{ kind: string }>(
      `SELECT kind FROM ${db.s}.checks WHERE tenant_id = $1 AND name = $2 FOR UPDATE`,
      [tenantId, c.name],
    );
    const { rows } =
      c.kind === 'deadline'
        ? await putDeadline(db, tx, tenantId, c.name, c.deadline, now)
        : await tx.query<CheckRow & { created: boolean }>(
            // Armed from the last heartbeat (or from now for a new check); an open alert keeps it disarmed.
            `INSERT INTO ${db.s}.checks AS k (tenant_id, name, kind, every_ms, last_beat_at, next_check_at,
               created_at, updated_at)
             VALUES ($1, $2, $3, $4::bigint, NULL, $5::bigint + $4::bigint, $5, $5)
             ON CONFLICT (tenant_id, name) DO UPDATE SET kind = excluded.kind, every_ms = excluded.every_ms,
               updated_at = excluded.updated_at,
               next_check_at = CASE WHEN k.kind = 'heartbeat' AND k.next_check_at IS NULL THEN NULL
                                    WHEN k.kind = 'heartbeat'
                                      THEN greatest(coalesce(k.last_beat_at, k.created_at) + excluded.every_ms, $5::bigint)
                                    ELSE greatest(k.created_at + excluded.every_ms, $5::bigint) END,
               schedule_key = NULL, spec = NULL, tz = NULL, within_ms = NULL, window_start = NULL
             RETURNING *, (xmax = 0) AS created`,
            [tenantId, c.name, c.kind, c.everyMs, now],
          );
    // A check that changed kind leaves the alert of its former kind behind: resolved.
    const was = before[0]?.kind;
    if (was !== undefined && was !== c.kind) {
      await resolveOne(
        db,
        tx,
        { tenantId, subjectKind: 'check', subject: c.name, kinds: [missedKindOf(was)] },
        now,
      );
    }
    return { check: toCheck(rows[0]!), created: rows[0]!.created };
  });
}
