// Changing calendars without fear: a calendar's revision history, one kept version, and the rollback to an
// earlier version's exact content. It works through a TenantApi, so it is scoped to that tenant; a rollback
// writes through the same put as any calendar change (same validation, same re-planning of the schedules
// using it). It must never read a clock (the put it calls takes the API's).

import type { Calendar, CalendarDraft, CalendarInput } from './domain/calendar/calendar.js';
import type { CalendarRevision } from './domain/calendar/calendar-revision.js';
import { PunctualError } from './errors.js';
import { calendarStoreOf, requireCalendar } from './tenant-calendars.js';
import type { Page } from './store/store.js';
import type { TenantApi } from './tenant-api.js';

export interface CalendarRollbackResult {
  calendar: Calendar;
  /** False when that content is the current one: nothing was written (no new version). */
  changed: boolean;
  /** The version whose content was restored. */
  fromVersion: number;
}

/** REVISION_UNKNOWN: no revision of this version is kept for the calendar name. */
export function calendarRevisionUnknown(name: string, version: number): PunctualError {
  return new PunctualError('REVISION_UNKNOWN', `calendar "${name}" has no revision ${version}`, {
    name,
    version,
  });
}

/** The put input that normalises back to exactly this content. */
export function calendarInputOf(c: CalendarDraft): CalendarInput {
  return {
    name: c.name,
    tz: c.tz,
    dates: c.dates.map((d) => ({ start: d.start, end: d.end, label: d.label })),
    workingDays: c.workingDays,
    description: c.description,
  };
}

/** A name's revisions, newest first; CALENDAR_NOT_FOUND when it has no calendar and no revision. */
export async function calendarHistory(
  api: TenantApi,
  name: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<Page<CalendarRevision>> {
  const res = await calendarStoreOf(api.store).listCalendarRevisions({
    tenantId: api.tenantId,
    name,
    ...page,
  });
  if (res.items.length === 0 && page.cursor === undefined)
    await requireCalendar(api.store, api.tenantId, name);
  return res;
}

/** The newest revision of this version of the calendar; REVISION_UNKNOWN when none is kept. */
export async function calendarRevision(
  api: TenantApi,
  name: string,
  version: number,
): Promise<CalendarRevision> {
  const rev = Number.isInteger(version)
    ? await calendarStoreOf(api.store).getCalendarRevision(api.tenantId, name, version)
    : undefined;
  if (rev === undefined) throw calendarRevisionUnknown(name, version);
  return rev;
}

/**
 * Restores the content of `version` as a new version (revision `rolledBack`), re-planning the schedules
 * using the calendar as any change does; a deleted calendar comes back with that content. REVISION_UNKNOWN,
 * with nothing changed, when the version is not kept; VERSION_CONFLICT when `expectedVersion` is stale.
 */
export async function rollbackCalendar(
  api: TenantApi,
  name: string,
  version: number,
  opts: { actor: string | null; expectedVersion?: number | undefined },
): Promise<CalendarRollbackResult> {
  const rev = await calendarRevision(api, name, version);
  const current = await calendarStoreOf(api.store).getCalendar(api.tenantId, name);
  if (current !== undefined && version > current.version) throw calendarRevisionUnknown(name, version);
  const res = await api.putCalendar(calendarInputOf(rev.content), {
    actor: opts.actor,
    // Against the version read above: a change in between is a conflict, not overwritten.
    expectedVersion: opts.expectedVersion ?? current?.version,
    fromVersion: version,
  });
  return { calendar: res.calendar, changed: res.changed, fromVersion: version };
}
