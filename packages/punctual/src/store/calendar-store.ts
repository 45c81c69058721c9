// The calendar part of the store contract: a tenant's named calendars, versioned like schedules (a version
// that bumps on every change, an optional expectedVersion compare-and-set), and the refusal to delete one a
// schedule still names. Every method is scoped by a tenant id the caller fixes, is atomic, and takes `now`
// as a parameter; drafts come validated (normalizeCalendar). Both stores implement it beside `Store`.

import type { Calendar, CalendarDate, CalendarDraft, Weekday } from '../domain/calendar/calendar.js';
import { stableJson } from '../domain/schedule.js';
import { PunctualError } from '../errors.js';
import type { Transition } from './store.js';

export interface PutCalendarRequest {
  tenantId: string;
  draft: CalendarDraft;
  now: number;
  /** Refuse with VERSION_CONFLICT unless the stored version equals this (undefined: no check). */
  expectedVersion?: number | undefined;
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
  /** Creates or replaces a calendar; VERSION_CONFLICT when expectedVersion does not match. */
  putCalendar(req: PutCalendarRequest): Promise<PutCalendarResult>;
  /**
   * Deletes a calendar: CALENDAR_NOT_FOUND when the tenant has none by that name, VERSION_CONFLICT when
   * expectedVersion does not match, CALENDAR_IN_USE (details.schedules: up to 10 keys) while a schedule's
   * `exclude` or `businessDays` names it. Nothing changes when refused.
   */
  deleteCalendar(
    tenantId: string,
    name: string,
    opts?: { expectedVersion?: number | undefined },
  ): Promise<void>;
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
