// The reads and the retention bound every revision table of the PostgreSQL store shares (schedule revisions
// by key, calendar revisions by name): a subject's newest REVISIONS_KEPT are kept, pages go newest first by
// sequence, and one version is found by number. Table and column names come from the fixed list below, never
// from input; values are always bound. It must never read a clock.

import { REVISIONS_KEPT } from '../../domain/schedule-revision.js';
import type { Page } from '../store.js';
import type { PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';
import { decodeCursor, encodeCursor } from '../common/page-cursor.js';

/**
 * A revision table and the column naming what its revisions are of; `select`, when given, is the statement's
 * SELECT ... FROM with the table aliased `r` (schedule revisions join the schedule row a NULL content derives
 * from), by default `SELECT r.* FROM <table> AS r`.
 */
export type RevisionLog = (
  { table: 'schedule_revisions'; subject: 'key' } | { table: 'calendar_revisions'; subject: 'name' }
) & { select?: (schema: string) => string };

function selectOf(db: PgDb, log: RevisionLog): string {
  return log.select?.(db.s) ?? `SELECT r.* FROM ${db.s}.${log.table} AS r`;
}

export interface RevisionLogQuery {
  tenantId: string;
  subject: string;
  cursor?: string | undefined;
  limit: number;
}

/**
 * A SELECT of the seqs of every revision of the (tenant, subject) pairs in the text arrays `tenants` and
 * `subjects` (parameter references): one probe of the (tenant, subject, seq) index per pair. OFFSET 0 keeps
 * the probe a subquery run per pair: a join with the arrays alone lets the planner, when its statistics lag
 * a bulk load, read the tenant's whole range of the index once per batch.
 */
export function revisionSeqsOf(db: PgDb, log: RevisionLog, tenants: string, subjects: string): string {
  const { table, subject: col } = log;
  return `SELECT p.seq FROM unnest(${tenants}::text[], ${subjects}::text[]) AS q(tenant_id, subject)
            CROSS JOIN LATERAL (SELECT o.seq FROM ${db.s}.${table} AS o
                                 WHERE o.tenant_id = q.tenant_id AND o.${col} = q.subject OFFSET 0) AS p`;
}

/**
 * Drops what is older than the REVISIONS_KEPT newest of each (tenant, subject) pair given; the caller is
 * inside the write transaction. The rows come from one index probe per pair (revisionSeqsOf).
 */
export async function pruneRevisions(
  db: PgDb,
  c: PgQueryable,
  log: RevisionLog,
  tenantIds: readonly string[],
  subjects: readonly string[],
): Promise<void> {
  const { table, subject: col } = log;
  await c.query(
    `DELETE FROM ${db.s}.${table} AS r
      USING unnest($1::text[], $2::text[]) AS k(tenant_id, subject)
      WHERE r.tenant_id = k.tenant_id AND r.${col} = k.subject
        AND r.seq = ANY(ARRAY(${revisionSeqsOf(db, log, '$1', '$2')})) AND r.seq <= (
        SELECT o.seq FROM ${db.s}.${table} AS o
         WHERE o.tenant_id = k.tenant_id AND o.${col} = k.subject
         ORDER BY o.seq DESC LIMIT 1 OFFSET $3)`,
    [tenantIds, subjects, REVISIONS_KEPT],
  );
}

/** One page of a subject's revisions, newest first. */
export async function revisionPage<R, T extends { seq: number }>(
  db: PgDb,
  log: RevisionLog,
  q: RevisionLogQuery,
  toRevision: (row: R) => T,
): Promise<Page<T>> {
  const limit = Math.max(1, q.limit);
  const before = q.cursor === undefined ? null : decodeCursor<[number]>(q.cursor, ['number'])[0];
  const rows = await db.query<R>(
    `${selectOf(db, log)}
      WHERE r.tenant_id = $1 AND r.${log.subject} = $2 AND ($3::bigint IS NULL OR r.seq < $3::bigint)
      ORDER BY r.seq DESC LIMIT $4`,
    [q.tenantId, q.subject, before, limit + 1],
  );
  const items = rows.slice(0, limit).map(toRevision);
  const last = items[items.length - 1];
  return rows.length > limit && last !== undefined
    ? { items, nextCursor: encodeCursor([last.seq]) }
    : { items };
}

/** The newest revision of a subject with this version, as its row. */
export async function revisionRowOfVersion<R>(
  db: PgDb,
  log: RevisionLog,
  tenantId: string,
  subject: string,
  version: number,
): Promise<R | undefined> {
  const rows = await db.query<R>(
    `${selectOf(db, log)} WHERE r.tenant_id = $1 AND r.${log.subject} = $2 AND r.version = $3
      ORDER BY r.seq DESC LIMIT 1`,
    [tenantId, subject, version],
  );
  return rows[0];
}
