// What happens to a run after its claim: lease renewal, settlement (fenced by the lease token) and the
// reclaim of runs whose lease lapsed. Each function is one transaction over a batch. It must never read a
// clock (`now` is a parameter) and never change a run whose token the caller does not hold.

import { PunctualError } from '../../errors.js';
import type { RunError, RunReason, RunState } from '../../domain/run.js';
import { settledRun } from '../settled-run.js';
import { endedBeforeDelivery, settledStartedAt, type Settlement, type Transition } from '../store.js';
import type { PgDb } from './postgres-database.js';
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
 * The token check every settlement makes in the write itself: a lost lease matches nothing. A run has a
 * lease token exactly while it is running (every way out of `running` clears it), so the token is the state
 * check. Not writing `state = 'running'` keeps the generic plan off runs_lease, whose partial index that
 * condition would match: the planner could then walk every running run instead of probing the primary key.
 */
const HELD = `r.id = u.id AND r.lease_token = u.token`;

/**
 * The settlement's common table expressions; `settled` is their result. One UPDATE … FROM unnest(…) per
 * outcome (an empty group matches nothing), then one INSERT of the attempt records of the runs that were
 * settled and did not succeed: a successful attempt stays on its run row (succeeded_by, attempt_started_at;
 * migration 5), and reads add it (postgres-queries.ts). Parameters: $1 now; succeeded $2–$4 (id, token,
 * result) and $24–$25 (worker, delivery start); scheduled again $5–$9 (id, token, due_at, reason, error);
 * dead $10–$12 (id, token, error); ended before delivery $13–$15 and $29 (id, token, reason, state);
 * attempts of the others $16–$23; what each group's started_at becomes $26–$28 and $30 (settledStartedAt).
 * A run that ended before its delivery hands back the attempt its claim counted, with no attempt record.
 * retry keeps the attempt count; checkAgain starts a fresh count for the next check; released hands the
 * attempt back (a graceful stop is not a failure).
 */
export function settleCtes(s: string): string {
  const cols = (executed: string) =>
    `r.id, r.tenant_id, r.schedule_id, coalesce(r.started_at, r.attempt_started_at) AS fired_at, ${executed} AS executed`;
  return `
    ok AS (
      UPDATE ${s}.runs AS r
         SET state = 'succeeded', result = u.result::jsonb, reason = NULL, error = NULL, finished_at = $1,
             succeeded_by = u.worker, attempt_started_at = u.started_at, started_at = u.first_started,
             ${RELEASE_LEASE}
        FROM unnest($2::bigint[], $3::text[], $4::text[], $24::text[], $25::bigint[], $26::bigint[])
          AS u(id, token, result, worker, started_at, first_started)
       WHERE ${HELD}
      RETURNING ${cols("'ok'")}
    ), again AS (
      UPDATE ${s}.runs AS r
         SET state = 'scheduled', due_at = u.due_at, reason = u.reason, error = u.error::jsonb,
             not_fired_reported = false, started_at = u.first_started,
             checks = r.checks + CASE WHEN u.reason = 'checkAgain' THEN 1 ELSE 0 END,
             attempt = CASE u.reason WHEN 'checkAgain' THEN 0 WHEN 'released' THEN greatest(r.attempt - 1, 0)
                                     ELSE r.attempt END,
             ${RELEASE_LEASE}
        FROM unnest($5::bigint[], $6::text[], $7::bigint[], $8::text[], $9::text[], $27::bigint[])
          AS u(id, token, due_at, reason, error, first_started)
       WHERE ${HELD}
      RETURNING ${cols('NULL::text')}
    ), dead AS (
      UPDATE ${s}.runs AS r
         SET state = 'dead', error = u.error::jsonb, reason = NULL, finished_at = $1,
             started_at = u.first_started, ${RELEASE_LEASE}
        FROM unnest($10::bigint[], $11::text[], $12::text[], $28::bigint[]) AS u(id, token, error, first_started)
       WHERE ${HELD}
      RETURNING ${cols("'dead'")}
    ), gone AS (
      UPDATE ${s}.runs AS r
         SET state = u.state, reason = u.reason, finished_at = $1, started_at = u.first_started,
             attempt = greatest(r.attempt - 1, 0), ${RELEASE_LEASE}
        FROM unnest($13::bigint[], $14::text[], $15::text[], $29::text[], $30::bigint[])
          AS u(id, token, reason, state, first_started)
       WHERE ${HELD}
      RETURNING ${cols('NULL::text')}
    ), settled AS (
      SELECT * FROM ok UNION ALL SELECT * FROM again UNION ALL SELECT * FROM dead UNION ALL SELECT * FROM gone
    ), recorded AS (
      INSERT INTO ${s}.attempts (tenant_id, run_id, attempt, worker_id, started_at, finished_at, outcome,
        error, result)
      SELECT st.tenant_id, a.run_id, a.attempt, a.worker_id, a.started_at, a.finished_at, a.outcome,
             a.error::jsonb, a.result::jsonb
        FROM unnest($16::bigint[], $17::int[], $18::text[], $19::bigint[], $20::bigint[], $21::text[],
                    $22::text[], $23::text[]) WITH ORDINALITY
               AS a(run_id, attempt, worker_id, started_at, finished_at, outcome, error, result, n)
        JOIN settled AS st ON st.id = a.run_id
       ORDER BY a.n
    ), executed AS (
      -- Runs executed to an outcome count on their schedule (firedCount, lastFiredAt, lastSucceededAt) in
      -- schedule_executions (migration 22), without locking a schedule row: count_executions takes its
      -- advisory lock buckets, then upserts, both in schedule id order, so two settlements never deadlock.
      -- It reads all of settled, so it runs once every run of the batch is settled: it never holds those
      -- locks while waiting for a run row.
      SELECT ${s}.count_executions(coalesce(array_agg(e.schedule_id), '{}'), coalesce(array_agg(e.n), '{}'),
                                   coalesce(array_agg(e.fired_at), '{}'),
                                   coalesce(array_agg(e.succeeded_at), '{}')) AS written
        FROM (SELECT x.schedule_id, count(*) AS n, max(x.fired_at) AS fired_at,
                     max(CASE WHEN x.executed = 'ok' THEN $1::bigint END) AS succeeded_at
                FROM settled AS x
               WHERE x.executed IS NOT NULL
               GROUP BY x.schedule_id) AS e
    )`;
}

