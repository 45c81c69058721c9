// Run reads and housekeeping of the PostgreSQL store: one run with its attempts, pages of runs, the earliest
// due instant, "not fired" detection, history pruning and the counts for metrics. Searches stay on the
// indexes named beside each statement (see migrations/). It must never read a clock: `now` is passed in.

import type { Attempt, Run } from '../../domain/run.js';
import type { Page, PruneRequest, RunQuery, StoreStats } from '../store.js';
import { KEEP_SCAN_BATCH, KEEP_SCAN_BUDGET, KeepScan } from '../keep-scan.js';
import type { PgDb } from './postgres-database.js';
import { decodeCursor, encodeCursor } from '../common/page-cursor.js';
import { runListParts } from '../common/run-list-parts.js';
import { ID_RE, toAttempt, toRun, type AttemptRow, type RunRow } from './postgres-rows.js';

/** Final states by retention: failures are kept for failedRetentionMs, the rest for retentionMs. */
const KEPT_LONG = ['succeeded', 'skipped', 'cancelled'];
const FAILED = ['dead', 'expired'];

/** A WHERE clause built from optional filters; every value is a bound parameter. */
export class Filters {
  readonly where: string[] = [];
  readonly params: unknown[] = [];

  /** Adds a condition; each `?` in it becomes the next parameter. */
  add(condition: string, ...values: unknown[]): void {
    let text = condition;
    for (const v of values) {
      this.params.push(v);
      text = text.replace('?', `$${this.params.length}`);
    }
    this.where.push(text);
  }

  /** The parameter placeholder for one more value (e.g. LIMIT). */
  param(v: unknown): string {
    this.params.push(v);
    return `$${this.params.length}`;
  }
}

export async function getRun(
  db: PgDb,
  tenantId: string,
  runId: string,
): Promise<{ run: Run; attempts: Attempt[] } | undefined> {
  if (!ID_RE.test(runId)) return undefined;
  const runs = await db.query<RunRow>(`SELECT * FROM ${db.s}.runs WHERE id = $2 AND tenant_id = $1`, [
    tenantId,
    runId,
  ]);
  if (runs[0] === undefined) return undefined;
  // attempts_run.
  const attempts = await db.query<AttemptRow>(
    `SELECT * FROM ${db.s}.attempts WHERE run_id = $1 ORDER BY started_at, id`,
    [runId],
  );
  return { run: toRun(runs[0]), attempts: [...attempts.map(toAttempt), ...succeededAttempt(runs[0])] };
}

/** The successful attempt a run row holds (migration 5), after the attempts rows of the earlier ones. */
function succeededAttempt(row: RunRow): Attempt[] {
  if (row.state !== 'succeeded' || row.succeeded_by == null) return [];
  return [
    {
      runId: String(row.id),
      attempt: row.attempt,
      workerId: row.succeeded_by,
      startedAt: Number(row.attempt_started_at),
      finishedAt: Number(row.finished_at),
      outcome: 'succeeded',
      error: null,
      result: row.result,
    },
  ];
}

/**
 * The page query of listRuns, newest first, in up to three parts merged: the finished runs are a range of
 * runs_tenant_key_time or runs_tenant_time in index order (which hold no pending run, migrations 23 and 24:
 * the predicate is repeated so the planner matches them), the running ones are read from runs_lease (every
 * running run, as many as the workers execute at once) and the scheduled ones from runs_claim_tenant (the
 * tenant's runs within the look-ahead and retries waiting for their backoff), each sorted. A state filter
 * reads one part only.
 */
export function listRunsQuery(s: string, q: RunQuery): { text: string; values: unknown[] } {
  const f = new Filters();
  f.add('tenant_id = ?', q.tenantId);
  if (q.scheduleKey !== undefined) f.add('schedule_key = ?', q.scheduleKey);
  if (q.state !== undefined) f.add('state = ?', q.state);
  if (q.from !== undefined) f.add('scheduled_for >= ?', q.from);
  if (q.to !== undefined) f.add('scheduled_for < ?', q.to);
  if (q.cursor !== undefined) {
    const [scheduledFor, id] = decodeCursor<[number, number]>(q.cursor, ['number', 'number']);
    f.add('(scheduled_for, id) < (?::bigint, ?::bigint)', scheduledFor, id);
  }
  const limit = f.param(Math.max(1, q.limit) + 1);
  const where = f.where.join(' AND ');
  const part = (state: string): string =>
    `(SELECT * FROM ${s}.runs WHERE ${where} AND ${state} ORDER BY scheduled_for DESC, id DESC LIMIT ${limit})`;
  const parts = runListParts(q.state).map(part);
  const text =
    parts.length === 1
      ? parts[0]!.slice(1, -1)
      : `SELECT * FROM (${parts.join(' UNION ALL ')}) AS r ORDER BY scheduled_for DESC, id DESC LIMIT ${limit}`;
  return { text, values: f.params };
}

