// Schedule revisions in the SQLite store: the insert a schedule write makes inside its own transaction (with
// the retention bound applied there), and the reads of a key's revisions. It must never read a clock and
// never write a revision outside the transaction of the schedule write it records.

import type { ScheduleRevision } from '../../domain/schedule-revision.js';
import type { RevisionInsert } from '../revision-record.js';
import type { Page, RevisionQuery } from '../store.js';
import type { SqliteDatabase } from './sqlite-database.js';
import {
  pruneRevisions,
  revisionPage,
  revisionRowOfVersion,
  type RevisionLog,
} from './sqlite-revision-log.js';

interface RevisionRow {
  seq: number;
  tenant_id: string;
  key: string;
  schedule_id: number;
  version: number;
  at: number;
  actor: string | null;
  change: string;
  from_version: number | null;
  state: string;
  diff: string;
  content: string;
}

const INSERT = `
  INSERT INTO schedule_revisions (tenant_id, key, schedule_id, version, at, actor, change, from_version, state,
    diff, content)
  VALUES (@tenantId, @key, @scheduleId, @version, @at, @actor, @change, @fromVersion, @state, @diff, @content)`;

const LOG: RevisionLog = { table: 'schedule_revisions', subject: 'key' };

function toRevision(r: RevisionRow): ScheduleRevision {
  return {
    seq: r.seq,
    scheduleId: String(r.schedule_id),
    tenantId: r.tenant_id,
    key: r.key,
    version: r.version,
    at: r.at,
    actor: r.actor,
    change: r.change as ScheduleRevision['change'],
    fromVersion: r.from_version,
    state: r.state as ScheduleRevision['state'],
    diff: JSON.parse(r.diff) as ScheduleRevision['diff'],
    content: JSON.parse(r.content) as ScheduleRevision['content'],
  };
}

/** Records a revision; the caller is inside the write transaction of the change it records. */
export function insertRevision(sql: SqliteDatabase, r: RevisionInsert): void {
  sql.stmt(INSERT).run({
    tenantId: r.tenantId,
    key: r.key,
    scheduleId: Number(r.scheduleId),
    version: r.version,
    at: r.at,
    actor: r.actor,
    change: r.change,
    fromVersion: r.fromVersion,
    state: r.state,
    diff: JSON.stringify(r.diff),
    content: JSON.stringify(r.content),
  });
  pruneRevisions(sql, LOG, r.tenantId, r.key);
}

export function listScheduleRevisions(sql: SqliteDatabase, q: RevisionQuery): Page<ScheduleRevision> {
  return revisionPage(sql, LOG, { ...q, subject: q.key }, toRevision);
}

export function getScheduleRevision(
  sql: SqliteDatabase,
  tenantId: string,
  key: string,
  version: number,
): ScheduleRevision | undefined {
  const row = revisionRowOfVersion<RevisionRow>(sql, LOG, tenantId, key, version);
  return row === undefined ? undefined : toRevision(row);
}