/**
 * A batch's settlement in one statement (parameters: settleParams). Only the ids of the runs settled come
 * back: the caller knows the rest (settledRun), which spares the server and the client ~30 columns per run.
 */
export function settleSql(s: string): string {
  return `WITH ${settleCtes(s)} SELECT st.id FROM executed CROSS JOIN settled AS st`;
}

/** The settlements a statement is sent for: well-formed ids, each run once (a second one is refused). */
export function sendable(settlements: Settlement[]): Settlement[] {
  const seen = new Set<string>();
  return settlements.filter((x) => ID_RE.test(x.runId) && !seen.has(x.runId) && seen.add(x.runId));
}

/** The parameters of settleCtes ($1–$30) for these (sendable) settlements. */
export function settleParams(now: number, valid: Settlement[]): unknown[] {
  const pick = <S extends Settlement['outcome']['state']>(state: S) =>
    valid.filter(
      (x): x is Settlement & { outcome: Extract<Settlement['outcome'], { state: S }> } =>
        x.outcome.state === state,
    );
  const ok = pick('succeeded');
  const again = pick('scheduled');
  const dead = pick('dead');
  const gone = valid.filter(
    (
      x,
    ): x is Settlement & {
      outcome: Extract<
        Settlement['outcome'],
        { reason: RunReason; state: 'cancelled' | 'skipped' | 'expired' }
      >;
    } => endedBeforeDelivery(x.outcome),
  );
  // A successful attempt is recorded on its run row, the others as attempts rows (none when not delivered).
  const a = valid
    .filter((x) => x.outcome.state !== 'succeeded' && !endedBeforeDelivery(x.outcome))
    .map((x) => x.attempt);
  return [
    now,
    ok.map((x) => x.runId),
    ok.map((x) => x.token),
    ok.map((x) => jsonParam(x.outcome.result)),
    again.map((x) => x.runId),
    again.map((x) => x.token),
    again.map((x) => x.outcome.dueAt),
    again.map((x) => x.outcome.reason),
    again.map((x) => jsonParam(x.outcome.error)),
    dead.map((x) => x.runId),
    dead.map((x) => x.token),
    dead.map((x) => jsonParam(x.outcome.error)),
    gone.map((x) => x.runId),
    gone.map((x) => x.token),
    gone.map((x) => x.outcome.reason),
    a.map((x) => x.runId),
    a.map((x) => x.attempt),
    a.map((x) => x.workerId),
    a.map((x) => x.startedAt),
    a.map((x) => x.finishedAt),
    a.map((x) => x.outcome),
    a.map((x) => jsonParam(x.error)),
    a.map((x) => jsonParam(x.result)),
    ok.map((x) => x.attempt.workerId),
    ok.map((x) => x.attempt.startedAt),
    ok.map(settledStartedAt),
    again.map(settledStartedAt),
    dead.map(settledStartedAt),
    gone.map((x) => x.outcome.state),
    gone.map(settledStartedAt),
  ];
}

/**
 * Each settlement's transition, in input order, from the ids of the runs the statement settled (absent:
 * refused), and the earliest instant a run was scheduled again at (for the wake-up), if any.
 */
export function settledTransitions(
  settlements: Settlement[],
  ids: Iterable<string>,
  now: number,
): { settled: (Transition | null)[]; wakeAt: number | null } {
  const held = new Set(ids);
  let wakeAt: number | null = null;
  const settled = settlements.map((x): Transition | null => {
    if (!held.delete(x.runId)) return null; // refused, or a duplicate later in the batch
    if (x.outcome.state === 'scheduled') wakeAt = Math.min(wakeAt ?? Infinity, x.outcome.dueAt);
    return {
      run: settledRun(x.run, x.outcome, now, settledStartedAt(x)),
      from: 'running',
      to: x.outcome.state,
    };
  });
  return { settled, wakeAt };
}

/**
 * Settles each run whose lease token matches, in one statement (its own transaction); a refused settlement
 * (lost lease) yields null. The wake-up for runs scheduled again follows the commit.
 */
export async function settleRuns(
  db: PgDb,
  settlements: Settlement[],
  now: number,
): Promise<(Transition | null)[]> {
  const valid = sendable(settlements);
  if (valid.length === 0) return settlements.map(() => null);
  const rows = await db.hotQuery<{ id: number | string }>(
    db.named('settle', settleSql, settleParams(now, valid)),
  );
  const { settled, wakeAt } = settledTransitions(
    settlements,
    rows.map((r) => String(r.id)),
    now,
  );
  if (wakeAt !== null) await db.notifyWake(db.pool, wakeAt);
  return settled;
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
