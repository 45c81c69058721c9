// Run reads and housekeeping of the SQLite store: one run with its attempts, pages of runs, the earliest due
// instant, "not fired" detection, history pruning and the counts for metrics. Searches stay on the indexes
// named beside each statement. It must never read a clock: `now` comes from the caller.

import type { Attempt, Run } from '../../domain/run.js';
import type { Page, PruneRequest, RunQuery, StoreStats } from '../store.js';
import { KEEP_SCAN_BATCH, KEEP_SCAN_BUDGET, KeepScan } from '../keep-scan.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { PRIORITY_LEVELS } from './sqlite-claim.js';
import { decodeCursor, encodeCursor } from '../common/page-cursor.js';
import { RUNNING_RUNS, runListParts, SCHEDULED_RUNS } from '../common/run-list-parts.js';
import { parseId, toAttempt, toRun, type AttemptRow, type RunRow } from './sqlite-rows.js';

const GET_RUN = 'SELECT * FROM runs WHERE id = ? AND tenant_id = ?';
const ATTEMPTS = 'SELECT * FROM attempts WHERE run_id = ? ORDER BY started_at, id';

// One probe of runs_claim per priority level (a plain MIN(due_at) would walk the whole index).
const NEXT_DUE = `
  WITH RECURSIVE level(p) AS (
    SELECT MAX(priority) FROM runs WHERE state = 'scheduled'
    UNION ALL
    SELECT (SELECT MAX(priority) FROM runs WHERE state = 'scheduled' AND priority < level.p)
    FROM level WHERE level.p IS NOT NULL)
  SELECT MIN((SELECT MIN(due_at) FROM runs WHERE state = 'scheduled' AND priority = level.p)) AS v
  FROM level WHERE p IS NOT NULL`;

// runs_claim range per level; reported runs are filtered out (they stay few: they are overdue).
const NOT_FIRED_IN_LEVEL = `
  SELECT id, due_at FROM runs
  WHERE state = 'scheduled' AND priority = ? AND due_at < ? AND not_fired_reported = 0
  ORDER BY due_at, id LIMIT ?`;

const MARK_REPORTED = `
  UPDATE runs SET not_fired_reported = 1 WHERE id = ? AND state = 'scheduled' RETURNING *`;

// runs_finished range. finished_at is set exactly when a run is final, so these are final runs.
export const OLD_FINAL = `
  SELECT id FROM runs
  WHERE finished_at IS NOT NULL AND finished_at < ? AND state IN (SELECT value FROM json_each(?))
  ORDER BY finished_at LIMIT ?`;

// The keep-per-schedule scan (store/keep-scan.ts): runs finished since the mark, a runs_finished range.
export const FINISHED_SINCE = `
  SELECT schedule_id, finished_at FROM runs INDEXED BY runs_finished
  WHERE finished_at IS NOT NULL AND finished_at >= ? ORDER BY finished_at LIMIT ?`;

// One schedule's final runs beyond the newest `keep`: a runs_schedule_finished range, newest first.
export const BEYOND_KEEP = `
  SELECT id FROM runs
  WHERE schedule_id = ? AND finished_at IS NOT NULL ORDER BY finished_at DESC, id DESC LIMIT ? OFFSET ?`;

// Due runs: one runs_claim range (priority = ?, due_at <= now) per priority level, counted from the index.
export const STATS_DUE = `
  WITH RECURSIVE level(p) AS (
    SELECT MAX(priority) FROM runs WHERE state = 'scheduled'
    UNION ALL
    SELECT (SELECT MAX(priority) FROM runs WHERE state = 'scheduled' AND priority < level.p)
    FROM level WHERE level.p IS NOT NULL)
  SELECT
    SUM((SELECT COUNT(*) FROM runs WHERE state = 'scheduled' AND priority = level.p AND due_at <= @now)) AS due,
    MIN((SELECT MIN(due_at) FROM runs WHERE state = 'scheduled' AND priority = level.p AND due_at <= @now))
      AS oldest
  FROM level WHERE p IS NOT NULL`;

// runs_lease holds running runs only: its whole (small) extent is the count.
export const STATS_RUNNING = "SELECT COUNT(*) FROM runs WHERE state = 'running'";

// schedule_counts (kept by triggers, migration 0016): a few rows per tenant, never the schedules.
export const STATS_SCHEDULES = 'SELECT state, SUM(n) AS n FROM schedule_counts GROUP BY state';

// Attempts go with their run (ON DELETE CASCADE).
const DELETE_RUNS = 'DELETE FROM runs WHERE id IN (SELECT value FROM json_each(?))';

