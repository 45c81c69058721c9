// The calendar part of the store contract: a tenant's named calendars, versioned like schedules (a version
// that bumps on every change, an optional expectedVersion compare-and-set), and the refusal to delete one a
// schedule still names. Every method is scoped by a tenant id the caller fixes, is atomic, and takes `now`
// as a parameter; drafts come validated (normalizeCalendar). Every change writes a calendar revision in the
// same transaction (kept after a delete, at most REVISIONS_KEPT per name; a calendar created again continues
// the version numbers of its history). Both stores implement it beside `Store`.

import type { Calendar, CalendarDate, CalendarDraft, Weekday } from '../domain/calendar/calendar.js';
import type { CalendarRevision } from '../domain/calendar/calendar-revision.js';
import type { RevisionNote } from '../domain/schedule-revision.js';
import { stableJson } from '../domain/schedule.js';
import { PunctualError } from '../errors.js';
import type { Page, Transition } from './store.js';

export interface PutCalendarRequest {
  tenantId: string;
  draft: CalendarDraft;
  now: number;
  /** Refuse with VERSION_CONFLICT unless the stored version equals this (undefined: no check). */
  expectedVersion?: number | undefined;
  /** Who made the change (and the version a rollback restores), kept in the revision the put writes. */
  revision?: RevisionNote | undefined;
}

export interface DeleteCalendarOptions {
  now: number;
  expectedVersion?: number | undefined;
  /** Who deleted it, kept in the `deleted` revision. */
  actor?: string | null | undefined;
}

/** A name's calendar revisions, newest first (they outlive a deleted calendar). */
export interface CalendarRevisionQuery {
  tenantId: string;
  name: string;
  cursor?: string | undefined;
  limit: number;
}

export interface PutCalendarResult {
  calendar: Calendar;
  created: boolean;
  /** False when the content was the same: the version is kept. */
  changed: boolean;
}

export interface CalendarStore {
  getCalendar(tenantId: string, name: string): Promise<Calendar | undefined>;
  /** Every calendar of the tenant, by name. */
  listCalendars(tenantId: string): Promise<Calendar[]>;
  /**
   * Creates or replaces a calendar; VERSION_CONFLICT when expectedVersion does not match. A change writes a
   * revision (created, updated or rolledBack); an unchanged put writes none.
   */
  putCalendar(req: PutCalendarRequest): Promise<PutCalendarResult>;
  /**
   * Deletes a calendar: CALENDAR_NOT_FOUND when the tenant has none by that name, VERSION_CONFLICT when
   * expectedVersion does not match, CALENDAR_IN_USE (details.schedules: up to 10 keys) while a schedule's
   * `exclude` or `businessDays` names it. Nothing changes when refused; a delete writes a `deleted` revision.
   */
  deleteCalendar(tenantId: string, name: string, opts: DeleteCalendarOptions): Promise<void>;
  /** The keys of up to `limit` schedules whose `exclude` or `businessDays` names the calendar, by key. */
  calendarUsers(tenantId: string, name: string, limit: number): Promise<string[]>;
  /** The name's revisions, newest first, including those of a deleted calendar with this name. */
  listCalendarRevisions(q: CalendarRevisionQuery): Promise<Page<CalendarRevision>>;
  /** The newest revision of this name with this version (undefined when none is kept). */
  getCalendarRevision(tenantId: string, name: string, version: number): Promise<CalendarRevision | undefined>;
  /**
   * After a calendar changed: for up to `limit` schedules using it (by id, after `after`), in one atomic step
   * each, cancels the occurrences materialised but not started (`calendarChanged`), drops the future records
   * of occurrences the calendars skipped (`calendar`, scheduledFor >= now), and moves the schedule back to
   * the earliest of them so the materializer writes them again under the new calendar. A run that started is
   * never touched. `last` is the cursor for the next batch (null: no more).
   */
  rewindCalendarUsers(
    req: RewindCalendarUsers,
  ): Promise<{ schedules: number; transitions: Transition[]; last: string | null }>;
}

export interface RewindCalendarUsers {
  tenantId: string;
  calendar: string;
  now: number;
  /** The id of the last schedule of the previous batch (null: from the start). */
  after: string | null;
  limit: number;
}

/** True when a store implements the calendar contract. */
export function hasCalendars<S extends object>(store: S): store is S & CalendarStore {
  return 'getCalendar' in store && typeof (store as Partial<CalendarStore>).getCalendar === 'function';
}

/** A calendar row as both stores read it (JSON parts already parsed or still text). */
export interface CalendarRow {
  tenant_id: string;
  name: string;
  tz: string;
  dates: string | CalendarDate[];
  working_days: string | Weekday[] | null;
  description: string | null;
  version: number;
  created_at: number | string;
  updated_at: number | string;
}

/** A calendar revision row as both stores read it (JSON parts already parsed or still text). */
export interface CalendarRevisionRow {
  seq: number | string;
  tenant_id: string;
  name: string;
  version: number;
  at: number | string;
  actor: string | null;
  change: string;
  from_version: number | null;
  diff: string | CalendarRevision['diff'];
  content: string | CalendarDraft;
}

const parsed = <T>(v: string | T): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

export function toCalendar(row: CalendarRow): Calendar {
  return {
    tenantId: row.tenant_id,
    name: row.name,
    tz: row.tz,
    dates: parsed(row.dates),
    workingDays: row.working_days === null ? null : parsed(row.working_days),
    description: row.description,
    version: Number(row.version),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function toCalendarRevision(r: CalendarRevisionRow): CalendarRevision {
  return {
    seq: Number(r.seq),
    tenantId: r.tenant_id,
    name: r.name,
    version: Number(r.version),
    at: Number(r.at),
    actor: r.actor,
    change: r.change as CalendarRevision['change'],
    fromVersion: r.from_version === null ? null : Number(r.from_version),
    diff: parsed(r.diff),
    content: parsed(r.content),
  };
}

/** True when a stored calendar holds the same content as a draft (a put with no change keeps the version). */
export function sameCalendar(a: CalendarDraft, b: CalendarDraft): boolean {
  return (
    a.tz === b.tz &&
    a.description === b.description &&
    stableJson(a.dates) === stableJson(b.dates) &&
    stableJson(a.workingDays) === stableJson(b.workingDays)
  );
}

export function calendarVersionConflict(
  name: string,
  expected: number,
  actual: number | null,
): PunctualError {
  return new PunctualError(
    'VERSION_CONFLICT',
    `calendar ${name} is at version ${actual ?? 'none'}, not ${expected}`,
    {
      name,
      expected,
      actual,
    },
  );
}

export function calendarNotFound(name: string): PunctualError {
  return new PunctualError('CALENDAR_NOT_FOUND', `no calendar named "${name}"`, { name });
}

export function calendarInUse(name: string, keys: string[]): PunctualError {
  return new PunctualError(
    'CALENDAR_IN_USE',
    `calendar "${name}" is used by schedule${keys.length === 1 ? '' : 's'} ${keys.join(', ')}; remove it from their exclude / businessDays first`,
    { name, schedules: keys },
  );
}
