// Schedule operations of the SQLite store: upsert by (tenant, key) with versioning, lookups and pages,
// delete / pause / resume and timed pauses (the materializer's are in sqlite-materializer.ts). Each write is
// one BEGIN IMMEDIATE transaction. It must never read a clock: every instant comes from the caller.

import { sameDraft, type Schedule, type ScheduleDraft } from '../../domain/schedule.js';
import { targetKind } from '../../domain/target.js';
import {
  sameAsStored,
  type Page,
  type PutScheduleRequest,
  type PutScheduleResult,
  type ScheduleQuery,
  type Store,
  type Transition,
} from '../store.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { decodeCursor, encodeCursor } from '../common/page-cursor.js';
import { putRefusal } from '../common/put-rules.js';
import { STORED_DESCRIPTION } from '../common/row-decoding.js';
import { storedDefaults } from '../common/stored-defaults.js';
import { toJson, toSchedule, type ScheduleReadRow, type ScheduleRow } from './sqlite-rows.js';
import { EXECUTIONS_JOIN, executionsIn, NO_EXECUTIONS, WITH_EXECUTIONS } from './sqlite-executions.js';
import { cancelPending, insertRuns, skipPaused } from './sqlite-runs.js';
import { putRevision, stateRevision } from '../revision-record.js';
import type { RevisionNote } from '../../domain/schedule-revision.js';
import {
  insertCreatedRevision,
  insertRevision,
  keepRevisionContent,
  reserveRevisionSeq,
  writeOutCreation,
} from './sqlite-revisions.js';
import { dropOverrides } from './sqlite-overrides.js';

const GET = `SELECT ${WITH_EXECUTIONS} FROM schedules ${EXECUTIONS_JOIN} WHERE tenant_id = ? AND key = ?`;

const INSERT = `
  INSERT INTO schedules (tenant_id, key, spec, spec_kind, tz, target_kind, target, payload, policies, overlap,
    start_at, end_at, max_runs, jitter_ms, description, summary, labels, dst, calendar_rules, expect, state, paused_at, version, next_fire_at,
    fired_count, created_at, updated_at, created_seq, created_by)
  VALUES (@tenantId, @key, @spec, @specKind, @tz, @targetKind, @target, @payload, @policies, @overlap,
    @startAt, @endAt, @maxRuns, @jitterMs, @description, @summary, @labels, @dst, @calendarRules, @expect, @state,
    CASE WHEN @state = 'paused' THEN @now END, 1, @nextFireAt, 0, @now, @now, @createdSeq, @createdBy)
  RETURNING *`;

// A change reopens a completed schedule but leaves a paused one paused; fired_count and created_at stay.
const UPDATE = `
  UPDATE schedules SET spec = @spec, spec_kind = @specKind, tz = @tz, target_kind = @targetKind,
    target = @target, payload = @payload, policies = @policies, overlap = @overlap, start_at = @startAt,
    end_at = @endAt, max_runs = @maxRuns, jitter_ms = @jitterMs, description = @description,
    summary = @summary, labels = @labels, dst = @dst, calendar_rules = @calendarRules, expect = @expect, version = version + 1, next_fire_at = @nextFireAt, updated_at = @now,
    state = CASE WHEN state = 'completed' THEN 'active' ELSE state END
  WHERE id = @id
  RETURNING *`;

const DELETE = 'DELETE FROM schedules WHERE tenant_id = ? AND key = ? RETURNING *';

const PAUSE = `
  UPDATE schedules SET state = 'paused', paused_at = COALESCE(paused_at, @now), note = @note,
    paused_until = @until, updated_at = @now
  WHERE id = @id AND state IN ('active', 'paused')
  RETURNING *`;

const RESUME = `
  UPDATE schedules SET state = 'active', paused_at = NULL, paused_until = NULL, note = NULL,
    next_fire_at = @nextFireAt, updated_at = @now
  WHERE id = @id AND state = 'paused' AND (@dueBy IS NULL OR paused_until <= @dueBy)
  RETURNING *`;

/** A draft's columns. What holds its default is an empty text (stored-defaults.ts, migration 0023). */
function draftParams(d: ScheduleDraft): Record<string, unknown> {
  const stored = storedDefaults(d);
  return {
    spec: d.spec,
    specKind: d.specKind,
    tz: stored.tz ?? '',
    targetKind: targetKind(d.target),
    target: JSON.stringify(d.target),
    payload: toJson(d.payload),
    policies: stored.policies === null ? '' : JSON.stringify(stored.policies),
    overlap: '',
    startAt: d.startAt,
    endAt: d.endAt,
    maxRuns: d.maxRuns,
    jitterMs: d.jitterMs,
    description: STORED_DESCRIPTION,
    summary: d.summary,
    labels: stored.labels === null ? '' : JSON.stringify(stored.labels),
    dst: d.dst === null ? null : JSON.stringify(d.dst),
    calendarRules: d.calendarRules == null ? null : JSON.stringify(d.calendarRules),
    expect: d.expect == null ? null : JSON.stringify(d.expect),
  };
}

