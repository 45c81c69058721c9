// The reads and the retention bound every revision table of the SQLite store shares (schedule revisions by
// key, calendar revisions by name): a subject's newest REVISIONS_KEPT are kept, pages go newest first by
// sequence, and one version is found by number. Table and column names come from the fixed list below, never
// from input; values are always bound. It must never read a clock.

import { REVISIONS_KEPT } from '../../domain/schedule-revision.js';
import type { Page } from '../store.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { decodeCursor, encodeCursor } from '../common/page-cursor.js';

/**
 * A revision table and the column naming what its revisions are of; `from`, when given, is what reads select
 * from instead of the table (schedule revisions add the creations deferred in schedule rows). Writes and the
 * retention bound see the table only.
 */
export type RevisionLog = (
  { table: 'schedule_revisions'; subject: 'key' } | { table: 'calendar_revisions'; subject: 'name' }
) & { from?: string };

export interface RevisionLogQuery {
  tenantId: string;
  subject: string;
  cursor?: string | undefined;
  limit: number;
}

/** Drops what is older than the subject's REVISIONS_KEPT newest; the caller is inside the write. */
export function pruneRevisions(
  sql: SqliteDatabase,
  log: RevisionLog,
  tenantId: string,
  subject: string,
): void {
  const { table, subject: col } = log;
  sql
    .stmt(
      `DELETE FROM ${table} WHERE tenant_id = @tenantId AND ${col} = @subject AND seq <= (
         SELECT seq FROM ${table} WHERE tenant_id = @tenantId AND ${col} = @subject
         ORDER BY seq DESC LIMIT 1 OFFSET @kept)`,
    )
    .run({ tenantId, subject, kept: REVISIONS_KEPT });
}

/** One page of a subject's revisions, newest first. */
export function revisionPage<R, T extends { seq: number }>(
  sql: SqliteDatabase,
  log: RevisionLog,
  q: RevisionLogQuery,
  toRevision: (row: R) => T,
): Page<T> {
  const limit = Math.max(1, q.limit);
  const before = q.cursor === undefined ? null : decodeCursor<[number]>(q.cursor, ['number'])[0];
  const rows = sql.read(() =>
    sql
      .stmt(
        `SELECT * FROM ${log.from ?? log.table}
          WHERE tenant_id = @tenantId AND ${log.subject} = @subject AND (@before IS NULL OR seq < @before)
          ORDER BY seq DESC LIMIT @limit`,
      )
      .all({ tenantId: q.tenantId, subject: q.subject, before, limit: limit + 1 }),
  ) as R[];
  const items = rows.slice(0, limit).map(toRevision);
  const last = items[items.length - 1];
  return rows.length > limit && last !== undefined
    ? { items, nextCursor: encodeCursor([last.seq]) }
    : { items };
}

/** The newest revision of a subject with this version, as its row. */
export function revisionRowOfVersion<R>(
  sql: SqliteDatabase,
  log: RevisionLog,
  tenantId: string,
  subject: string,
  version: number,
): R | undefined {
  return sql.read(() =>
    sql
      .stmt(
        `SELECT * FROM ${log.from ?? log.table} WHERE tenant_id = ? AND ${log.subject} = ? AND version = ?
          ORDER BY seq DESC LIMIT 1`,
      )
      .get(tenantId, subject, version),
  ) as R | undefined;
}
