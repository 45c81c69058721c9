// Schedule revisions in the PostgreSQL store: the insert a schedule write makes inside its own transaction
// (with the retention bound applied there), and the reads of a key's revisions. It must never read a clock
// and never write a revision outside the transaction of the schedule write it records.

import { REVISIONS_KEPT, type ScheduleRevision } from '../../domain/schedule-revision.js';
import type { RevisionInsert } from '../revision-record.js';
import type { Page, RevisionQuery } from '../store.js';
import type { PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';
import { decodeCursor, encodeCursor } from './postgres-rows.js';

type Int8 = string | number;

interface RevisionRow {
  seq: Int8;
  tenant_id: string;
  key: string;
  schedule_id: Int8;
  version: number;
  at: Int8;
  actor: string | null;
  change: string;
  from_version: number | null;
  state: string;
  diff: ScheduleRevision['diff'];
  content: ScheduleRevision['content'];
}

function toRevision(r: RevisionRow): ScheduleRevision {
  return {
    seq: Number(r.seq),
    scheduleId: String(r.schedule_id),
    tenantId: r.tenant_id,
    key: r.key,
    version: r.version,
    at: Number(r.at),
    actor: r.actor,
    change: r.change as ScheduleRevision['change'],
    fromVersion: r.from_version,
    state: r.state as ScheduleRevision['state'],
    diff: r.diff,
    content: r.content,
  };
}

/**
 * Records revisions (one statement), then drops what exceeds the retention bound for their keys (schedule_
 * revisions_key); the caller is inside the write transaction of the changes they record.
 */
export async function insertRevisions(
  db: PgDb,
  c: PgQueryable,
  rs: readonly RevisionInsert[],
): Promise<void> {
  if (rs.length === 0) return;
  await c.query(
    `INSERT INTO ${db.s}.schedule_revisions (tenant_id, key, schedule_id, version, at, actor, change,
       from_version, state, diff, content)
     SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::int[], $5::bigint[], $6::text[],
       $7::text[], $8::int[], $9::text[], $10::jsonb[], $11::jsonb[])`,
    [
      rs.map((r) => r.tenantId),
      rs.map((r) => r.key),
      rs.map((r) => r.scheduleId),
      rs.map((r) => r.version),
      rs.map((r) => r.at),
      rs.map((r) => r.actor),
      rs.map((r) => r.change),
      rs.map((r) => r.fromVersion),
      rs.map((r) => r.state),
      rs.map((r) => JSON.stringify(r.diff)),
      rs.map((r) => JSON.stringify(r.content)),
    ],
  );
  await c.query(
    `DELETE FROM ${db.s}.schedule_revisions AS r
      USING unnest($1::text[], $2::text[]) AS k(tenant_id, key)
      WHERE r.tenant_id = k.tenant_id AND r.key = k.key AND r.seq <= (
        SELECT o.seq FROM ${db.s}.schedule_revisions AS o
         WHERE o.tenant_id = k.tenant_id AND o.key = k.key
         ORDER BY o.seq DESC LIMIT 1 OFFSET $3)`,
    [rs.map((r) => r.tenantId), rs.map((r) => r.key), REVISIONS_KEPT],
  );
}

export async function listScheduleRevisions(db: PgDb, q: RevisionQuery): Promise<Page<ScheduleRevision>> {
  const limit = Math.max(1, q.limit);
  const before = q.cursor === undefined ? null : decodeCursor<[number]>(q.cursor, ['number'])[0];
  const rows = await db.query<RevisionRow>(
    `SELECT * FROM ${db.s}.schedule_revisions
      WHERE tenant_id = $1 AND key = $2 AND ($3::bigint IS NULL OR seq < $3::bigint)
      ORDER BY seq DESC LIMIT $4`,
    [q.tenantId, q.key, before, limit + 1],
  );
  const items = rows.slice(0, limit).map(toRevision);
  const last = items[items.length - 1];
  return rows.length > limit && last !== undefined
    ? { items, nextCursor: encodeCursor([last.seq]) }
    : { items };
}

export async function getScheduleRevision(
  db: PgDb,
  tenantId: string,
  key: string,
  version: number,
): Promise<ScheduleRevision | undefined> {
  const rows = await db.query<RevisionRow>(
    `SELECT * FROM ${db.s}.schedule_revisions WHERE tenant_id = $1 AND key = $2 AND version = $3
      ORDER BY seq DESC LIMIT 1`,
    [tenantId, key, version],
  );
  return rows[0] === undefined ? undefined : toRevision(rows[0]);
}
