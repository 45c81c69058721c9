// Occurrence overrides on PostgreSQL: writing one (and making the occurrence's pending run follow it in the
// same transaction), removing one, listing a schedule's, reading a batch's for the materializer, and
// dropping those an update removed. The schedule row is locked first, then the run holding the occurrence;
// the run is changed only while still `scheduled`, so an override and a worker's claim (which locks runs with
// SKIP LOCKED) are exclusive: whichever commits first wins. It must never read a clock.

import { PunctualError } from '../../errors.js';
import type { Json } from '../../domain/json.js';
import type { OccurrenceOverride, OverrideKind } from '../../domain/occurrence-override.js';
import { occurrenceAction, type FoundRun } from '../override-rules.js';
import type { OverrideRemoval, OverrideWrite, RunInsert, Transition } from '../store.js';
import type { PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';
import { runListParts } from '../common/run-list-parts.js';
import { jsonParam, toRun, type RunRow } from './postgres-rows.js';
import { insertRunRows, scheduleIdOf } from './postgres-runs.js';

interface OverrideRow {
  schedule_id: string | number;
  instant: string | number;
  tenant_id: string;
  kind: string;
  move_to: string | number | null;
  payload: Json | null;
  note: string | null;
  created_at: string | number;
}

function toOverride(r: OverrideRow): OccurrenceOverride {
  return {
    tenantId: r.tenant_id,
    scheduleId: String(r.schedule_id),
    instant: Number(r.instant),
    kind: r.kind as OverrideKind,
    moveTo: r.move_to === null ? null : Number(r.move_to),
    payload: r.payload,
    note: r.note,
    createdAt: Number(r.created_at),
  };
}

/** Makes the occurrence's run follow `run`; throws OCCURRENCE_STARTED (strict) when it started. */
async function follow(
  db: PgDb,
  c: PgQueryable,
  run: RunInsert,
  now: number,
  strict: boolean,
  early: boolean,
): Promise<Transition | null> {
  const id = scheduleIdOf(run.scheduleId);
  // Locked: the materializer's advance of this schedule waits for this transaction (and the reverse).
  const { rows: found } = await c.query<{ next_fire_at: string | number | null }>(
    `SELECT next_fire_at FROM ${db.s}.schedules WHERE id = $1 AND tenant_id = $2 FOR UPDATE`,
    [id, run.tenantId],
  );
  if (found[0] === undefined) {
    throw new PunctualError('SCHEDULE_NOT_FOUND', `no schedule "${run.scheduleKey}"`, {
      key: run.scheduleKey,
    });
  }
  const next = found[0].next_fire_at === null ? null : Number(found[0].next_fire_at);
  // The run holding the occurrence (runs_occurrence). Waits for a claim in progress on the run, then reads
  // the state it committed.
  const { rows: holders } = await c.query<FoundRun>(
    `SELECT state, reason FROM ${db.s}.runs
      WHERE schedule_id = $1 AND scheduled_for = $2 AND holds_occurrence FOR UPDATE`,
    [id, run.scheduledFor],
  );
  // The occurrence's latest record: runs_tenant_key_time for the finished runs (it holds no pending run,
  // migrations 23 and 24), runs_lease for a running one, runs_schedule_pending for a scheduled one.
  const latest = (state: string): string => `(SELECT id, state, reason FROM ${db.s}.runs
         WHERE tenant_id = $1 AND schedule_key = $2 AND scheduled_for = $3 AND schedule_id = $4
           AND kind = 'scheduled' AND ${state}
         ORDER BY id DESC LIMIT 1)`;
  const { rows: last } = await c.query<FoundRun>(
    `SELECT state, reason FROM (
       ${runListParts(undefined).map(latest).join(' UNION ALL ')}
     ) AS r
      ORDER BY id DESC LIMIT 1`,
    [run.tenantId, run.scheduleKey, run.scheduledFor, id],
  );
  const materialised = next === null || run.scheduledFor < next;
  const action = occurrenceAction({ run, holder: holders[0], last: last[0], materialised, strict, early });
  if (action === 'insert') return (await insertRunRows(db, c, [run], now))[0] ?? null;
  if (action === 'none') return null;
  const { rows } = await c.query<RunRow>(
    `UPDATE ${db.s}.runs
        SET state = $2, due_at = $3, expires_at = $4, payload = $5::jsonb, reason = $6, details = $7::jsonb,
            finished_at = CASE WHEN $2 = 'scheduled' THEN NULL ELSE $8::bigint END,
            holds_occurrence = CASE WHEN $2 = 'scheduled' THEN true END
      WHERE schedule_id = $1 AND scheduled_for = $9 AND holds_occurrence AND state = 'scheduled'
      RETURNING *`,
    [
      id,
      run.state,
      run.dueAt,
      run.expiresAt,
      jsonParam(run.payload),
      run.reason,
      jsonParam(run.details),
      now,
      run.scheduledFor,
    ],
  );
  if (rows[0] === undefined) return null;
  if (run.state === 'scheduled') await db.notifyWake(c, run.dueAt);
  return { run: toRun(rows[0]), from: 'scheduled', to: run.state };
}

export async function putOccurrenceOverride(
  db: PgDb,
  w: OverrideWrite,
): Promise<{ transition: Transition | null }> {
  const o = w.override;
  return db.tx(async (c) => {
    const early = o.kind === 'move' && o.moveTo !== null && o.moveTo < o.instant;
    const transition = await follow(db, c, w.run, w.now, true, early);
    await c.query(
      `INSERT INTO ${db.s}.occurrence_overrides
         (schedule_id, instant, tenant_id, kind, move_to, payload, note, created_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)
       ON CONFLICT (schedule_id, instant) DO UPDATE SET kind = excluded.kind, move_to = excluded.move_to,
         payload = excluded.payload, note = excluded.note, created_at = excluded.created_at`,
      [
        scheduleIdOf(o.scheduleId),
        o.instant,
        o.tenantId,
        o.kind,
        o.moveTo,
        jsonParam(o.payload),
        o.note,
        o.createdAt,
      ],
    );
    return { transition };
  });
}

export async function deleteOccurrenceOverride(
  db: PgDb,
  r: OverrideRemoval,
): Promise<{ removed: boolean; transition: Transition | null }> {
  return db.tx(async (c) => {
    const { rows } = await c.query(
      `DELETE FROM ${db.s}.occurrence_overrides WHERE schedule_id = $1 AND tenant_id = $2 AND instant = $3
       RETURNING instant`,
      [scheduleIdOf(r.scheduleId), r.tenantId, r.instant],
    );
    if (rows.length === 0) return { removed: false, transition: null };
    return { removed: true, transition: await follow(db, c, r.run, r.now, false, false) };
  });
}

export async function listOccurrenceOverrides(
  db: PgDb,
  tenantId: string,
  scheduleId: string,
  opts: { from: number; limit: number },
): Promise<OccurrenceOverride[]> {
  const rows = await db.query<OverrideRow>(
    `SELECT * FROM ${db.s}.occurrence_overrides
      WHERE schedule_id = $1 AND tenant_id = $2 AND instant >= $3
      ORDER BY instant LIMIT $4`,
    [scheduleIdOf(scheduleId), tenantId, opts.from, opts.limit],
  );
  return rows.map(toOverride);
}

/** Overrides of these schedules with instant in [from, until] (the materializer's read for a batch). */
export async function overridesDue(
  db: PgDb,
  scheduleIds: readonly string[],
  from: number,
  until: number,
): Promise<OccurrenceOverride[]> {
  if (scheduleIds.length === 0) return [];
  const rows = await db.query<OverrideRow>(
    `SELECT * FROM ${db.s}.occurrence_overrides
      WHERE schedule_id = ANY($1::bigint[]) AND instant >= $2 AND instant <= $3`,
    [scheduleIds.map(scheduleIdOf), from, until],
  );
  return rows.map(toOverride);
}

/** Deletes the overrides of instants an update removed (inside the put's transaction). */
export async function dropOverrides(
  db: PgDb,
  c: PgQueryable,
  scheduleId: string,
  instants: readonly number[],
): Promise<void> {
  if (instants.length === 0) return;
  await c.query(
    `DELETE FROM ${db.s}.occurrence_overrides WHERE schedule_id = $1 AND instant = ANY($2::bigint[])`,
    [scheduleId, instants],
  );
}

/**
 * Deletes at most `limit` overrides of passed occurrences older than `before` (Store.pruneOverrides): the
 * schedule's cursor has passed the instant (its run is written) and both the instant and the move are old.
 * Rows another instance is deleting are skipped, not waited for.
 */
export async function pruneOverrides(db: PgDb, req: { before: number; limit: number }): Promise<number> {
  if (req.limit <= 0) return 0;
  const rows = await db.query(
    `DELETE FROM ${db.s}.occurrence_overrides d
      USING (SELECT o.schedule_id, o.instant
               FROM ${db.s}.occurrence_overrides o JOIN ${db.s}.schedules s ON s.id = o.schedule_id
              WHERE o.instant < $1 AND COALESCE(o.move_to, o.instant) < $1
                AND (s.next_fire_at IS NULL OR o.instant < s.next_fire_at)
              LIMIT $2
              FOR UPDATE OF o SKIP LOCKED) old
      WHERE d.schedule_id = old.schedule_id AND d.instant = old.instant
      RETURNING d.instant`,
    [req.before, req.limit],
  );
  return rows.length;
}
