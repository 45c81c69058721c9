// Schedule revisions in the PostgreSQL store: the insert a schedule write makes inside its own transaction
// (with the retention bound applied there), the write-out of the current version's content before a put
// replaces it or a delete removes it (store/stored-revision.ts), the write-out of a `created` revision a
// schedule kept in its row, before any other change of it, and the reads of a key's revisions (one statement
// each, rows and deferred creations together, so a NULL content and the schedule row it derives from are
// read together). It must never read a clock and never write a revision outside the transaction of the
// schedule write it records.

import type { ScheduleRevision } from '../../domain/schedule-revision.js';
import type { Schedule } from '../../domain/schedule.js';
import type { RevisionInsert } from '../revision-record.js';
import {
  contentJson,
  CREATION_STATE_SQL,
  deferredCreationsSql,
  REVISION_COLUMNS,
  storedContent,
  storedDiff,
} from '../stored-revision.js';
import type { Page, RevisionQuery } from '../store.js';
import type { PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';
import {
  pruneRevisions,
  revisionPage,
  revisionSeqsOf,
  revisionRowOfVersion,
  type RevisionLog,
} from './postgres-revision-log.js';
import { pgJson, toSchedule, type ScheduleRow } from './postgres-rows.js';
import { decodeRevision } from '../common/row-decoding.js';

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
  diff: ScheduleRevision['diff'] | null;
  content: ScheduleRevision['content'] | null;
  /** The schedule row (as JSON) when the content is NULL and the schedule is at the revision's version. */
  current: ScheduleRow | null;
}

// A revision (a row, or a creation deferred in its schedule's row: schedules_tenant_key) with the schedule
// row its NULL content derives from (schedules_pkey), in one statement.
const SELECT = (s: string) => `
  SELECT r.*, to_jsonb(c.*) AS current
    FROM (SELECT ${REVISION_COLUMNS} FROM ${s}.schedule_revisions
          UNION ALL ${deferredCreationsSql(`${s}.`, { json: '::jsonb' })}) AS r
    LEFT JOIN ${s}.schedules AS c ON r.content IS NULL AND c.id = r.schedule_id AND c.version = r.version`;

const LOG: RevisionLog = { table: 'schedule_revisions', subject: 'key', select: SELECT };

function toRevision(r: RevisionRow): ScheduleRevision {
  return decodeRevision(r, pgJson, r.current === null ? undefined : toSchedule(r.current));
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
      rs.map(storedDiff),
      rs.map(storedContent),
    ],
  );
  await pruneRevisions(
    db,
    c,
    LOG,
    rs.map((r) => r.tenantId),
    rs.map((r) => r.key),
  );
}

/** Which schedules a write-out is for: by id, or the one with a key. */
export type CreationsOf = { ids: readonly string[] } | { tenantId: string; key: string };

/**
 * Writes out, as revision rows under their reserved numbers, the `created` revisions the schedules still keep
 * in their rows, and clears the marks. The caller is inside the transaction of a change of those schedules,
 * before the change (the row says what it was created as). The rows are locked first, so two writers never
 * write one creation twice (the second finds the mark cleared).
 */
export async function writeOutCreations(db: PgDb, c: PgQueryable, of: CreationsOf): Promise<void> {
  if ('ids' in of && of.ids.length === 0) return;
  const [where, params] =
    'ids' in of
      ? ['id = ANY($1::bigint[])', [of.ids]]
      : ['tenant_id = $1 AND key = $2', [of.tenantId, of.key]];
  await c.query(
    `WITH o AS (SELECT id, created_seq FROM ${db.s}.schedules
                 WHERE ${where} AND created_seq IS NOT NULL FOR UPDATE),
          w AS (UPDATE ${db.s}.schedules AS sc SET created_seq = NULL FROM o WHERE sc.id = o.id
                RETURNING o.created_seq, sc.tenant_id, sc.key, sc.id, sc.version, sc.created_at, sc.created_by,
                          sc.state)
     INSERT INTO ${db.s}.schedule_revisions (${REVISION_COLUMNS}) OVERRIDING SYSTEM VALUE
     SELECT created_seq, tenant_id, key, id, 1, created_at, created_by, 'created', NULL, ${CREATION_STATE_SQL},
            NULL, NULL
       FROM w WHERE version = 1`,
    params,
  );
}

/**
 * Writes the content of `s` (the version a put is about to replace or a delete to remove) into the revisions
 * that derived it from the schedule row (schedule_revisions_key); the caller is inside that write's
 * transaction.
 */
export async function keepRevisionContent(db: PgDb, c: PgQueryable, s: Schedule): Promise<void> {
  await keepRevisionsContent(db, c, [s]);
}

/**
 * keepRevisionContent of several schedules, in one statement; the rows come from one probe of
 * schedule_revisions_key per schedule (revisionSeqsOf).
 */
export async function keepRevisionsContent(db: PgDb, c: PgQueryable, ss: readonly Schedule[]): Promise<void> {
  if (ss.length === 0) return;
  await c.query(
    `UPDATE ${db.s}.schedule_revisions AS r SET content = k.content::jsonb
       FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[]) AS k(tenant_id, key, schedule_id, content)
      WHERE r.tenant_id = k.tenant_id AND r.key = k.key AND r.content IS NULL AND r.schedule_id = k.schedule_id
        AND r.seq = ANY(ARRAY(${revisionSeqsOf(db, LOG, '$1', '$2')}))`,
    [ss.map((s) => s.tenantId), ss.map((s) => s.key), ss.map((s) => s.id), ss.map(contentJson)],
  );
}

export async function listScheduleRevisions(db: PgDb, q: RevisionQuery): Promise<Page<ScheduleRevision>> {
  return revisionPage(db, LOG, { ...q, subject: q.key }, toRevision);
}

export async function getScheduleRevision(
  db: PgDb,
  tenantId: string,
  key: string,
  version: number,
): Promise<ScheduleRevision | undefined> {
  const row = await revisionRowOfVersion<RevisionRow>(db, LOG, tenantId, key, version);
  return row === undefined ? undefined : toRevision(row);
}