export async function listRuns(db: PgDb, q: RunQuery): Promise<Page<Run>> {
  const limit = Math.max(1, q.limit);
  const { text, values } = listRunsQuery(db.s, q);
  const rows = await db.query<RunRow>(text, values);
  const items = rows.slice(0, limit).map(toRun);
  const last = items[items.length - 1];
  return rows.length > limit && last !== undefined
    ? { items, nextCursor: encodeCursor([last.scheduledFor, Number(last.id)]) }
    : { items };
}

/**
 * The distinct priorities of scheduled runs, highest first, as the CTE `level(p)` (its last row is NULL):
 * one probe of runs_claim per level. What reads runs by due instant walks these levels, each a runs_claim
 * range (priority = p, due_at …) in index order; a plain range over due_at alone would read the whole index.
 */
function levelCte(s: string): string {
  return `level(p) AS (
      SELECT max(priority) FROM ${s}.runs WHERE state = 'scheduled'
      UNION ALL
      SELECT (SELECT max(priority) FROM ${s}.runs WHERE state = 'scheduled' AND priority < level.p)
        FROM level WHERE level.p IS NOT NULL)`;
}

/** The earliest due instant: the first runs_claim entry of each priority level. */
export function nextRunDueAtSql(s: string): string {
  return `WITH RECURSIVE ${levelCte(s)}
    SELECT min((SELECT min(due_at) FROM ${s}.runs WHERE state = 'scheduled' AND priority = level.p)) AS at
      FROM level WHERE level.p IS NOT NULL`;
}

export async function nextRunDueAt(db: PgDb): Promise<number | null> {
  const rows = await db.query<{ at: number | null }>(nextRunDueAtSql(db.s));
  return rows[0]?.at ?? null;
}

/** The earliest due instant of each schedule's pending runs (runs_schedule_pending, one query per page). */
export async function pendingDueAt(
  db: PgDb,
  tenantId: string,
  scheduleIds: readonly string[],
): Promise<Map<string, number>> {
  const ids = scheduleIds.filter((id) => ID_RE.test(id));
  const out = new Map<string, number>();
  if (ids.length === 0) return out;
  const rows = await db.query<{ id: string; at: string | number }>(
    `SELECT schedule_id AS id, min(due_at) AS at FROM ${db.s}.runs
      WHERE schedule_id = ANY($1::bigint[]) AND state = 'scheduled' AND tenant_id = $2
      GROUP BY schedule_id`,
    [ids, tenantId],
  );
  for (const r of rows) out.set(String(r.id), Number(r.at));
  return out;
}

/**
 * Marks and returns the earliest $3 runs due before $1 - $2 and not reported yet: a runs_claim range per
 * priority level (each locked FOR UPDATE SKIP LOCKED, at most $3 a level), the earliest $3 of them taken.
 * Reported runs are filtered out (they stay few: they are overdue).
 */
export function takeNotFiredSql(s: string): string {
  return `WITH RECURSIVE ${levelCte(s)}
    UPDATE ${s}.runs SET not_fired_reported = true
     WHERE id IN (SELECT c.id FROM level
                   CROSS JOIN LATERAL (
                     SELECT r.id, r.due_at FROM ${s}.runs AS r
                      WHERE r.state = 'scheduled' AND r.priority = level.p
                        AND r.due_at < $1::bigint - $2::bigint AND NOT r.not_fired_reported
                      ORDER BY r.due_at
                      LIMIT $3
                      FOR UPDATE OF r SKIP LOCKED) AS c
                  WHERE level.p IS NOT NULL
                  ORDER BY c.due_at, c.id
                  LIMIT $3)
     RETURNING *`;
}

export async function takeNotFired(db: PgDb, now: number, graceMs: number, limit: number): Promise<Run[]> {
  if (limit <= 0) return [];
  const rows = await db.query<RunRow>(takeNotFiredSql(db.s), [now, graceMs, limit]);
  return rows.map(toRun).sort((a, b) => a.dueAt - b.dueAt || Number(a.id) - Number(b.id));
}

/** Final runs in these states finished before $1, oldest first: a runs_finished range (set exactly when final). */
export function oldFinalSql(s: string): string {
  return `SELECT id FROM ${s}.runs
           WHERE finished_at IS NOT NULL AND finished_at < $1 AND state = ANY($2::text[])
           ORDER BY finished_at LIMIT $3`;
}

/** The keep-per-schedule scan (store/keep-scan.ts): runs finished since the mark, a runs_finished range. */
export function finishedSinceSql(s: string): string {
  return `SELECT schedule_id, finished_at FROM ${s}.runs
           WHERE finished_at IS NOT NULL AND finished_at >= $1 ORDER BY finished_at LIMIT $2`;
}

