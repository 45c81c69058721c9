// A calendar revision: one kept change of a calendar (created, updated, deleted, rolledBack) with who made it,
// when, the field diff against the version before (dates added and removed with their labels, working days,
// zone, description) and the full content of the version it leaves, so a rollback can restore it exactly.
// Pure: it must never perform I/O or read a clock.

import { stableJson } from '../schedule.js';
import type { RevisionNote } from '../schedule-revision.js';
import type { CalendarDate, CalendarDraft, Weekday } from './calendar.js';

/** Every kind of change a calendar revision records. */
export const CALENDAR_REVISION_CHANGES = ['created', 'updated', 'deleted', 'rolledBack'] as const;
export type CalendarRevisionChange = (typeof CALENDAR_REVISION_CHANGES)[number];

/** What changed between two versions of a calendar; only the parts that differ are present. */
export interface CalendarDiff {
  /** Dates and ranges (with their labels) in one version and not the other; a relabel is one of each. */
  dates?: { added: CalendarDate[]; removed: CalendarDate[] };
  workingDays?: { from: Weekday[] | null; to: Weekday[] | null };
  tz?: { from: string | null; to: string | null };
  description?: { from: string | null; to: string | null };
}

export interface CalendarRevision {
  /** Orders the revisions of a name (higher is newer). */
  seq: number;
  tenantId: string;
  name: string;
  /** The calendar's version after the change (a delete keeps the version it deleted). */
  version: number;
  at: number;
  actor: string | null;
  change: CalendarRevisionChange;
  /** The version a rollback restored; null for other changes. */
  fromVersion: number | null;
  diff: CalendarDiff;
  /** The full content of the version (of the deleted one for a delete). */
  content: CalendarDraft;
}

/** A revision before the store gives it its sequence number. */
export type CalendarRevisionInsert = Omit<CalendarRevision, 'seq'>;

const dateKey = (d: CalendarDate): string => stableJson(d);

/** The diff from `before` to `after`; null on one side is a creation or a deletion. */
export function diffCalendars(before: CalendarDraft | null, after: CalendarDraft | null): CalendarDiff {
  const out: CalendarDiff = {};
  const had = new Set((before?.dates ?? []).map(dateKey));
  const has = new Set((after?.dates ?? []).map(dateKey));
  const added = (after?.dates ?? []).filter((d) => !had.has(dateKey(d)));
  const removed = (before?.dates ?? []).filter((d) => !has.has(dateKey(d)));
  if (added.length > 0 || removed.length > 0) out.dates = { added, removed };
  const wdFrom = before?.workingDays ?? null;
  const wdTo = after?.workingDays ?? null;
  if (stableJson(wdFrom) !== stableJson(wdTo)) out.workingDays = { from: wdFrom, to: wdTo };
  for (const f of ['tz', 'description'] as const) {
    const from = before?.[f] ?? null;
    const to = after?.[f] ?? null;
    if (from !== to) out[f] = { from, to };
  }
  return out;
}

/** The content fields of a calendar (what a revision keeps), whatever else the object holds. */
export function calendarContentOf(c: CalendarDraft): CalendarDraft {
  return {
    name: c.name,
    tz: c.tz,
    dates: c.dates,
    workingDays: c.workingDays,
    description: c.description,
  };
}

/**
 * The revision a calendar write records: `before` the calendar as it was (undefined on creation), `after`
 * the version written, or null for a delete (the revision then keeps the deleted content and version).
 */
export function calendarRevisionOf(
  tenantId: string,
  before: (CalendarDraft & { version: number }) | undefined,
  after: (CalendarDraft & { version: number }) | null,
  note: RevisionNote | undefined,
  now: number,
): CalendarRevisionInsert {
  const kept = after ?? before!;
  const change: CalendarRevisionChange =
    after === null
      ? 'deleted'
      : note?.fromVersion !== undefined
        ? 'rolledBack'
        : before === undefined
          ? 'created'
          : 'updated';
  return {
    tenantId,
    name: kept.name,
    version: kept.version,
    at: now,
    actor: note?.actor ?? null,
    change,
    fromVersion: after === null ? null : (note?.fromVersion ?? null),
    diff: diffCalendars(before ?? null, after),
    content: calendarContentOf(kept),
  };
}