export const KEPT_LONG = JSON.stringify(['succeeded', 'skipped', 'cancelled']);
const FAILED = JSON.stringify(['dead', 'expired']);

export function getRun(
  sql: SqliteDatabase,
  tenantId: string,
  runId: string,
): { run: Run; attempts: Attempt[] } | undefined {
  const id = parseId(runId);
  if (id === undefined) return undefined;
  return sql.read(() => {
    const row = sql.stmt(GET_RUN).get(id, tenantId) as RunRow | undefined;
    if (row === undefined) return undefined;
    const attempts = sql.stmt(ATTEMPTS).all(id) as AttemptRow[];
    return { run: toRun(row), attempts: [...attempts, ...succeededAttempt(row)].map(toAttempt) };
  });
}

/** The successful attempt a run row holds (migration 0020), after the attempts rows of the earlier ones. */
function succeededAttempt(row: RunRow): AttemptRow[] {
  if (row.state !== 'succeeded' || row.succeeded_by === null) return [];
  return [
    {
      run_id: row.id,
      attempt: row.attempt,
      worker_id: row.succeeded_by,
      started_at: row.attempt_started_at!,
      finished_at: row.attempt_finished_at!,
      outcome: 'succeeded',
      error: null,
      result: row.result,
    },
  ];
}

/**
 * The page statement of listRuns, newest first, in up to three parts merged (common/run-list-parts.ts): the
 * finished runs are a range of runs_tenant_key_time or runs_tenant_time read backwards (which hold no pending
 * run since migration 0022: the predicate is repeated so SQLite matches them), the running ones are read from
 * runs_lease (every running run, as many as the workers execute at once) and the scheduled ones from
 * runs_claim_tenant (the tenant's runs within the look-ahead and retries waiting for their backoff), each
 * sorted. Each part names its index: without statistics SQLite would walk the table for a pending part.
 */
export function listRunsSql(where: string, q: RunQuery): string {
  const indexOf = (part: string): string =>
    part === RUNNING_RUNS
      ? 'runs_lease'
      : part === SCHEDULED_RUNS
        ? 'runs_claim_tenant'
        : q.scheduleKey === undefined
          ? 'runs_tenant_time'
          : 'runs_tenant_key_time';
  const part = (p: string): string =>
    `SELECT * FROM (SELECT * FROM runs INDEXED BY ${indexOf(p)} WHERE ${where} AND ${p}
       ORDER BY scheduled_for DESC, id DESC LIMIT @limit)`;
  const parts = runListParts(q.state).map(part);
  return parts.length === 1
    ? parts[0]!
    : `${parts.join(' UNION ALL ')} ORDER BY scheduled_for DESC, id DESC LIMIT @limit`;
}

export function listRuns(sql: SqliteDatabase, q: RunQuery): Page<Run> {
  const limit = Math.max(1, q.limit);
  const where = ['tenant_id = @tenantId'];
  const params: Record<string, unknown> = { tenantId: q.tenantId, limit: limit + 1 };
  if (q.scheduleKey !== undefined) {
    where.push('schedule_key = @scheduleKey');
    params.scheduleKey = q.scheduleKey;
  }
  if (q.state !== undefined) {
    where.push('state = @state');
    params.state = q.state;
  }
  if (q.from !== undefined) {
    where.push('scheduled_for >= @from');
    params.from = q.from;
  }
  if (q.to !== undefined) {
    where.push('scheduled_for < @to');
    params.to = q.to;
  }
  if (q.cursor !== undefined) {
    const [scheduledFor, id] = decodeCursor<[number, number]>(q.cursor, ['number', 'number']);
    where.push('(scheduled_for, id) < (@afterFor, @afterId)');
    params.afterFor = scheduledFor;
    params.afterId = id;
  }
  const text = listRunsSql(where.join(' AND '), q);
  const rows = sql.read(() => sql.stmt(text).all(params)) as RunRow[];
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  const items = page.map(toRun);
  return more && last !== undefined
    ? { items, nextCursor: encodeCursor([last.scheduled_for, last.id]) }
    : { items };
}

export function nextRunDueAt(sql: SqliteDatabase): number | null {
  const row = sql.read(() => sql.stmt(NEXT_DUE).get()) as { v: number | null } | undefined;
  return row?.v ?? null;
}

