// Occurrence overrides on SQLite: writing one (and making the occurrence's pending run follow it in the same
// BEGIN IMMEDIATE transaction), removing one, listing a schedule's, reading a batch's for the materializer,
// and dropping those an update removed. The conditional update of a pending run (`state = 'scheduled'`) is
// what makes an override and a claim exclusive. It must never read a clock.

import { PunctualError } from '../../errors.js';
import type { OccurrenceOverride, OverrideKind } from '../../domain/occurrence-override.js';
import type { Json } from '../../domain/json.js';
import { occurrenceAction, type FoundRun } from '../override-rules.js';
import { runListParts } from '../common/run-list-parts.js';
import type { OverrideRemoval, OverrideWrite, RunInsert, Transition } from '../store.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { fromJson, toJson, toRun, type RunRow, type ScheduleRow } from './sqlite-rows.js';
import { insertRuns, scheduleIdOf } from './sqlite-runs.js';

interface OverrideRow {
  schedule_id: number;
  instant: number;
  tenant_id: string;
  kind: string;
  move_to: number | null;
  payload: string | null;
  note: string | null;
  created_at: number;
}

const SCHEDULE = 'SELECT * FROM schedules WHERE id = ? AND tenant_id = ?';
// runs_occurrence: the run holding the occurrence.
const HOLDER =
  'SELECT state, reason FROM runs WHERE schedule_id = ? AND scheduled_for = ? AND holds_occurrence';
// The occurrence's latest record of its spec (not a manual run): runs_tenant_key_time for the finished runs
// (migration 0022), runs_schedule_state for a running or a scheduled one.
const latest = (state: string): string => `SELECT * FROM (
    SELECT id, state, reason FROM runs
    WHERE tenant_id = @tenantId AND schedule_key = @key AND scheduled_for = @at AND schedule_id = @id
      AND kind = 'scheduled' AND ${state}
    ORDER BY id DESC LIMIT 1)`;
const LAST = `
  SELECT state, reason FROM (${runListParts(undefined).map(latest).join(' UNION ALL ')})
  ORDER BY id DESC LIMIT 1`;
const UPSERT = `
  INSERT INTO occurrence_overrides (schedule_id, instant, tenant_id, kind, move_to, payload, note, created_at)
  VALUES (@scheduleId, @instant, @tenantId, @kind, @moveTo, @payload, @note, @createdAt)
  ON CONFLICT (schedule_id, instant) DO UPDATE SET kind = excluded.kind, move_to = excluded.move_to,
    payload = excluded.payload, note = excluded.note, created_at = excluded.created_at`;
const DELETE = 'DELETE FROM occurrence_overrides WHERE schedule_id = ? AND tenant_id = ? AND instant = ?';
// Only while still scheduled: a claim that came first leaves it running and this changes nothing.
const FOLLOW = `
  UPDATE runs SET state = @state, due_at = @dueAt, expires_at = @expiresAt, payload = @payload,
    reason = @reason, details = @details,
    finished_at = CASE WHEN @state = 'scheduled' THEN NULL ELSE @now END,
    holds_occurrence = CASE WHEN @state = 'scheduled' THEN 1 END
  WHERE schedule_id = @scheduleId AND scheduled_for = @at AND holds_occurrence AND state = 'scheduled'
  RETURNING *`;
const LIST = `
  SELECT * FROM occurrence_overrides WHERE schedule_id = ? AND tenant_id = ? AND instant >= ?
  ORDER BY instant LIMIT ?`;

function toOverride(r: OverrideRow): OccurrenceOverride {
  return {
    tenantId: r.tenant_id,
    scheduleId: String(r.schedule_id),
    instant: r.instant,
    kind: r.kind as OverrideKind,
    moveTo: r.move_to,
    payload: fromJson<Json>(r.payload),
    note: r.note,
    createdAt: r.created_at,
  };
}