export function putSchedule(sql: SqliteDatabase, req: PutScheduleRequest): PutScheduleResult {
  return sql.write(() => putIn(sql, req));
}

/**
 * Several puts in one transaction: all of them are written, or none (a refusal throws out of the whole
 * write, so no put needs a savepoint of its own). Each put sees the ones before it.
 */
export function putSchedules(sql: SqliteDatabase, reqs: readonly PutScheduleRequest[]): PutScheduleResult[] {
  return sql.write(() => reqs.map((r) => putIn(sql, r)));
}

/** One put; the caller is inside the write transaction. */
function putIn(sql: SqliteDatabase, req: PutScheduleRequest): PutScheduleResult {
  const d = req.draft;
  const row = sql.stmt(GET).get(d.tenantId, d.key) as ScheduleReadRow | undefined;
  const refusal = putRefusal(req, row?.version ?? null);
  if (refusal !== undefined) throw refusal;
  const params = { ...draftParams(d), nextFireAt: req.nextFireAt, now: req.now };
  if (row === undefined) {
    const state = req.initialState ?? 'active';
    // A creation's revision stays in the row (its number reserved) until the schedule changes; a rollback
    // that re-creates a schedule writes its revision at once.
    const deferred = req.revision?.fromVersion === undefined;
    const inserted = sql.stmt(INSERT).get({
      ...params,
      tenantId: d.tenantId,
      key: d.key,
      state,
      createdSeq: deferred ? reserveRevisionSeq(sql) : null,
      createdBy: deferred ? (req.revision?.actor ?? null) : null,
    }) as ScheduleRow;
    const schedule = toSchedule({ ...inserted, ...NO_EXECUTIONS });
    if (!deferred) insertCreatedRevision(sql, schedule, req.revision, req.now);
    return { schedule, created: true, changed: true, transitions: [] };
  }
  const current = toSchedule(row);
  if (sameAsStored(req, current, () => sameDraft(current, d))) {
    return { schedule: current, created: false, changed: false, transitions: [] };
  }
  writeOutCreation(sql, row.id);
  keepRevisionContent(sql, current);
  const updated = toSchedule({
    ...(sql.stmt(UPDATE).get({ ...params, id: row.id }) as ScheduleRow),
    ...executionsIn(row),
  });
  const transitions = cancelPending(sql, row.id, 'updated', req.now);
  if (req.dropOverrides !== undefined) dropOverrides(sql, row.id, req.dropOverrides);
  insertRevision(sql, putRevision(current, updated, req.revision, req.now));
  return { schedule: updated, created: false, changed: true, transitions };
}

export function getSchedule(sql: SqliteDatabase, tenantId: string, key: string): Schedule | undefined {
  const row = sql.read(() => sql.stmt(GET).get(tenantId, key)) as ScheduleReadRow | undefined;
  return row === undefined ? undefined : toSchedule(row);
}

/** The tenant's schedules with these keys, once each, in the order of `keys` (one read). */
export function getSchedules(sql: SqliteDatabase, tenantId: string, keys: readonly string[]): Schedule[] {
  return sql.read(() => {
    const out: Schedule[] = [];
    for (const key of new Set(keys)) {
      const row = sql.stmt(GET).get(tenantId, key) as ScheduleReadRow | undefined;
      if (row !== undefined) out.push(toSchedule(row));
    }
    return out;
  });
}

export function listSchedules(sql: SqliteDatabase, q: ScheduleQuery): Page<Schedule> {
  const where = ['tenant_id = @tenantId'];
  const params: Record<string, unknown> = { tenantId: q.tenantId, limit: Math.max(1, q.limit) + 1 };
  // A rare state (paused, completed) reads schedules_not_active, whose predicate the list repeats.
  const rare = q.state !== undefined && q.state !== 'active';
  if (q.state !== undefined) {
    where.push(rare ? "state = @state AND state <> 'active'" : 'state = @state');
    params.state = q.state;
  }
  if (q.targetKind !== undefined) {
    where.push('target_kind = @targetKind');
    params.targetKind = q.targetKind;
  }
  if (q.keyPrefix !== undefined && q.keyPrefix !== '') {
    // The range keeps it an index search on (tenant_id, key); substr makes the match exact.
    where.push('key >= @prefix AND key < @prefixEnd AND substr(key, 1, @prefixLength) = @prefix');
    params.prefix = q.keyPrefix;
    params.prefixEnd = `${q.keyPrefix}\u{10FFFF}`;
    params.prefixLength = [...q.keyPrefix].length;
  }
  for (const [i, [k, v]] of (q.labels ?? []).entries()) {
    // Empty labels are an empty text (migration 0023), which json_extract would refuse as malformed JSON.
    where.push(`json_extract(NULLIF(labels, ''), @labelPath${i}) = @labelValue${i}`);
    params[`labelPath${i}`] = `$."${k}"`;
    params[`labelValue${i}`] = v;
  }
  if (q.cursor !== undefined) {
    where.push('key > @after');
    params.after = decodeCursor<[string]>(q.cursor, ['string'])[0];
  }
  const from = rare ? 'schedules INDEXED BY schedules_not_active' : 'schedules';
  const text = `SELECT ${WITH_EXECUTIONS} FROM ${from} ${EXECUTIONS_JOIN} WHERE ${where.join(' AND ')} ORDER BY key LIMIT @limit`;
  const rows = sql.read(() => sql.stmt(text).all(params)) as ScheduleReadRow[];
  const more = rows.length > Math.max(1, q.limit);
  const items = (more ? rows.slice(0, -1) : rows).map(toSchedule);
  const last = items[items.length - 1];
  return more && last !== undefined ? { items, nextCursor: encodeCursor([last.key]) } : { items };
}

