// Schedule revisions in the SQLite store: the insert a schedule write makes inside its own transaction (with
// the retention bound applied there), the write-out of the current version's content before a put replaces
// it or a delete removes it (store/stored-revision.ts), the `created` revision a new schedule keeps in its row
// (a reserved sequence number) and its write-out before any other change, and the reads of a key's revisions
// (rows and deferred creations together). It must never read a clock and never write a revision outside the
// transaction of the schedule write it records.

import type { RevisionNote, ScheduleRevision } from '../../domain/schedule-revision.js';
import type { Schedule } from '../../domain/schedule.js';
import type { RevisionInsert } from '../revision-record.js';
import {
  contentJson,
  deferredCreationsSql,
  REVISION_COLUMNS,
  storedContent,
  storedDiff,
} from '../stored-revision.js';
import type { Page, RevisionQuery } from '../store.js';
import type { SqliteDatabase } from './sqlite-database.js';
import {
  pruneRevisions,
  revisionPage,
  revisionRowOfVersion,
  type RevisionLog,
} from './sqlite-revision-log.js';
import { sqliteJson, toSchedule, type ScheduleReadRow } from './sqlite-rows.js';
import { EXECUTIONS_JOIN, WITH_EXECUTIONS } from './sqlite-executions.js';
import { decodeRevision } from '../common/row-decoding.js';

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
  diff: string | null;
  content: string | null;
}

const INSERT = `
  INSERT INTO schedule_revisions (tenant_id, key, schedule_id, version, at, actor, change, from_version, state,
    diff, content)
  VALUES (@tenantId, @key, @scheduleId, @version, @at, @actor, @change, @fromVersion, @state, @diff, @content)`;

const LOG: RevisionLog = {
  table: 'schedule_revisions',
  subject: 'key',
  from: `(SELECT ${REVISION_COLUMNS} FROM schedule_revisions UNION ALL ${deferredCreationsSql('', { json: '' })})`,
};

// The next sequence number of schedule_revisions, taken for a revision written later: AUTOINCREMENT never
// hands out a number at or below sqlite_sequence's (its row exists once the table had a row; START makes it).
const RESERVE_SEQ =
  "UPDATE sqlite_sequence SET seq = seq + 1 WHERE name = 'schedule_revisions' RETURNING seq";
const START_SEQ = `
  INSERT INTO sqlite_sequence (name, seq)
  SELECT 'schedule_revisions', COALESCE((SELECT MAX(seq) FROM schedule_revisions), 0)
   WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'schedule_revisions')`;

// A schedule's deferred creation as a row, under the number it was given, then the mark cleared.
const WRITE_OUT = `
  INSERT INTO schedule_revisions (${REVISION_COLUMNS})
  SELECT * FROM (${deferredCreationsSql('', { json: '' })}) WHERE schedule_id = ?`;
const CLEAR_CREATION = 'UPDATE schedules SET created_seq = NULL WHERE id = ? AND created_seq IS NOT NULL';

// The revisions of the schedule's current version keep NULL content: written out before it changes.
const KEEP_CONTENT = `
  UPDATE schedule_revisions SET content = @content
  WHERE tenant_id = @tenantId AND key = @key AND content IS NULL AND schedule_id = @id`;

// The schedule a NULL content derives from, when it is still at the revision's version.
const CURRENT = `
  SELECT ${WITH_EXECUTIONS} FROM schedules ${EXECUTIONS_JOIN} WHERE schedules.id = ? AND version = ?`;

/** Decodes rows inside the read that fetched them (NULL content comes from the schedule row). */
function toRevisions(sql: SqliteDatabase, rows: RevisionRow[]): ScheduleRevision[] {
  return rows.map((r) => {
    let current: Schedule | undefined;
    if (r.content === null) {
      const row = sql.stmt(CURRENT).get(r.schedule_id, r.version) as ScheduleReadRow | undefined;
      current = row === undefined ? undefined : toSchedule(row);
    }
    return decodeRevision(r, sqliteJson, current);
  });
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
    diff: storedDiff(r),
    content: storedContent(r),
  });
  pruneRevisions(sql, LOG, r.tenantId, r.key);
}

/** A sequence number for a `created` revision kept in its schedule's row until written out. */
export function reserveRevisionSeq(sql: SqliteDatabase): number {
  let row = sql.stmt(RESERVE_SEQ).get() as { seq: number } | undefined;
  if (row === undefined) {
    sql.stmt(START_SEQ).run();
    row = sql.stmt(RESERVE_SEQ).get() as { seq: number };
  }
  return row.seq;
}

/**
 * Writes out the `created` revision a schedule still keeps in its row, if any; the caller is inside the write
 * transaction of a change of the schedule, before the change (the row says what it was created as).
 */
export function writeOutCreation(sql: SqliteDatabase, scheduleId: number): void {
  if (sql.stmt(WRITE_OUT).run(scheduleId).changes > 0) sql.stmt(CLEAR_CREATION).run(scheduleId);
}

/**
 * Records the revision of a put that created `s` with a version it restores (`rolledBack`):
 * its diff and content both derive from the schedule row at version 1, so neither is computed nor stored
 * (what insertRevision would store for it). The caller is inside the write transaction of the creation.
 */
export function insertCreatedRevision(
  sql: SqliteDatabase,
  s: Schedule,
  note: RevisionNote | undefined,
  now: number,
): void {
  sql.stmt(INSERT).run({
    tenantId: s.tenantId,
    key: s.key,
    scheduleId: Number(s.id),
    version: s.version,
    at: now,
    actor: note?.actor ?? null,
    change: note?.fromVersion !== undefined ? 'rolledBack' : 'created',
    fromVersion: note?.fromVersion ?? null,
    state: s.state,
    diff: null,
    content: null,
  });
  pruneRevisions(sql, LOG, s.tenantId, s.key);
}

/**
 * Writes the content of `s` (the version a put is about to replace or a delete to remove) into the revisions
 * that derived it from the schedule row; the caller is inside that write's transaction.
 */
export function keepRevisionContent(sql: SqliteDatabase, s: Schedule): void {
  sql.stmt(KEEP_CONTENT).run({ tenantId: s.tenantId, key: s.key, id: Number(s.id), content: contentJson(s) });
}

export function listScheduleRevisions(sql: SqliteDatabase, q: RevisionQuery): Page<ScheduleRevision> {
  // Decoded in the same synchronous read, so a NULL content and the schedule row it derives from agree.
  return revisionPage(sql, LOG, { ...q, subject: q.key }, (row: RevisionRow) => toRevisions(sql, [row])[0]!);
}

export function getScheduleRevision(
  sql: SqliteDatabase,
  tenantId: string,
  key: string,
  version: number,
): ScheduleRevision | undefined {
  const row = revisionRowOfVersion<RevisionRow>(sql, LOG, tenantId, key, version);
  return row === undefined ? undefined : toRevisions(sql, [row])[0];
}
