// What happens to a run after its claim: lease renewal, settlement (fenced by the lease token) and the
// reclaim of runs whose lease lapsed. Each function is one transaction over a batch. It must never read a
// clock (`now` is a parameter) and never change a run whose token the caller does not hold.

import { PunctualError } from '../../errors.js';
import type { RunError, RunState } from '../../domain/run.js';
import type { Settlement, Transition } from '../store.js';
import type { PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';
import { ID_RE, jsonParam, toRun, type RunRow } from './postgres-rows.js';
import { transitionsOf } from './postgres-runs.js';

export const LEASE_EXPIRED_ERROR: RunError = {
  code: 'LEASE_EXPIRED',
  message: "the worker's lease lapsed before it settled the run",
};

export async function extendLeases(
  db: PgDb,
  leases: { runId: string; token: string }[],
  until: number,
): Promise<string[]> {
  const valid = leases.filter((l) => ID_RE.test(l.runId));
  if (valid.length === 0) return [];
  const rows = await db.query<{ id: number | string }>(
    `UPDATE ${db.s}.runs AS r SET lease_expires_at = $3
       FROM unnest($1::bigint[], $2::text[]) AS l(id, token)
      WHERE r.id = l.id AND r.lease_token = l.token AND r.state = 'running'
      RETURNING r.id`,
    [valid.map((l) => l.runId), valid.map((l) => l.token), until],
  );
  const held = new Set(rows.map((r) => String(r.id)));
  return valid.map((l) => l.runId).filter((id) => held.has(id));
}

const RELEASE_LEASE = 'lease_owner = NULL, lease_token = NULL, lease_expires_at = NULL';

/**
 * The SET clause and parameters ($3 on) for one outcome. retry keeps the attempt count; checkAgain starts a
 * fresh count for the next check; released hands the attempt back (a graceful stop is not a failure).
 */
function changeOf(o: Settlement['outcome'], now: number): { set: string; values: unknown[] } {
  switch (o.state) {
    case 'succeeded':
      return {
        set: `state = 'succeeded', result = $3::jsonb, reason = NULL, error = NULL, finished_at = $4`,
        values: [jsonParam(o.result), now],
      };
    case 'scheduled':
      return {
        set: `state = 'scheduled', due_at = $3, reason = $4, error = $5::jsonb, not_fired_reported = false,
              checks = checks + CASE WHEN $4 = 'checkAgain' THEN 1 ELSE 0 END,
              attempt = CASE $4 WHEN 'checkAgain' THEN 0 WHEN 'released' THEN greatest(attempt - 1, 0)
                                ELSE attempt END`,
        values: [o.dueAt, o.reason, jsonParam(o.error)],
      };
    case 'dead':
      return {
        set: `state = 'dead', error = $3::jsonb, reason = NULL, finished_at = $4`,
        values: [jsonParam(o.error), now],
      };
    case 'cancelled':
      return { set: `state = 'cancelled', reason = $3, finished_at = $4`, values: [o.reason, now] };
  }
}

/** Settles each run whose lease token matches; a refused settlement (lost lease) yields null. */
export async function settleRuns(
  db: PgDb,
  settlements: Settlement[],
  now: number,
): Promise<(Transition | null)[]> {
  if (settlements.length === 0) return [];
  return db.tx((c) => settleIn(db, c, settlements, now));
}

/** settleRuns inside the caller's transaction. */
export async function settleIn(
  db: PgDb,
  c: PgQueryable,
  settlements: Settlement[],
  now: number,
): Promise<(Transition | null)[]> {
  const out: (Transition | null)[] = [];
  let wake: number | null = null;
  for (const s of settlements) {
    if (!ID_RE.test(s.runId)) {
      out.push(null);
      continue;
    }
    const ch = changeOf(s.outcome, now);
    const { rows } = await c.query<RunRow>(
      `UPDATE ${db.s}.runs SET ${ch.set}, ${RELEASE_LEASE}
        WHERE id = $1 AND state = 'running' AND lease_token = $2
        RETURNING *`,
      [s.runId, s.token, ...ch.values],
    );
    const row = rows[0];
    if (row === undefined) {
      out.push(null);
      continue;
    }
    const a = s.attempt;
    await c.query(
      `INSERT INTO ${db.s}.attempts (tenant_id, run_id, attempt, worker_id, started_at, finished_at, outcome,
         error, result)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb)`,
      [
        row.tenant_id,
        row.id,
        a.attempt,
        a.workerId,
        a.startedAt,
        a.finishedAt,
        a.outcome,
        jsonParam(a.error),
        jsonParam(a.result),
      ],
    );
    if (s.outcome.state === 'scheduled') wake = Math.min(wake ?? Infinity, s.outcome.dueAt);
    out.push({ run: toRun(row), from: 'running', to: s.outcome.state });
  }
  if (wake !== null) await db.notifyWake(c, wake);
  return out;
}

/**
 * Reclaims up to $2 runs whose lease lapsed before $1 (runs_lease range), oldest lease first, with error $3.
 * Returns each run with its previous owner and attempt start, for the attempt record.
 */
export function reclaimSql(s: string): string {
  return `
    UPDATE ${s}.runs AS r
       SET state = CASE WHEN r.attempt >= r.max_attempts THEN 'dead' ELSE 'scheduled' END,
           due_at = CASE WHEN r.attempt >= r.max_attempts THEN r.due_at ELSE $1 END,
           finished_at = CASE WHEN r.attempt >= r.max_attempts THEN $1 ELSE NULL END,
           reason = 'leaseExpired', error = $3::jsonb, not_fired_reported = false, ${RELEASE_LEASE}
      FROM (SELECT id, lease_owner, attempt_started_at FROM ${s}.runs
             WHERE state = 'running' AND lease_expires_at < $1
             ORDER BY lease_expires_at, id
             LIMIT $2
             FOR UPDATE SKIP LOCKED) AS old
     WHERE r.id = old.id
     RETURNING r.*, old.lease_owner AS old_owner, old.attempt_started_at AS old_started`;
}

/**
 * Running runs whose lease lapsed (lease_expires_at < now: a lease is held up to and including its expiry): back to scheduled, due now, the attempt counted;
 * or dead when the attempts are used up. Each gets an attempt row with outcome leaseExpired.
 */
export async function reclaimExpiredLeases(db: PgDb, now: number, limit: number): Promise<Transition[]> {
  if (limit <= 0) return [];
  return db.tx(async (c) => {
    const { rows } = await c.query<
      RunRow & { old_owner: string | null; old_started: number | string | null }
    >(reclaimSql(db.s), [now, limit, JSON.stringify(LEASE_EXPIRED_ERROR)]);
    if (rows.length === 0) return [];
    await c.query(
      `INSERT INTO ${db.s}.attempts (tenant_id, run_id, attempt, worker_id, started_at, finished_at, outcome,
         error)
       SELECT u.tenant_id, u.run_id, u.attempt, u.worker_id, u.started_at, $4, 'leaseExpired', $5::jsonb
         FROM unnest($1::bigint[], $2::int[], $3::text[], $6::bigint[], $7::text[])
           AS u(run_id, attempt, worker_id, started_at, tenant_id)`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.attempt),
        rows.map((r) => r.old_owner ?? ''),
        now,
        JSON.stringify(LEASE_EXPIRED_ERROR),
        rows.map((r) => r.old_started ?? now),
        rows.map((r) => r.tenant_id),
      ],
    );
    if (rows.some((r) => r.state === 'scheduled')) await db.notifyWake(c, now);
    return transitionsOf(rows, 'running');
  });
}

/** Cancels a run that is not final yet; a running one loses its lease, so its worker's settlement is refused. */
export async function cancelRun(
  db: PgDb,
  tenantId: string,
  runId: string,
  now: number,
): Promise<Transition | undefined> {
  if (!ID_RE.test(runId)) return undefined;
  return db.tx(async (c) => {
    const { rows: found } = await c.query<{ state: RunState }>(
      `SELECT state FROM ${db.s}.runs WHERE id = $2 AND tenant_id = $1 FOR UPDATE`,
      [tenantId, runId],
    );
    const from = found[0]?.state;
    if (from === undefined) return undefined;
    if (from !== 'scheduled' && from !== 'running') {
      throw new PunctualError('RUN_NOT_CANCELLABLE', `run ${runId} is already ${from}`, {
        runId,
        state: from,
      });
    }
    const { rows } = await c.query<RunRow>(
      `UPDATE ${db.s}.runs SET state = 'cancelled', reason = 'manual', finished_at = $2, ${RELEASE_LEASE}
        WHERE id = $1
        RETURNING *`,
      [runId, now],
    );
    return { run: toRun(rows[0]!), from, to: 'cancelled' };
  });
}
