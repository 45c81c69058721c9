// The materializer's side of the PostgreSQL store: claiming due schedules (FOR UPDATE SKIP LOCKED, so
// instances take disjoint sets), the compare-and-set advance that inserts a schedule's runs, and the earliest
// next occurrence. An advance is one statement, one round trip and one commit, for one schedule or a batch
// (the materializer sends batches: a commit with a wake-up notification serialises on the server, so one per
// schedule would cap fan-out). It must never read a clock: `now` always arrives as a parameter.

import type { Schedule } from '../../domain/schedule.js';
import type { Advance, AdvanceResult, ScheduleClaim } from '../store.js';
import type { PgDb } from './postgres-database.js';
import {
  columns,
  SCHEDULE_COLUMNS,
  scheduleColumns,
  toSchedule,
  type RunRow,
  type ScheduleRow,
} from './postgres-rows.js';
import { insertRunsSql, runValues, scheduleIdOf, transitionsOf } from './postgres-runs.js';

/** The schedules that roll back (`roll: "previous"`): schedules_due_roll_back's predicate, word for word. */
const ROLLS_BACK = `state = 'active' AND (calendar_rules -> 'businessDays' ->> 'roll') = 'previous'`;

/**
 * Claims ($3) due schedules: a schedules_due range up to the horizon ($2), and a schedules_due_roll_back
 * range up to $5 ms further (at most $3 more), claim lapsed by $1, for $4 ms. The claimed rows are found by a
 * primary-key probe each ("= ANY(ARRAY(…))"): with "IN (SELECT …)" the hot pool's generic plan, which takes
 * LIMIT $3 for thousands of rows, hashed them and walked the whole primary key (384 ms at 200,000 schedules).
 * A hot (prepared) statement: its columns are listed, so a migration adding one does not change its result.
 */
export function claimDueSchedulesSql(s: string): string {
  return `
    WITH due AS (
      SELECT id FROM ${s}.schedules
       WHERE state = 'active' AND next_fire_at <= $2 AND next_fire_at >= $6
         AND (claimed_until IS NULL OR claimed_until <= $1)
       ORDER BY next_fire_at, id
       LIMIT $3
       FOR UPDATE SKIP LOCKED),
    rolling AS (
      SELECT id FROM ${s}.schedules
       WHERE ${ROLLS_BACK} AND next_fire_at <= $2::bigint + $5::bigint
         AND (claimed_until IS NULL OR claimed_until <= $1)
       ORDER BY next_fire_at, id
       LIMIT $3
       FOR UPDATE SKIP LOCKED)
    UPDATE ${s}.schedules AS s
       SET claimed_until = $1::bigint + $4::bigint
     WHERE s.id = ANY(ARRAY(SELECT id FROM due UNION SELECT id FROM rolling))
     RETURNING ${columns(SCHEDULE_COLUMNS, 's')}`;
}

/**
 * Claims active schedules due by `horizon` for `leaseMs`. SKIP LOCKED lets concurrent materializers take
 * disjoint sets; the lease (claimed_until) keeps a schedule out of other claims while it is being advanced.
 * The schedules go into the store's schedule cache, for the claims of their runs.
 */
export async function claimDueSchedules(db: PgDb, req: ScheduleClaim): Promise<Schedule[]> {
  // On the hot pool (its generic plan, no sort): the custom plan of a moment with stale statistics read every
  // due schedule of a minute boundary and sorted them to take one batch (16,667 rows per claim of 200 at 1 M).
  const rows = await db.hotQuery<ScheduleRow>(
    db.named('schedules.claim', claimDueSchedulesSql, [
      req.now,
      req.horizon,
      req.limit,
      req.leaseMs,
      req.rollBackLeadMs ?? 0,
      req.from ?? Number.MIN_SAFE_INTEGER,
    ]),
  );
  const schedules = rows.map(toSchedule);
  // Their runs come due within the look-ahead: the claim then finds these in the cache instead of reading them.
  for (const sc of schedules) db.schedules.set(sc);
  return schedules.sort((a, b) => a.nextFireAt! - b.nextFireAt! || Number(a.id) - Number(b.id));
}

