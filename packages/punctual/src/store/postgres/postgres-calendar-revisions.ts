// Calendar revisions in the PostgreSQL store: the insert a calendar write makes inside its own transaction
// (with the retention bound applied there), the version a re-created calendar continues from, and the reads
// of a name's revisions. It must never read a clock and never write a revision outside the transaction of
// the calendar write it records.

import type { CalendarRevision, CalendarRevisionInsert } from '../../domain/calendar/calendar-revision.js';
import {
  toCalendarRevision,
  type CalendarRevisionQuery,
  type CalendarRevisionRow,
} from '../calendar-store.js';
import type { Page } from '../store.js';
import type { PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';
import {
  pruneRevisions,
  revisionPage,
  revisionRowOfVersion,
  type RevisionLog,
} from './postgres-revision-log.js';

const LOG: RevisionLog = { table: 'calendar_revisions', subject: 'name' };

/** Records a revision; the caller is inside the write transaction of the change it records. */
export async function insertCalendarRevision(
  db: PgDb,
  c: PgQueryable,
  r: CalendarRevisionInsert,
): Promise<void> {
  await c.query(
    `INSERT INTO ${db.s}.calendar_revisions (tenant_id, name, version, at, actor, change, from_version, diff,
       content)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb)`,
    [
      r.tenantId,
      r.name,
      r.version,
      r.at,
      r.actor,
      r.change,
      r.fromVersion,
      JSON.stringify(r.diff),
      JSON.stringify(r.content),
    ],
  );
  await pruneRevisions(db, c, LOG, [r.tenantId], [r.name]);
}

/** The version a calendar created under this name starts at: one past its kept history (1 without). */
export async function firstCalendarVersion(
  db: PgDb,
  c: PgQueryable,
  tenantId: string,
  name: string,
): Promise<number> {
  const { rows } = await c.query<{ last: number | null }>(
    `SELECT MAX(version) AS last FROM ${db.s}.calendar_revisions WHERE tenant_id = $1 AND name = $2`,
    [tenantId, name],
  );
  return Number(rows[0]?.last ?? 0) + 1;
}

export async function listCalendarRevisions(
  db: PgDb,
  q: CalendarRevisionQuery,
): Promise<Page<CalendarRevision>> {
  return revisionPage(db, LOG, { ...q, subject: q.name }, toCalendarRevision);
}

export async function getCalendarRevision(
  db: PgDb,
  tenantId: string,
  name: string,
  version: number,
): Promise<CalendarRevision | undefined> {
  const row = await revisionRowOfVersion<CalendarRevisionRow>(db, LOG, tenantId, name, version);
  return row === undefined ? undefined : toCalendarRevision(row);
}
