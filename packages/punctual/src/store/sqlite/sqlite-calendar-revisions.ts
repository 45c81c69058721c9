// Calendar revisions in the SQLite store: the insert a calendar write makes inside its own transaction (with
// the retention bound applied there), the version a re-created calendar continues from, and the reads of a
// name's revisions. It must never read a clock and never write a revision outside the transaction of the
// calendar write it records.

import type { CalendarRevision, CalendarRevisionInsert } from '../../domain/calendar/calendar-revision.js';
import {
  toCalendarRevision,
  type CalendarRevisionQuery,
  type CalendarRevisionRow,
} from '../calendar-store.js';
import type { Page } from '../store.js';
import type { SqliteDatabase } from './sqlite-database.js';
import {
  pruneRevisions,
  revisionPage,
  revisionRowOfVersion,
  type RevisionLog,
} from './sqlite-revision-log.js';

const LOG: RevisionLog = { table: 'calendar_revisions', subject: 'name' };

const INSERT = `
  INSERT INTO calendar_revisions (tenant_id, name, version, at, actor, change, from_version, diff, content)
  VALUES (@tenantId, @name, @version, @at, @actor, @change, @fromVersion, @diff, @content)`;

const LAST_VERSION = 'SELECT MAX(version) FROM calendar_revisions WHERE tenant_id = ? AND name = ?';

/** Records a revision; the caller is inside the write transaction of the change it records. */
export function insertCalendarRevision(sql: SqliteDatabase, r: CalendarRevisionInsert): void {
  sql.stmt(INSERT).run({
    tenantId: r.tenantId,
    name: r.name,
    version: r.version,
    at: r.at,
    actor: r.actor,
    change: r.change,
    fromVersion: r.fromVersion,
    diff: JSON.stringify(r.diff),
    content: JSON.stringify(r.content),
  });
  pruneRevisions(sql, LOG, r.tenantId, r.name);
}

/** The version a calendar created under this name starts at: one past its kept history (1 without). */
export function firstCalendarVersion(sql: SqliteDatabase, tenantId: string, name: string): number {
  const last = sql.pluck(LAST_VERSION).get(tenantId, name) as number | null;
  return (last ?? 0) + 1;
}

export function listCalendarRevisions(sql: SqliteDatabase, q: CalendarRevisionQuery): Page<CalendarRevision> {
  return revisionPage(sql, LOG, { ...q, subject: q.name }, toCalendarRevision);
}

export function getCalendarRevision(
  sql: SqliteDatabase,
  tenantId: string,
  name: string,
  version: number,
): CalendarRevision | undefined {
  const row = revisionRowOfVersion<CalendarRevisionRow>(sql, LOG, tenantId, name, version);
  return row === undefined ? undefined : toCalendarRevision(row);
}