/**
 * The final runs of these schedules beyond the newest `keep` of each ($2), at most $3: one
 * runs_schedule_finished range per schedule, newest first.
 */
export function beyondKeepSql(s: string): string {
  return `SELECT b.id FROM unnest($1::bigint[]) AS k(schedule_id)
            CROSS JOIN LATERAL (
              SELECT r.id FROM ${s}.runs AS r
               WHERE r.schedule_id = k.schedule_id AND r.finished_at IS NOT NULL
               ORDER BY r.finished_at DESC, r.id DESC OFFSET $2) AS b
           LIMIT $3`;
}

/**
 * Deletes at most `limit` final runs: past their retention (runs_finished ranges), then beyond the newest
 * `keepPerSchedule` of the schedules whose runs finished since the scan's mark (store/keep-scan.ts).
 */
export async function pruneHistory(db: PgDb, req: PruneRequest, scan: KeepScan): Promise<number> {
  if (req.limit <= 0) return 0;
  const start = scan.from;
  try {
    return await pruneIn(db, req, scan, start);
  } catch (err) {
    scan.rewind(start);
    throw err;
  }
}

async function pruneIn(db: PgDb, req: PruneRequest, scan: KeepScan, start: number): Promise<number> {
  return db.tx(async (c) => {
    scan.rewind(start); // a retried transaction starts over from the same mark
    const ids = new Set<string>();
    const take = (rows: { id: number | string }[]): void => {
      for (const r of rows) if (ids.size < req.limit) ids.add(String(r.id));
    };
    const old = oldFinalSql(db.s);
    take((await c.query<{ id: number }>(old, [req.now - req.retentionMs, KEPT_LONG, req.limit])).rows);
    take((await c.query<{ id: number }>(old, [req.now - req.failedRetentionMs, FAILED, req.limit])).rows);
    if (Number.isFinite(req.keepPerSchedule)) {
      const keep = Math.max(0, Math.floor(req.keepPerSchedule));
      const seen = new Set<string>();
      for (let read = 0; ids.size < req.limit && read < KEEP_SCAN_BUDGET;) {
        const { rows: found } = await c.query<{ schedule_id: string; finished_at: string }>(
          finishedSinceSql(db.s),
          [scan.from, KEEP_SCAN_BATCH],
        );
        const batch = found.map((r) => ({
          scheduleId: String(r.schedule_id),
          finishedAt: Number(r.finished_at),
        }));
        read += batch.length;
        const schedules = KeepScan.schedules(batch, seen);
        if (schedules.length > 0)
          take(
            (await c.query<{ id: string }>(beyondKeepSql(db.s), [schedules, keep, req.limit - ids.size]))
              .rows,
          );
        // The mark moves only past a batch whose schedules were all trimmed.
        if (ids.size >= req.limit || scan.advance(batch, KEEP_SCAN_BATCH, req.now)) break;
      }
    }
    if (ids.size === 0) return 0;
    // Attempts go with their run (ON DELETE CASCADE).
    const res = await c.query(`DELETE FROM ${db.s}.runs WHERE id = ANY($1::bigint[])`, [[...ids]]);
    return res.rowCount ?? 0;
  });
}

/**
 * Counts for metrics, each from an index or a counter: the due runs a runs_claim range per priority level,
 * the running ones runs_lease (never a scan of runs), and schedule_counts (kept by triggers, migration 17;
 * never a count of schedules).
 */
export function statsSql(s: string): string {
  return `
    WITH RECURSIVE ${levelCte(s)},
    due AS (SELECT d.n, d.oldest FROM level
             CROSS JOIN LATERAL (SELECT count(*) AS n, min(due_at) AS oldest FROM ${s}.runs
                                  WHERE state = 'scheduled' AND priority = level.p AND due_at <= $1) AS d
             WHERE level.p IS NOT NULL)
    SELECT (SELECT coalesce(sum(n), 0)::bigint FROM due) AS due,
           (SELECT min(oldest) FROM due) AS oldest,
           (SELECT count(*) FROM ${s}.runs WHERE state = 'running') AS running,
           (SELECT coalesce(jsonb_object_agg(state, n), '{}'::jsonb)
              FROM (SELECT state, sum(n)::int AS n FROM ${s}.schedule_counts GROUP BY state) AS c) AS by_state`;
}

export async function stats(db: PgDb, now: number): Promise<StoreStats> {
  const rows = await db.query<{
    due: number;
    oldest: number | null;
    running: number;
    by_state: Record<string, number>;
  }>(statsSql(db.s), [now]);
  const r = rows[0]!;
  const byState: StoreStats['schedulesByState'] = { active: 0, paused: 0, completed: 0 };
  for (const [state, n] of Object.entries(r.by_state)) {
    if (state in byState) byState[state as keyof typeof byState] = Number(n);
  }
  return { dueRuns: r.due, runningRuns: r.running, schedulesByState: byState, oldestDueAt: r.oldest };
}
