// What a schedule revision row stores, and how a read restores the revision the write recorded. Derivable
// parts are not stored: the content of the schedule's current version lives in its schedule row (a revision
// row keeps NULL until a put replaces that version or a delete removes the row, when the store writes the
// content out), and a creation's diff (every field from nothing) is recomputed from the content. A schedule
// never changed since it was created keeps its `created` revision in its own row (the sequence number it was
// given, the actor): the store writes that revision out as a row before any other change of the schedule,
// and reads answer it as if it were one (deferredCreationsSql). Shared by the SQLite and PostgreSQL stores so
// both keep and restore the same thing. Pure: it must never perform I/O or read a clock.

import { diffSchedules, type ScheduleDiff } from '../domain/schedule-diff.js';
import type { ScheduleRevision } from '../domain/schedule-revision.js';
import type { Schedule, ScheduleDraft } from '../domain/schedule.js';
import { contentOf, type RevisionInsert } from './revision-record.js';

/** A revision row's columns, in the order deferredCreationsSql answers them. */
export const REVISION_COLUMNS =
  'seq, tenant_id, key, schedule_id, version, at, actor, change, from_version, state, diff, content';

/**
 * SQL (both dialects) of the state a schedule was created in, from its row while its `created` revision is
 * deferred: nothing but the materializer has changed the row since, and the materializer only completes an
 * active schedule (a paused one never fires), so a paused row was created paused and any other was active.
 */
export const CREATION_STATE_SQL = "CASE WHEN state = 'paused' THEN 'paused' ELSE 'active' END";

/**
 * SQL (both dialects) of the `created` revisions deferred in schedule rows, with a revision row's columns:
 * `schema` is the quoted schema and a dot, or '' (SQLite). A row whose version moved on without its creation
 * written out (older code changed it) answers none: its content is gone with that version.
 */
export function deferredCreationsSql(schema: string, casts: { json: string }): string {
  return `SELECT created_seq AS seq, tenant_id, key, id AS schedule_id, 1 AS version, created_at AS at,
                 created_by AS actor, 'created' AS change, NULL AS from_version, ${CREATION_STATE_SQL} AS state,
                 NULL${casts.json} AS diff, NULL${casts.json} AS content
            FROM ${schema}schedules WHERE created_seq IS NOT NULL AND version = 1`;
}

/** The content as a revision keeps it: the JSON form of the schedule's content fields. */
export function contentJson(s: ScheduleDraft): string {
  return JSON.stringify(contentOf(s));
}

/**
 * The content a revision row stores: NULL (the schedule row holds it) unless the write removes the schedule
 * row (a delete).
 */
export function storedContent(r: RevisionInsert): string | null {
  return r.change === 'deleted' ? JSON.stringify(r.content) : null;
}

/** The diff a revision row stores: NULL when it is the creation diff of its content (derived on read). */
export function storedDiff(r: RevisionInsert): string | null {
  const text = JSON.stringify(r.diff);
  return text === JSON.stringify(diffSchedules(null, r.content)) ? null : text;
}

/** A revision row's stored parts, and the schedule row it derives NULL content from (if it was read). */
export interface StoredRevisionParts {
  diff: ScheduleDiff | null;
  content: ScheduleDraft | null;
  /** The revision's schedule as it is now, when its version is the revision's; else undefined. */
  current: Schedule | undefined;
}

/** The revision's diff and content as the write recorded them. */
export function restoreRevision(
  p: StoredRevisionParts,
  what: { key: string; version: number },
): Pick<ScheduleRevision, 'diff' | 'content'> {
  let content = p.content;
  if (content === null) {
    if (p.current === undefined) {
      // Never left behind by a write (a put or a delete writes the content out first): a broken invariant.
      throw new Error(`revision ${what.key}@${what.version}: content neither stored nor derivable`);
    }
    content = JSON.parse(contentJson(p.current)) as ScheduleDraft;
  }
  return { diff: p.diff ?? diffSchedules(null, content), content };
}
