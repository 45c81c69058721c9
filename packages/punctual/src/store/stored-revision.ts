// What a schedule revision row stores, and how a read restores the revision the write recorded. Derivable
// parts are not stored: the content of the schedule's current version lives in its schedule row (a revision
// row keeps NULL until a put replaces that version or a delete removes the row, when the store writes the
// content out), and a creation's diff (every field from nothing) is recomputed from the content. Shared by
// the SQLite and PostgreSQL stores so both keep and restore the same thing. Pure: it must never perform I/O
// or read a clock.

import { diffSchedules, type ScheduleDiff } from '../domain/schedule-diff.js';
import type { ScheduleRevision } from '../domain/schedule-revision.js';
import type { Schedule, ScheduleDraft } from '../domain/schedule.js';
import { contentOf, type RevisionInsert } from './revision-record.js';

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
