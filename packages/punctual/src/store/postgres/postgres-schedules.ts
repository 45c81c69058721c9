// Schedule operations of the PostgreSQL store: upsert by (tenant, key) with versioning (one at a time or a
// batch; new ones are inserted by postgres-schedule-inserts.ts, the changes of existing ones are in
// postgres-schedule-changes.ts), lookups, pause, resume, delete.
// Each function is one transaction. The materializer's claim and advance are in postgres-materializer.ts.
// It must never read a clock: `now` always arrives as a parameter.

import type {
  Page,
  PutScheduleRequest,
  PutScheduleResult,
  ScheduleQuery,
  Store,
  Transition,
} from '../store.js';
import type { Schedule } from '../../domain/schedule.js';
import { RetryTransaction, type PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';
import { Filters } from './postgres-queries.js';
import { decodeCursor, encodeCursor } from '../common/page-cursor.js';
import { scheduleColumns, toSchedule, type ScheduleRow } from './postgres-rows.js';
import { forgetExecutions } from './postgres-executions.js';
import { cancelScheduledRuns, insertRunRows, skipPausedRuns } from './postgres-runs.js';
import type { RevisionNote } from '../../domain/schedule-revision.js';
import { stateRevision } from '../revision-record.js';
import { insertRevisions, keepRevisionContent, writeOutCreations } from './postgres-revisions.js';
import { versionConflict } from '../common/put-rules.js';
import { changeSchedules } from './postgres-schedule-changes.js';
import { insertSchedules } from './postgres-schedule-inserts.js';

export async function putSchedule(db: PgDb, req: PutScheduleRequest): Promise<PutScheduleResult> {
  if (req.expectNew === true && req.expectedVersion === undefined) {
    // Most often a new key: one statement, its own transaction. A key created meanwhile fails it
    // (RetryTransaction) and the put takes the locked path below.
    const created = await insertSchedules(db, db.pool, [req]).catch((e: unknown) => {
      if (e instanceof RetryTransaction) return undefined;
      throw e;
    });
    if (created !== undefined) return created[0]!;
  }
  return db.tx((c) => putIn(db, c, req));
}

/**
 * Several puts in one transaction: all of them are written, or none. The batch's existing schedules are
 * locked in one statement and its new ones inserted in one; a batch that names a key twice is applied one
 * put after the other, so the second sees the first. A batch of new keys only (expectNew) is inserted at
 * once; when a key exists after all, that insert is rolled back and the batch takes the locked path.
 */
export async function putSchedules(db: PgDb, reqs: PutScheduleRequest[]): Promise<PutScheduleResult[]> {
  if (reqs.length === 0) return [];
  const keys = reqs.map((r) => keyOf(r.draft.tenantId, r.draft.key));
  const unique = new Set(keys).size === keys.length;
  let insertFirst = unique && reqs.every((r) => r.expectNew === true && r.expectedVersion === undefined);
  return db.tx(async (c) => {
    if (insertFirst) {
      // Once: a retry (RetryTransaction when a key existed, or a deadlock) takes the locked path.
      insertFirst = false;
      return insertSchedules(db, c, reqs);
    }
    if (!unique) {
      const out: PutScheduleResult[] = [];
      for (const req of reqs) out.push(await putIn(db, c, req));
      return out;
    }
    // In id order, so two batches lock their common schedules in the same order. The ids come from one
    // probe of schedules_tenant_key per key (see getSchedules).
    const { rows: found } = await c.query<ScheduleRow>(
      `SELECT ${scheduleColumns(db.s, 's')} FROM ${db.s}.schedules AS s
        WHERE s.id = ANY(ARRAY(
          SELECT p.id FROM unnest($1::text[], $2::text[]) AS k(tenant_id, key)
            CROSS JOIN LATERAL (SELECT id FROM ${db.s}.schedules AS o
                                 WHERE o.tenant_id = k.tenant_id AND o.key = k.key OFFSET 0) AS p))
        ORDER BY s.id
        FOR UPDATE OF s`,
      [reqs.map((r) => r.draft.tenantId), reqs.map((r) => r.draft.key)],
    );
    const current = new Map(found.map((r) => [keyOf(r.tenant_id, r.key), r]));
    const out: PutScheduleResult[] = [];
    const fresh: number[] = [];
    const locked: number[] = [];
    for (const [i, req] of reqs.entries()) {
      if (current.has(keys[i]!)) locked.push(i);
      else if (req.expectedVersion !== undefined)
        throw versionConflict(req.draft.key, req.expectedVersion, null);
      else fresh.push(i);
    }
    const changed = await changeSchedules(
      db,
      c,
      locked.map((i) => ({ req: reqs[i]!, current: current.get(keys[i]!)! })),
    );
    locked.forEach((i, n) => (out[i] = changed[n]!));
    const created = await insertSchedules(
      db,
      c,
      fresh.map((i) => reqs[i]!),
    );
    fresh.forEach((i, n) => (out[i] = created[n]!));
    return out;
  });
}

/** A map key for (tenant, key). */
function keyOf(tenantId: string, key: string): string {
  return JSON.stringify([tenantId, key]);
}

async function putIn(db: PgDb, c: PgQueryable, req: PutScheduleRequest): Promise<PutScheduleResult> {
  const d = req.draft;
  const { rows: found } = await c.query<ScheduleRow>(
    `SELECT ${scheduleColumns(db.s, 'sc')} FROM ${db.s}.schedules AS sc
      WHERE tenant_id = $1 AND key = $2 FOR UPDATE OF sc`,
    [d.tenantId, d.key],
  );
  const current = found[0];
  if (current === undefined) {
    if (req.expectedVersion !== undefined) throw versionConflict(d.key, req.expectedVersion, null);
    return (await insertSchedules(db, c, [req]))[0]!;
  }
  return (await changeSchedules(db, c, [{ req, current }]))[0]!;
}

export async function getSchedule(db: PgDb, tenantId: string, key: string): Promise<Schedule | undefined> {
  // schedules_tenant_key.
  const rows = await db.query<ScheduleRow>(
    `SELECT ${scheduleColumns(db.s, 'sc')} FROM ${db.s}.schedules AS sc WHERE tenant_id = $1 AND key = $2`,
    [tenantId, key],
  );
  return rows[0] === undefined ? undefined : toSchedule(rows[0]);
}

/**
 * The tenant's schedules with these keys, once each, in the order of `keys`: one probe of
 * schedules_tenant_key per key. OFFSET 0 keeps the probe a subquery run per key: `key = ANY(...)` alone lets
 * the planner, when its statistics lag a bulk load, read every schedule of the tenant and filter the keys
 * (98,000 rows read for 2,000 found at 100,000 schedules, once per batch).
 */
export async function getSchedules(db: PgDb, tenantId: string, keys: string[]): Promise<Schedule[]> {
  if (keys.length === 0) return [];
  const rows = await db.query<ScheduleRow>(
    `SELECT ${scheduleColumns(db.s, 's')} FROM (SELECT DISTINCT key FROM unnest($2::text[]) AS k(key)) AS k
       CROSS JOIN LATERAL (SELECT * FROM ${db.s}.schedules
                            WHERE tenant_id = $1 AND key = k.key OFFSET 0) AS s`,
    [tenantId, keys],
  );
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const out: Schedule[] = [];
  for (const key of new Set(keys)) {
    const row = byKey.get(key);
    if (row !== undefined) out.push(toSchedule(row));
  }
  return out;
}

/**
 * The list's label filter (? the labels asked for, as a JSON object): every label asked for must be there.
 * schedules_labels (GIN, jsonb_path_ops) holds only schedules with labels (migration 20); a non-empty filter
 * implies that, and repeating the index's predicate word for word lets the planner use it.
 */
export const LABELS_FILTER = "labels <> '{}'::jsonb AND labels @> ?::jsonb";

export async function listSchedules(db: PgDb, q: ScheduleQuery): Promise<Page<Schedule>> {
  const f = new Filters();
  f.add('tenant_id = ?', q.tenantId);
  // A rare state (paused, completed): schedules_not_active, whose predicate is repeated word for word.
  if (q.state !== undefined)
    f.add(q.state === 'active' ? 'state = ?' : "state = ? AND state <> 'active'", q.state);
  if (q.targetKind !== undefined) f.add('target_kind = ?', q.targetKind);
  if (q.keyPrefix !== undefined && q.keyPrefix !== '') {
    // The lower bound keeps it a range of schedules_tenant_key (keys are COLLATE "C"); starts_with is exact.
    f.add('key >= ? AND starts_with(key, ?)', q.keyPrefix, q.keyPrefix);
  }
  if (q.labels !== undefined && q.labels.length > 0)
    f.add(LABELS_FILTER, JSON.stringify(Object.fromEntries(q.labels)));
  if (q.cursor !== undefined) f.add('key > ?', decodeCursor<[string]>(q.cursor, ['string'])[0]);
  const limit = Math.max(1, q.limit);
  const rows = await db.query<ScheduleRow>(
    `SELECT ${scheduleColumns(db.s, 'sc')} FROM ${db.s}.schedules AS sc
      WHERE ${f.where.join(' AND ')} ORDER BY key LIMIT ${f.param(limit + 1)}`,
    f.params,
  );
  const items = rows.slice(0, limit).map(toSchedule);
  const last = items[items.length - 1];
  return rows.length > limit && last !== undefined
    ? { items, nextCursor: encodeCursor([last.key]) }
    : { items };
}

export async function deleteSchedule(
  db: PgDb,
  tenantId: string,
  key: string,
  now: number,
  note?: RevisionNote,
): Promise<{ deleted: boolean; transitions: Transition[] }> {
  return db.tx(async (c) => {
    await writeOutCreations(db, c, { tenantId, key });
    const { rows } = await c.query<ScheduleRow>(
      `DELETE FROM ${db.s}.schedules AS sc WHERE tenant_id = $1 AND key = $2
       RETURNING ${scheduleColumns(db.s, 'sc')}`,
      [tenantId, key],
    );
    if (rows[0] === undefined) return { deleted: false, transitions: [] };
    await keepRevisionContent(db, c, toSchedule(rows[0]));
    const transitions = await cancelScheduledRuns(db, c, String(rows[0].id), 'deleted', now);
    await insertRevisions(db, c, [stateRevision(toSchedule(rows[0]), 'deleted', note?.actor, now)]);
    await forgetExecutions(db, c, String(rows[0].id)); // last: see forgetExecutions
    return { deleted: true, transitions };
  });
}

export async function pauseSchedule(
  db: PgDb,
  tenantId: string,
  key: string,
  opts: Parameters<Store['pauseSchedule']>[2],
): Promise<{ schedule: Schedule; transitions: Transition[] } | undefined> {
  return db.tx(async (c) => {
    const { rows: found } = await c.query<ScheduleRow>(
      `SELECT ${scheduleColumns(db.s, 'sc')} FROM ${db.s}.schedules AS sc
        WHERE tenant_id = $1 AND key = $2 FOR UPDATE OF sc`,
      [tenantId, key],
    );
    const row = found[0];
    if (row === undefined) return undefined;
    if (row.state === 'active') await writeOutCreations(db, c, { ids: [String(row.id)] });
    // A completed schedule stays completed (nothing is left to pause); its pending runs may still be cancelled.
    const { rows: paused } = await c.query<ScheduleRow>(
      `UPDATE ${db.s}.schedules AS sc
          SET state = 'paused', paused_at = COALESCE(paused_at, $2), note = $3, paused_until = $4,
              claimed_until = NULL, updated_at = $2
        WHERE id = $1 AND state IN ('active', 'paused')
        RETURNING ${scheduleColumns(db.s, 'sc')}`,
      [row.id, opts.now, opts.note, opts.until ?? null],
    );
    const transitions = opts.cancelPending
      ? await cancelScheduledRuns(db, c, String(row.id), 'pausedCancel', opts.now)
      : await skipPausedRuns(db, c, String(row.id), opts.now);
    if (paused[0] !== undefined && row.state !== 'paused')
      await insertRevisions(db, c, [stateRevision(toSchedule(row), 'paused', opts.actor, opts.now)]);
    return { schedule: toSchedule(paused[0] ?? row), transitions };
  });
}

export async function resumeSchedule(
  db: PgDb,
  tenantId: string,
  key: string,
  opts: Parameters<Store['resumeSchedule']>[2],
): Promise<{ schedule: Schedule; transitions: Transition[] } | undefined> {
  return db.tx(async (c) => {
    await writeOutCreations(db, c, { tenantId, key });
    const { rows } = await c.query<ScheduleRow>(
      `UPDATE ${db.s}.schedules AS sc
          SET state = 'active', paused_at = NULL, paused_until = NULL, note = NULL, next_fire_at = $3,
              claimed_until = NULL, updated_at = $4
        WHERE tenant_id = $1 AND key = $2 AND state = 'paused'
          AND ($5::bigint IS NULL OR paused_until <= $5::bigint)
        RETURNING ${scheduleColumns(db.s, 'sc')}`,
      [tenantId, key, opts.nextFireAt, opts.now, opts.dueBy ?? null],
    );
    const row = rows[0];
    if (row === undefined) {
      const { rows: other } = await c.query<ScheduleRow>(
        `SELECT ${scheduleColumns(db.s, 'sc')} FROM ${db.s}.schedules AS sc WHERE tenant_id = $1 AND key = $2`,
        [tenantId, key],
      );
      return other[0] === undefined ? undefined : { schedule: toSchedule(other[0]), transitions: [] };
    }
    const transitions = await insertRunRows(db, c, opts.skipped, opts.now);
    const resumed = toSchedule(row);
    const was = { ...resumed, state: 'paused' as const };
    await insertRevisions(db, c, [stateRevision(was, 'resumed', opts.actor, opts.now)]);
    return { schedule: resumed, transitions };
  });
}

/** Paused schedules whose timed pause ended by `now`, earliest first (schedules_paused_until). */
export async function dueTimedPauses(db: PgDb, now: number, limit: number): Promise<Schedule[]> {
  if (limit <= 0) return [];
  const rows = await db.query<ScheduleRow>(
    `SELECT ${scheduleColumns(db.s, 'sc')} FROM ${db.s}.schedules AS sc
      WHERE state = 'paused' AND paused_until IS NOT NULL AND paused_until <= $1
      ORDER BY paused_until, id LIMIT $2`,
    [now, limit],
  );
  return rows.map(toSchedule);
}

export async function nextTimedResumeAt(db: PgDb): Promise<number | null> {
  const [row] = await db.query<{ v: string | null }>(
    `SELECT MIN(paused_until)::text AS v FROM ${db.s}.schedules
      WHERE state = 'paused' AND paused_until IS NOT NULL`,
  );
  return row?.v == null ? null : Number(row.v);
}

/** For the EXPLAIN script, which reads the materializer's claim from here. */
export { claimDueSchedulesSql } from './postgres-materializer.js';