// runs_schedule_state (schedule_id, state), pending runs only: one probe per schedule of the page. Named, because without
// statistics SQLite prefers runs_claim_tenant (tenant_id = ?), a walk of every pending run of the tenant.
export const PENDING_DUE = `
  SELECT schedule_id AS id, MIN(due_at) AS at FROM runs INDEXED BY runs_schedule_state
  WHERE schedule_id IN (SELECT value FROM json_each(?)) AND state = 'scheduled' AND tenant_id = ?
  GROUP BY schedule_id`;

export function pendingDueAt(
  sql: SqliteDatabase,
  tenantId: string,
  scheduleIds: readonly string[],
): Map<string, number> {
  const ids = scheduleIds.map(parseId).filter((id): id is number => id !== undefined);
  const out = new Map<string, number>();
  if (ids.length === 0) return out;
  const rows = sql.read(() => sql.stmt(PENDING_DUE).all(JSON.stringify(ids), tenantId)) as {
    id: number;
    at: number;
  }[];
  for (const r of rows) out.set(String(r.id), r.at);
  return out;
}

export function takeNotFired(sql: SqliteDatabase, now: number, graceMs: number, limit: number): Run[] {
  if (limit <= 0) return [];
  return sql.write(() => {
    const found: { id: number; due_at: number }[] = [];
    for (const priority of sql.pluck(PRIORITY_LEVELS).all() as number[]) {
      found.push(...(sql.stmt(NOT_FIRED_IN_LEVEL).all(priority, now - graceMs, limit) as typeof found));
    }
    found.sort((a, b) => a.due_at - b.due_at || a.id - b.id);
    const mark = sql.stmt(MARK_REPORTED);
    return found.slice(0, limit).map((r) => toRun(mark.get(r.id) as RunRow));
  });
}

/**
 * Deletes at most `limit` final runs: past their retention (runs_finished ranges), then beyond the newest
 * `keepPerSchedule` of the schedules whose runs finished since the scan's mark (store/keep-scan.ts).
 */
export function pruneHistory(sql: SqliteDatabase, req: PruneRequest, scan: KeepScan): number {
  if (req.limit <= 0) return 0;
  const start = scan.from;
  try {
    return pruneIn(sql, req, scan);
  } catch (err) {
    scan.rewind(start); // the transaction that moved the mark did not commit
    throw err;
  }
}

function pruneIn(sql: SqliteDatabase, req: PruneRequest, scan: KeepScan): number {
  return sql.write(() => {
    const ids = new Set<number>();
    const take = (found: number[]): void => {
      for (const id of found) if (ids.size < req.limit) ids.add(id);
    };
    take(sql.pluck(OLD_FINAL).all(req.now - req.retentionMs, KEPT_LONG, req.limit) as number[]);
    take(sql.pluck(OLD_FINAL).all(req.now - req.failedRetentionMs, FAILED, req.limit) as number[]);
    if (Number.isFinite(req.keepPerSchedule)) {
      const keep = Math.max(0, Math.floor(req.keepPerSchedule));
      const seen = new Set<string>();
      for (let read = 0; ids.size < req.limit && read < KEEP_SCAN_BUDGET;) {
        const batch = (
          sql.stmt(FINISHED_SINCE).all(scan.from, KEEP_SCAN_BATCH) as {
            schedule_id: number;
            finished_at: number;
          }[]
        ).map((r) => ({ scheduleId: String(r.schedule_id), finishedAt: r.finished_at }));
        read += batch.length;
        for (const id of KeepScan.schedules(batch, seen)) {
          take(sql.pluck(BEYOND_KEEP).all(Number(id), req.limit - ids.size, keep) as number[]);
          if (ids.size >= req.limit) break;
        }
        // The mark moves only past a batch whose schedules were all trimmed.
        if (ids.size >= req.limit || scan.advance(batch, KEEP_SCAN_BATCH, req.now)) break;
      }
    }
    if (ids.size === 0) return 0;
    return sql.stmt(DELETE_RUNS).run(JSON.stringify([...ids])).changes;
  });
}

export function stats(sql: SqliteDatabase, now: number): StoreStats {
  return sql.read(() => {
    const due = sql.stmt(STATS_DUE).get({ now }) as { due: number | null; oldest: number | null } | undefined;
    const running = sql.pluck(STATS_RUNNING).get() as number;
    const byState: StoreStats['schedulesByState'] = { active: 0, paused: 0, completed: 0 };
    for (const r of sql.stmt(STATS_SCHEDULES).all() as { state: keyof typeof byState; n: number }[]) {
      byState[r.state] = r.n;
    }
    return {
      dueRuns: due?.due ?? 0,
      runningRuns: running,
      schedulesByState: byState,
      oldestDueAt: due?.oldest ?? null,
    };
  });
}