/**
 * The materializer's advance in one statement, so one round trip and one commit: the compare-and-set on the
 * schedule ($1 id, $2 tenant, $3 version, $4 expected next_fire_at; then $5 next_fire_at, $6 fired, $7
 * complete), the insert of its runs only when the compare-and-set matched ($8–$25, insertRunsSql), and the
 * wake-up ($26 channel) for the earliest scheduled run inserted, delivered at the commit. A second advance
 * of the same step waits for the first's row lock, re-reads the row, no longer matches and inserts nothing.
 * The compare-and-set conditions are one `(…) IS TRUE` test, which no index can serve: the primary key is
 * then the only index for this statement, whose generic plan (the hot pool's) could otherwise walk
 * schedules_due or schedules_tenant_key, chosen when the table was too small to tell.
 */
export function advanceSql(s: string): string {
  return `
    WITH adv AS (
      UPDATE ${s}.schedules
         SET next_fire_at = $5, fired_count = fired_count + $6,
             state = CASE WHEN $7::boolean THEN 'completed' ELSE state END,
             claimed_until = NULL
       WHERE id = $1
         AND (tenant_id = $2 AND version = $3 AND state = 'active'
              AND next_fire_at IS NOT DISTINCT FROM $4::bigint) IS TRUE
      RETURNING id
    ), ins AS (${insertRunsSql(s, 8, 'EXISTS (SELECT 1 FROM adv)')}
    ), woke AS (
      SELECT pg_notify($26, min(due_at)::text) FROM ins WHERE state = 'scheduled' HAVING count(*) > 0
    )
    SELECT (SELECT count(*) FROM adv) AS advanced, (SELECT count(*) FROM woke) AS woke, ins.*
      FROM (SELECT 1) AS one LEFT JOIN ins ON true`;
}

/** Compare-and-set on (version, nextFireAt, active): on conflict nothing is written. */
export async function advanceSchedule(db: PgDb, a: Advance): Promise<AdvanceResult> {
  const id = scheduleIdOf(a.scheduleId);
  const rows = await db.hotQuery<RunRow & { advanced: number | string }>(
    db.named('advance', advanceSql, [
      id,
      a.tenantId,
      a.version,
      a.expectedNextFireAt,
      a.nextFireAt,
      a.fired,
      a.complete,
      ...runValues(a.runs, a.now),
      db.channel,
    ]),
  );
  if (Number(rows[0]?.advanced ?? 0) !== 1) return { status: 'conflict', transitions: [] };
  return {
    status: 'advanced',
    transitions: transitionsOf(
      rows.filter((r) => r.id !== null),
      null,
    ),
  };
}

/**
 * advanceSql for many schedules in one statement: the compare-and-sets ($1–$7 arrays: id, tenant, version,
 * expected next_fire_at, next_fire_at, fired, complete), the runs of the schedules that advanced ($8–$25,
 * insertRunsSql), one wake-up ($26). The rows are locked first, in id order (`= ANY` on the primary key
 * reads in key order; the `locked` count is an init plan, so it runs before the update), so two instances
 * advancing overlapping batches (a lapsed materializer claim) wait for each other instead of deadlocking.
 * Every lookup is a primary-key probe from the arrays: an ORDER BY joined to the arrays let the planner walk
 * the whole primary key once per array element. The runs keep those of the schedules that advanced with
 * `= ANY (ARRAY(SELECT id FROM adv))`, the ids gathered once: as `IN (SELECT id FROM adv)` the planner, which
 * expects one row of each, made it a nested loop that scanned the advanced ids again for every run (20,000
 * CTE rows read per batch of 200). The ids that advanced come once, on the first row (on every row they would
 * cost a parse per run).
 */
export function advanceManySql(s: string): string {
  return `
    WITH sched AS (
      SELECT * FROM unnest($1::bigint[], $2::text[], $3::int[], $4::bigint[], $5::bigint[], $6::bigint[],
                           $7::boolean[])
        AS a(id, tenant_id, version, expected, next_fire_at, fired, complete)
    ), locked AS (
      SELECT sc.id FROM ${s}.schedules AS sc WHERE sc.id = ANY($1::bigint[]) ORDER BY sc.id FOR UPDATE
    ), adv AS (
      UPDATE ${s}.schedules AS sc
         SET next_fire_at = a.next_fire_at, fired_count = sc.fired_count + a.fired,
             state = CASE WHEN a.complete THEN 'completed' ELSE sc.state END,
             claimed_until = NULL
        FROM sched AS a
       WHERE sc.id = a.id AND (SELECT count(*) FROM locked) IS NOT NULL
         AND (sc.tenant_id = a.tenant_id AND sc.version = a.version AND sc.state = 'active'
              AND sc.next_fire_at IS NOT DISTINCT FROM a.expected) IS TRUE
      RETURNING sc.id
    ), ins AS (${insertRunsSql(s, 8, 'u.schedule_id = ANY (ARRAY(SELECT id FROM adv))')}
    ), woke AS (
      SELECT pg_notify($26, min(due_at)::text) FROM ins WHERE state = 'scheduled' HAVING count(*) > 0
    )
    SELECT CASE WHEN row_number() OVER () = 1 THEN (SELECT array_agg(id) FROM adv)::text[] END AS advanced,
           (SELECT count(*) FROM woke) AS woke, ins.*
      FROM (SELECT 1) AS one LEFT JOIN ins ON true`;
}