/** Makes the occurrence's run follow `run`; throws OCCURRENCE_STARTED (strict) when it started. */
function follow(
  sql: SqliteDatabase,
  run: RunInsert,
  now: number,
  strict: boolean,
  early: boolean,
): Transition | null {
  const id = scheduleIdOf(run.scheduleId);
  const schedule = sql.stmt(SCHEDULE).get(id, run.tenantId) as ScheduleRow | undefined;
  if (schedule === undefined) {
    throw new PunctualError('SCHEDULE_NOT_FOUND', `no schedule "${run.scheduleKey}"`, {
      key: run.scheduleKey,
    });
  }
  const holder = sql.stmt(HOLDER).get(id, run.scheduledFor) as FoundRun | undefined;
  const last = sql
    .stmt(LAST)
    .get({ tenantId: run.tenantId, key: run.scheduleKey, at: run.scheduledFor, id }) as FoundRun | undefined;
  const materialised = schedule.next_fire_at === null || run.scheduledFor < schedule.next_fire_at;
  const action = occurrenceAction({ run, holder, last, materialised, strict, early });
  if (action === 'insert') return insertRuns(sql, [run], now)[0] ?? null;
  if (action === 'none') return null;
  const row = sql.stmt(FOLLOW).get({
    scheduleId: id,
    at: run.scheduledFor,
    state: run.state,
    dueAt: run.dueAt,
    expiresAt: run.expiresAt,
    payload: toJson(run.payload),
    reason: run.reason,
    details: toJson(run.details),
    now,
  }) as RunRow | undefined;
  return row === undefined ? null : { run: toRun(row), from: 'scheduled', to: run.state };
}

export function putOccurrenceOverride(
  sql: SqliteDatabase,
  w: OverrideWrite,
): { transition: Transition | null } {
  const o = w.override;
  return sql.write(() => {
    const early = o.kind === 'move' && o.moveTo !== null && o.moveTo < o.instant;
    const transition = follow(sql, w.run, w.now, true, early);
    sql.stmt(UPSERT).run({
      scheduleId: scheduleIdOf(o.scheduleId),
      instant: o.instant,
      tenantId: o.tenantId,
      kind: o.kind,
      moveTo: o.moveTo,
      payload: toJson(o.payload),
      note: o.note,
      createdAt: o.createdAt,
    });
    return { transition };
  });
}

export function deleteOccurrenceOverride(
  sql: SqliteDatabase,
  r: OverrideRemoval,
): { removed: boolean; transition: Transition | null } {
  return sql.write(() => {
    const { changes } = sql.stmt(DELETE).run(scheduleIdOf(r.scheduleId), r.tenantId, r.instant);
    if (changes === 0) return { removed: false, transition: null };
    return { removed: true, transition: follow(sql, r.run, r.now, false, false) };
  });
}

export function listOccurrenceOverrides(
  sql: SqliteDatabase,
  tenantId: string,
  scheduleId: string,
  opts: { from: number; limit: number },
): OccurrenceOverride[] {
  const rows = sql.read(() =>
    sql.stmt(LIST).all(scheduleIdOf(scheduleId), tenantId, opts.from, opts.limit),
  ) as OverrideRow[];
  return rows.map(toOverride);
}

/** Overrides of these schedules with instant in [from, until] (the materializer's read for a batch). */
export function overridesDue(
  sql: SqliteDatabase,
  scheduleIds: readonly string[],
  from: number,
  until: number,
): OccurrenceOverride[] {
  if (scheduleIds.length === 0) return [];
  const ids = scheduleIds.map(scheduleIdOf);
  const rows = sql.read(() =>
    sql
      .stmt(
        `SELECT * FROM occurrence_overrides
          WHERE schedule_id IN (SELECT value FROM json_each(?)) AND instant >= ? AND instant <= ?`,
      )
      .all(JSON.stringify(ids), from, until),
  ) as OverrideRow[];
  return rows.map(toOverride);
}

/** Deletes the overrides of instants an update removed (inside the put's transaction). */
export function dropOverrides(sql: SqliteDatabase, scheduleId: number, instants: readonly number[]): void {
  const del = sql.stmt('DELETE FROM occurrence_overrides WHERE schedule_id = ? AND instant = ?');
  for (const t of instants) del.run(scheduleId, t);
}

// The schedule's cursor has passed the instant (its run is written) and both the instant and the move are old.
const PRUNE = `
  DELETE FROM occurrence_overrides WHERE rowid IN (
    SELECT o.rowid FROM occurrence_overrides o JOIN schedules s ON s.id = o.schedule_id
     WHERE o.instant < @before AND COALESCE(o.move_to, o.instant) < @before
       AND (s.next_fire_at IS NULL OR o.instant < s.next_fire_at)
     LIMIT @limit)`;

/** Deletes at most `limit` overrides of passed occurrences older than `before` (Store.pruneOverrides). */
export function pruneOverrides(sql: SqliteDatabase, req: { before: number; limit: number }): number {
  if (req.limit <= 0) return 0;
  return sql.write(() => sql.stmt(PRUNE).run({ before: req.before, limit: req.limit }).changes);
}
