// Schedule operations of the PostgreSQL store: upsert by (tenant, key) with versioning, pause, resume,
// delete, and the materializer's claim (FOR UPDATE SKIP LOCKED) and compare-and-set advance. Each function
// is one transaction. It must never read a clock: `now` always arrives as a parameter.

import { PunctualError } from '../../errors.js';
import { targetKind } from '../../domain/target.js';
import type {
  Advance,
  AdvanceResult,
  Page,
  PutScheduleRequest,
  PutScheduleResult,
  RunInsert,
  ScheduleQuery,
  Transition,
} from '../store.js';
import type { Schedule } from '../../domain/schedule.js';
import { RetryTransaction, type PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';
import { Filters } from './postgres-queries.js';
import {
  decodeCursor,
  draftOf,
  encodeCursor,
  jsonParam,
  sameStoredDraft,
  toSchedule,
  type ScheduleRow,
} from './postgres-rows.js';
import { cancelScheduledRuns, insertRunRows, scheduleIdOf } from './postgres-runs.js';

function conflict(key: string, expected: number, actual: number | null): PunctualError {
  return new PunctualError(
    'VERSION_CONFLICT',
    `schedule ${key} is at version ${actual ?? 'none'}, not ${expected}`,
    {
      key,
      expected,
      actual,
    },
  );
}

export async function putSchedule(db: PgDb, req: PutScheduleRequest): Promise<PutScheduleResult> {
  return db.tx((c) => putIn(db, c, req));
}

/** Several puts in one transaction: all of them are written, or none. */
export async function putSchedules(db: PgDb, reqs: PutScheduleRequest[]): Promise<PutScheduleResult[]> {
  if (reqs.length === 0) return [];
  return db.tx(async (c) => {
    const out: PutScheduleResult[] = [];
    for (const req of reqs) out.push(await putIn(db, c, req));
    return out;
  });
}

async function putIn(db: PgDb, c: PgQueryable, req: PutScheduleRequest): Promise<PutScheduleResult> {
  const d = req.draft;
  const content = [
    d.spec,
    d.specKind,
    d.tz,
    JSON.stringify(d.target),
    targetKind(d.target),
    jsonParam(d.payload),
    JSON.stringify(d.policies),
    d.policies.overlap,
    d.startAt,
    d.endAt,
    d.maxRuns,
    d.jitterMs,
    d.description,
  ];
  const { rows: found } = await c.query<ScheduleRow>(
    `SELECT * FROM ${db.s}.schedules WHERE tenant_id = $1 AND key = $2 FOR UPDATE`,
    [d.tenantId, d.key],
  );
  const current = found[0];
  if (current === undefined) {
    if (req.expectedVersion !== undefined) throw conflict(d.key, req.expectedVersion, null);
    const { rows } = await c.query<ScheduleRow>(
      `INSERT INTO ${db.s}.schedules (tenant_id, key, spec, spec_kind, tz, target, target_kind, payload,
         policies, overlap, start_at, end_at, max_runs, jitter_ms, description, state, version,
         next_fire_at, fired_count, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8::jsonb, $9::jsonb, $10, $11, $12, $13, $14, $15,
               'active', 1, $16, 0, $17, $17)
       ON CONFLICT (tenant_id, key) DO NOTHING
       RETURNING *`,
      [d.tenantId, d.key, ...content, req.nextFireAt, req.now],
    );
    // Another instance created the same key a moment ago: start over and update it instead.
    if (rows[0] === undefined) throw new RetryTransaction();
    return { schedule: toSchedule(rows[0]), created: true, changed: true, transitions: [] };
  }
  if (req.expectedVersion !== undefined && req.expectedVersion !== current.version) {
    throw conflict(d.key, req.expectedVersion, current.version);
  }
  if (sameStoredDraft(draftOf(current), d)) {
    return { schedule: toSchedule(current), created: false, changed: false, transitions: [] };
  }
  const { rows } = await c.query<ScheduleRow>(
    `UPDATE ${db.s}.schedules
        SET spec = $2, spec_kind = $3, tz = $4, target = $5::jsonb, target_kind = $6, payload = $7::jsonb,
            policies = $8::jsonb, overlap = $9, start_at = $10, end_at = $11, max_runs = $12,
            jitter_ms = $13, description = $14, version = version + 1, next_fire_at = $15,
            state = CASE WHEN state = 'completed' THEN 'active' ELSE state END,
            claimed_until = NULL, updated_at = $16
      WHERE id = $1
      RETURNING *`,
    [current.id, ...content, req.nextFireAt, req.now],
  );
  const transitions = await cancelScheduledRuns(db, c, String(current.id), 'updated', req.now);
  return { schedule: toSchedule(rows[0]!), created: false, changed: true, transitions };
}

export async function getSchedule(db: PgDb, tenantId: string, key: string): Promise<Schedule | undefined> {
  // schedules_tenant_key.
  const rows = await db.query<ScheduleRow>(
    `SELECT * FROM ${db.s}.schedules WHERE tenant_id = $1 AND key = $2`,
    [tenantId, key],
  );
  return rows[0] === undefined ? undefined : toSchedule(rows[0]);
}

export async function listSchedules(db: PgDb, q: ScheduleQuery): Promise<Page<Schedule>> {
  const f = new Filters();
  f.add('tenant_id = ?', q.tenantId);
  if (q.state !== undefined) f.add('state = ?', q.state);
  if (q.targetKind !== undefined) f.add('target_kind = ?', q.targetKind);
  if (q.keyPrefix !== undefined && q.keyPrefix !== '') {
    // The lower bound keeps it a range of schedules_tenant_key (keys are COLLATE "C"); starts_with is exact.
    f.add('key >= ? AND starts_with(key, ?)', q.keyPrefix, q.keyPrefix);
  }
  if (q.cursor !== undefined) f.add('key > ?', decodeCursor<[string]>(q.cursor, ['string'])[0]);
  const limit = Math.max(1, q.limit);
  const rows = await db.query<ScheduleRow>(
    `SELECT * FROM ${db.s}.schedules WHERE ${f.where.join(' AND ')} ORDER BY key LIMIT ${f.param(limit + 1)}`,
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
): Promise<{ deleted: boolean; transitions: Transition[] }> {
  return db.tx(async (c) => {
    const { rows } = await c.query<{ id: number | string }>(
      `DELETE FROM ${db.s}.schedules WHERE tenant_id = $1 AND key = $2 RETURNING id`,
      [tenantId, key],
    );
    if (rows[0] === undefined) return { deleted: false, transitions: [] };
    const transitions = await cancelScheduledRuns(db, c, String(rows[0].id), 'deleted', now);
    return { deleted: true, transitions };
  });
}

export async function pauseSchedule(
  db: PgDb,
  tenantId: string,
  key: string,
  opts: { cancelPending: boolean; note: string | null; now: number },
): Promise<{ schedule: Schedule; transitions: Transition[] } | undefined> {
  return db.tx(async (c) => {
    const { rows: found } = await c.query<ScheduleRow>(
      `SELECT * FROM ${db.s}.schedules WHERE tenant_id = $1 AND key = $2 FOR UPDATE`,
      [tenantId, key],
    );
    const row = found[0];
    if (row === undefined) return undefined;
    // A completed schedule stays completed (nothing is left to pause); its pending runs may still be cancelled.
    const { rows: paused } = await c.query<ScheduleRow>(
      `UPDATE ${db.s}.schedules
          SET state = 'paused', paused_at = COALESCE(paused_at, $2), note = $3, claimed_until = NULL,
              updated_at = $2
        WHERE id = $1 AND state IN ('active', 'paused')
        RETURNING *`,
      [row.id, opts.now, opts.note],
    );
    const transitions = opts.cancelPending
      ? await cancelScheduledRuns(db, c, String(row.id), 'pausedCancel', opts.now)
      : [];
    return { schedule: toSchedule(paused[0] ?? row), transitions };
  });
}

export async function resumeSchedule(
  db: PgDb,
  tenantId: string,
  key: string,
  opts: { nextFireAt: number | null; skipped: RunInsert[]; now: number },
): Promise<{ schedule: Schedule; transitions: Transition[] } | undefined> {
  return db.tx(async (c) => {
    const { rows } = await c.query<ScheduleRow>(
      `UPDATE ${db.s}.schedules
          SET state = 'active', paused_at = NULL, note = NULL, next_fire_at = $3, claimed_until = NULL,
              updated_at = $4
        WHERE tenant_id = $1 AND key = $2 AND state = 'paused'
        RETURNING *`,
      [tenantId, key, opts.nextFireAt, opts.now],
    );
    const row = rows[0];
    if (row === undefined) {
      const { rows: other } = await c.query<ScheduleRow>(
        `SELECT * FROM ${db.s}.schedules WHERE tenant_id = $1 AND key = $2`,
        [tenantId, key],
      );
      return other[0] === undefined ? undefined : { schedule: toSchedule(other[0]), transitions: [] };
    }
    const transitions = await insertRunRows(db, c, opts.skipped, opts.now);
    return { schedule: toSchedule(row), transitions };
  });
}

/** Claims ($3) due schedules: schedules_due range up to the horizon ($2), claim lapsed by $1, for $4 ms. */
export function claimDueSchedulesSql(s: string): string {
  return `
    UPDATE ${s}.schedules AS s
       SET claimed_until = $1::bigint + $4::bigint
      FROM (SELECT id FROM ${s}.schedules
             WHERE state = 'active' AND next_fire_at <= $2
               AND (claimed_until IS NULL OR claimed_until <= $1)
             ORDER BY next_fire_at, id
             LIMIT $3
             FOR UPDATE SKIP LOCKED) AS due
     WHERE s.id = due.id
     RETURNING s.*`;
}

/**
 * Claims active schedules due by `horizon` for `leaseMs`. SKIP LOCKED lets concurrent materializers take
 * disjoint sets; the lease (claimed_until) keeps a schedule out of other claims while it is being advanced.
 */
export async function claimDueSchedules(
  db: PgDb,
  req: { now: number; horizon: number; limit: number; leaseMs: number },
): Promise<Schedule[]> {
  const rows = await db.query<ScheduleRow>(claimDueSchedulesSql(db.s), [
    req.now,
    req.horizon,
    req.limit,
    req.leaseMs,
  ]);
  return rows.map(toSchedule).sort((a, b) => a.nextFireAt! - b.nextFireAt! || Number(a.id) - Number(b.id));
}

/** Compare-and-set on (version, nextFireAt, active): on conflict nothing is written. */
export async function advanceSchedule(db: PgDb, a: Advance): Promise<AdvanceResult> {
  const id = scheduleIdOf(a.scheduleId);
  return db.tx(async (c) => {
    const { rowCount } = await c.query(
      `UPDATE ${db.s}.schedules
          SET next_fire_at = $5, fired_count = fired_count + $6,
              state = CASE WHEN $7::boolean THEN 'completed' ELSE state END,
              claimed_until = NULL
        WHERE id = $1 AND tenant_id = $2 AND version = $3 AND state = 'active'
          AND next_fire_at IS NOT DISTINCT FROM $4::bigint`,
      [id, a.tenantId, a.version, a.expectedNextFireAt, a.nextFireAt, a.fired, a.complete],
    );
    if (rowCount !== 1) return { status: 'conflict', transitions: [] };
    const transitions = await insertRunRows(db, c, a.runs, a.now);
    return { status: 'advanced', transitions };
  });
}

export async function nextScheduleAt(db: PgDb): Promise<number | null> {
  // One probe of schedules_due.
  const rows = await db.query<{ at: number | null }>(
    `SELECT min(next_fire_at) AS at FROM ${db.s}.schedules WHERE state = 'active'`,
  );
  return rows[0]?.at ?? null;
}