/** Compare-and-set of each advance (distinct schedules) in one statement; results in input order. */
export async function advanceSchedules(db: PgDb, advances: Advance[]): Promise<AdvanceResult[]> {
  if (advances.length === 0) return [];
  const ids = advances.map((a) => scheduleIdOf(a.scheduleId));
  if (new Set(ids).size !== ids.length) throw new Error('advanceSchedules: a schedule appears twice');
  const rows = await db.hotQuery<RunRow & { advanced: string[] | null }>(
    db.named('advance_many', advanceManySql, [
      ids,
      advances.map((a) => a.tenantId),
      advances.map((a) => a.version),
      advances.map((a) => a.expectedNextFireAt),
      advances.map((a) => a.nextFireAt),
      advances.map((a) => a.fired),
      advances.map((a) => a.complete),
      ...runValues(
        advances.flatMap((a) => a.runs),
        advances[0]!.now,
      ),
      db.channel,
    ]),
  );
  const advanced = new Set(rows.find((r) => r.advanced !== null)?.advanced ?? []);
  const bySchedule = new Map<string, RunRow[]>();
  for (const r of rows) {
    if (r.id === null) continue;
    const sid = String(r.schedule_id);
    const list = bySchedule.get(sid);
    if (list) list.push(r);
    else bySchedule.set(sid, [r]);
  }
  return ids.map((id) =>
    advanced.has(id)
      ? { status: 'advanced', transitions: transitionsOf(bySchedule.get(id) ?? [], null) }
      : { status: 'conflict', transitions: [] },
  );
}

export async function nextRollingBackAt(db: PgDb): Promise<number | null> {
  // One probe of schedules_due_roll_back.
  const rows = await db.query<{ at: string | number | null }>(
    `SELECT min(next_fire_at) AS at FROM ${db.s}.schedules WHERE ${ROLLS_BACK}`,
  );
  const at = rows[0]?.at ?? null;
  return at === null ? null : Number(at);
}

export async function nextScheduleAt(db: PgDb, from?: number): Promise<number | null> {
  // One probe of schedules_due, from the materializer's low-water mark.
  const rows = await db.query<{ at: number | null }>(
    `SELECT min(next_fire_at) AS at FROM ${db.s}.schedules WHERE state = 'active' AND next_fire_at >= $1`,
    [from ?? Number.MIN_SAFE_INTEGER],
  );
  return rows[0]?.at ?? null;
}

/** Overdue schedules (nothing materialised their next occurrence within the grace), each returned once. */
export async function takeOverdueSchedules(
  db: PgDb,
  now: number,
  graceMs: number,
  limit: number,
): Promise<Schedule[]> {
  if (limit <= 0) return [];
  // schedules_due range; schedules already reported for this occurrence stay few (they are overdue).
  const rows = await db.query<ScheduleRow>(
    `UPDATE ${db.s}.schedules AS sc SET not_fired_at = next_fire_at
      WHERE id IN (SELECT id FROM ${db.s}.schedules
                    WHERE state = 'active' AND next_fire_at < $1::bigint - $2::bigint
                      AND not_fired_at IS DISTINCT FROM next_fire_at
                    ORDER BY next_fire_at, id
                    LIMIT $3
                    FOR UPDATE SKIP LOCKED)
      RETURNING ${scheduleColumns(db.s, 'sc')}`,
    [now, graceMs, limit],
  );
  return rows
    .map(toSchedule)
    .sort((a, b) => (a.nextFireAt ?? 0) - (b.nextFireAt ?? 0) || Number(a.id) - Number(b.id));
}
