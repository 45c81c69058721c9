// Saving one tenant's calendars: a put (create or replace), then the pending runs of every schedule using a
// changed calendar planned again under its new dates; and the import of an .ics text as such a put. The
// instant comes from the API's clock once per call; validation happens before anything is written
// (tenant-calendars.ts), and it must never re-plan the schedules of another tenant.

import { actorOf, type ActorOption } from './actor-option.js';
import type { Calendar, CalendarInput } from './domain/calendar/calendar.js';
import {
  calendarInputFromIcs,
  rewindCalendarUsers,
  writeCalendar,
  type ImportCalendarOptions,
} from './tenant-calendars.js';
import type { TenantApi } from './tenant-api.js';
import type { TenantEngine } from './tenant-engine.js';

/** What TenantApi.putCalendar answers. */
export interface CalendarPutResult {
  calendar: Calendar;
  created: boolean;
  changed: boolean;
}

/** What TenantApi.importCalendar answers: the put, and the events of the .ics text left out. */
export interface CalendarImportResult extends CalendarPutResult {
  skipped: { summary: string | null; why: string }[];
}

/** Creates or replaces a calendar, then re-plans its users when it changed (TenantApi.putCalendar). */
export async function putCalendar(
  api: TenantApi,
  engine: TenantEngine,
  input: CalendarInput,
  opts: ActorOption & { expectedVersion?: number | undefined; fromVersion?: number | undefined },
): Promise<CalendarPutResult> {
  const now = api.clock.now();
  const res = await writeCalendar(api.store, api.tenantId, input, {
    now,
    expectedVersion: opts.expectedVersion,
    revision: { actor: actorOf(opts), fromVersion: opts.fromVersion },
  });
  if (res.changed && !res.created) {
    await rewindCalendarUsers(api.store, api.tenantId, res.calendar.name, now, (ts) => {
      for (const t of ts) engine.bus.emitTransition(t);
    });
    engine.hooks.scheduleChanged(now);
  }
  return res;
}

/** Creates or replaces a calendar from the all-day events of an .ics text (TenantApi.importCalendar). */
export async function importCalendar(
  api: TenantApi,
  name: string,
  ics: string,
  opts: ImportCalendarOptions & ActorOption,
): Promise<CalendarImportResult> {
  const { input, skipped } = calendarInputFromIcs(name, ics, { ...opts, now: api.clock.now() });
  const res = await api.putCalendar(input, { expectedVersion: opts.expectedVersion, actor: opts.actor });
  return { ...res, skipped };
}