export function deleteSchedule(
  sql: SqliteDatabase,
  tenantId: string,
  key: string,
  now: number,
  note?: RevisionNote,
): { deleted: boolean; transitions: Transition[] } {
  return sql.write(() => {
    // Its counts first: a trigger deletes them with the row.
    const found = sql.stmt(GET).get(tenantId, key) as ScheduleReadRow | undefined;
    if (found !== undefined) writeOutCreation(sql, found.id);
    const deleted = sql.stmt(DELETE).get(tenantId, key) as ScheduleRow | undefined;
    if (found === undefined || deleted === undefined) return { deleted: false, transitions: [] };
    const row: ScheduleReadRow = { ...deleted, ...executionsIn(found) };
    keepRevisionContent(sql, toSchedule(row));
    insertRevision(sql, stateRevision(toSchedule(row), 'deleted', note?.actor, now));
    return { deleted: true, transitions: cancelPending(sql, row.id, 'deleted', now) };
  });
}

export function pauseSchedule(
  sql: SqliteDatabase,
  tenantId: string,
  key: string,
  opts: Parameters<Store['pauseSchedule']>[2],
): { schedule: Schedule; transitions: Transition[] } | undefined {
  return sql.write(() => {
    const row = sql.stmt(GET).get(tenantId, key) as ScheduleReadRow | undefined;
    if (row === undefined) return undefined;
    if (row.state === 'active') writeOutCreation(sql, row.id);
    const paused = sql
      .stmt(PAUSE)
      .get({ id: row.id, note: opts.note, until: opts.until ?? null, now: opts.now }) as
      ScheduleRow | undefined;
    const transitions = opts.cancelPending
      ? cancelPending(sql, row.id, 'pausedCancel', opts.now)
      : skipPaused(sql, row.id, opts.now);
    if (paused !== undefined && row.state !== 'paused')
      insertRevision(sql, stateRevision(toSchedule(row), 'paused', opts.actor, opts.now));
    return { schedule: toSchedule(paused ? { ...paused, ...executionsIn(row) } : row), transitions };
  });
}

export function resumeSchedule(
  sql: SqliteDatabase,
  tenantId: string,
  key: string,
  opts: Parameters<Store['resumeSchedule']>[2],
): { schedule: Schedule; transitions: Transition[] } | undefined {
  return sql.write(() => {
    const row = sql.stmt(GET).get(tenantId, key) as ScheduleReadRow | undefined;
    if (row === undefined) return undefined;
    if (row.state === 'paused') writeOutCreation(sql, row.id);
    const resumed = sql
      .stmt(RESUME)
      .get({ id: row.id, nextFireAt: opts.nextFireAt, now: opts.now, dueBy: opts.dueBy ?? null }) as
      ScheduleRow | undefined;
    if (resumed === undefined) return { schedule: toSchedule(row), transitions: [] };
    insertRevision(sql, stateRevision(toSchedule(row), 'resumed', opts.actor, opts.now));
    return {
      schedule: toSchedule({ ...resumed, ...executionsIn(row) }),
      transitions: insertRuns(sql, opts.skipped, opts.now),
    };
  });
}

// schedules_paused_until: timed pauses whose end has come.
const DUE_TIMED_PAUSES = `
  SELECT ${WITH_EXECUTIONS} FROM schedules ${EXECUTIONS_JOIN}
  WHERE state = 'paused' AND paused_until IS NOT NULL AND paused_until <= ?
  ORDER BY paused_until, schedules.id LIMIT ?`;

const NEXT_TIMED_RESUME =
  "SELECT MIN(paused_until) AS v FROM schedules WHERE state = 'paused' AND paused_until IS NOT NULL";

/** Paused schedules whose timed pause ended by `now`, earliest first. */
export function dueTimedPauses(sql: SqliteDatabase, now: number, limit: number): Schedule[] {
  if (limit <= 0) return [];
  const rows = sql.read(() => sql.stmt(DUE_TIMED_PAUSES).all(now, limit)) as ScheduleReadRow[];
  return rows.map(toSchedule);
}

export function nextTimedResumeAt(sql: SqliteDatabase): number | null {
  const row = sql.read(() => sql.stmt(NEXT_TIMED_RESUME).get()) as { v: number | null };
  return row.v;
}
