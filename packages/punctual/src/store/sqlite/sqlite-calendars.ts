// A tenant's calendars on SQLite: get, list, put (a version compare-and-set in the same BEGIN IMMEDIATE
// transaction as the write, with its revision) and delete (refused while a schedule's calendar rules name it;
// its revision kept). It must never read a clock, nor build a statement from a name: values are always bound.

import type { Calendar } from '../../domain/calendar/calendar.js';
import { calendarRevisionOf } from '../../domain/calendar/calendar-revision.js';
import {
  calendarInUse,
  calendarNotFound,
  calendarVersionConflict,
  sameCalendar,
  toCalendar,
  type CalendarRow,
  type DeleteCalendarOptions,
  type PutCalendarRequest,
  type PutCalendarResult,
  type RewindCalendarUsers,
} from '../calendar-store.js';
import type { Transition } from '../store.js';
import { FINISHED_RUNS } from '../common/run-list-parts.js';
import { firstCalendarVersion, insertCalendarRevision } from './sqlite-calendar-revisions.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { changed } from './sqlite-runs.js';
import type { RunRow } from './sqlite-rows.js';

const COLUMNS = 'tenant_id, name, tz, dates, working_days, description, version, created_at, updated_at';
const GET = `SELECT ${COLUMNS} FROM calendars WHERE tenant_id = ? AND name = ?`;
const LIST = `SELECT ${COLUMNS} FROM calendars WHERE tenant_id = ? ORDER BY name`;
const INSERT = `
  INSERT INTO calendars (${COLUMNS})
  VALUES (@tenantId, @name, @tz, @dates, @workingDays, @description, @version, @now, @now)
  RETURNING ${COLUMNS}`;
const UPDATE = `
  UPDATE calendars SET tz = @tz, dates = @dates, working_days = @workingDays, description = @description,
    version = version + 1, updated_at = @now
  WHERE tenant_id = @tenantId AND name = @name
  RETURNING ${COLUMNS}`;
const DELETE = 'DELETE FROM calendars WHERE tenant_id = ? AND name = ?';
// The schedules whose rules name the calendar, in `exclude` or as `businessDays.calendar`.
const USERS = `
  SELECT key FROM schedules
  WHERE tenant_id = @tenantId AND calendar_rules IS NOT NULL AND (
    json_extract(calendar_rules, '$.businessDays.calendar') = @name OR
    EXISTS (SELECT 1 FROM json_each(calendar_rules, '$.exclude') e WHERE e.value = @name))
  ORDER BY key LIMIT @limit`;

export function getCalendar(sql: SqliteDatabase, tenantId: string, name: string): Calendar | undefined {
  const row = sql.read(() => sql.stmt(GET).get(tenantId, name)) as CalendarRow | undefined;
  return row === undefined ? undefined : toCalendar(row);
}

export function listCalendars(sql: SqliteDatabase, tenantId: string): Calendar[] {
  return (sql.read(() => sql.stmt(LIST).all(tenantId)) as CalendarRow[]).map(toCalendar);
}

export function putCalendar(sql: SqliteDatabase, req: PutCalendarRequest): PutCalendarResult {
  const d = req.draft;
  return sql.write(() => {
    const row = sql.stmt(GET).get(req.tenantId, d.name) as CalendarRow | undefined;
    const current = row === undefined ? undefined : toCalendar(row);
    if (req.expectedVersion !== undefined && current?.version !== req.expectedVersion) {
      throw calendarVersionConflict(d.name, req.expectedVersion, current?.version ?? null);
    }
    if (current !== undefined && sameCalendar(current, d))
      return { calendar: current, created: false, changed: false };
    const params = {
      tenantId: req.tenantId,
      name: d.name,
      tz: d.tz,
      dates: JSON.stringify(d.dates),
      workingDays: d.workingDays === null ? null : JSON.stringify(d.workingDays),
      description: d.description,
      now: req.now,
    };
    const stored =
      current === undefined
        ? sql.stmt(INSERT).get({ ...params, version: firstCalendarVersion(sql, req.tenantId, d.name) })
        : sql.stmt(UPDATE).get(params);
    const written = toCalendar(stored as CalendarRow);
    insertCalendarRevision(sql, calendarRevisionOf(req.tenantId, current, written, req.revision, req.now));
    return { calendar: written, created: current === undefined, changed: true };
  });
}

/** The keys of up to `limit` schedules naming the calendar in `exclude` or `businessDays`. */
export function usersOf(sql: SqliteDatabase, tenantId: string, name: string, limit: number): string[] {
  return (sql.stmt(USERS).all({ tenantId, name, limit }) as { key: string }[]).map((r) => r.key);
}

export function calendarUsers(sql: SqliteDatabase, tenantId: string, name: string, limit: number): string[] {
  return sql.read(() => usersOf(sql, tenantId, name, limit));
}

export function deleteCalendar(
  sql: SqliteDatabase,
  tenantId: string,
  name: string,
  opts: DeleteCalendarOptions,
): void {
  sql.write(() => {
    const row = sql.stmt(GET).get(tenantId, name) as CalendarRow | undefined;
    if (row === undefined) throw calendarNotFound(name);
    const { expectedVersion } = opts;
    if (expectedVersion !== undefined && row.version !== expectedVersion) {
      throw calendarVersionConflict(name, expectedVersion, row.version);
    }
    const users = usersOf(sql, tenantId, name, 10);
    if (users.length > 0) throw calendarInUse(name, users);
    sql.stmt(DELETE).run(tenantId, name);
    const note = { actor: opts.actor };
    insertCalendarRevision(sql, calendarRevisionOf(tenantId, toCalendar(row), null, note, opts.now));
  });
}

const USES = `calendar_rules IS NOT NULL AND (
    json_extract(calendar_rules, '$.businessDays.calendar') = @name OR
    EXISTS (SELECT 1 FROM json_each(calendar_rules, '$.exclude') e WHERE e.value = @name))`;
const USER_BATCH = `
  SELECT id, key, next_fire_at FROM schedules
  WHERE tenant_id = @tenantId AND id > @after AND ${USES}
  ORDER BY id LIMIT @limit`;
const CANCEL_PENDING = `
  UPDATE runs SET state = 'cancelled', reason = 'calendarChanged', finished_at = @now, holds_occurrence = NULL
  WHERE schedule_id = @id AND state = 'scheduled' AND kind = 'scheduled'
  RETURNING *`;
// A range of runs_tenant_key_time (the schedule's finished runs from now on, its predicate repeated:
// migration 0022); runs_schedule_state holds pending runs only (migration 0020).
const DROP_FUTURE_SKIPS = `
  DELETE FROM runs INDEXED BY runs_tenant_key_time
  WHERE tenant_id = @tenantId AND schedule_key = @key AND scheduled_for >= @now AND schedule_id = @id
    AND ${FINISHED_RUNS} AND state = 'skipped' AND reason = 'calendar'
  RETURNING scheduled_for`;
const REWIND = `
  UPDATE schedules SET next_fire_at = @next, fired_count = MAX(0, fired_count - @cancelled)
  WHERE id = @id`;

export function rewindCalendarUsers(
  sql: SqliteDatabase,
  req: RewindCalendarUsers,
): { schedules: number; transitions: Transition[]; last: string | null } {
  return sql.write(() => {
    const users = sql.stmt(USER_BATCH).all({
      tenantId: req.tenantId,
      name: req.calendar,
      after: req.after === null ? 0 : Number(req.after),
      limit: req.limit,
    }) as { id: number; key: string; next_fire_at: number | null }[];
    const transitions: Transition[] = [];
    for (const u of users) {
      const cancelled = sql.stmt(CANCEL_PENDING).all({ id: u.id, now: req.now }) as RunRow[];
      const dropped = sql
        .stmt(DROP_FUTURE_SKIPS)
        .all({ id: u.id, tenantId: req.tenantId, key: u.key, now: req.now }) as {
        scheduled_for: number;
      }[];
      const instants = [...cancelled.map((r) => r.scheduled_for), ...dropped.map((r) => r.scheduled_for)];
      if (instants.length === 0) continue;
      const earliest = Math.min(...instants);
      const next = u.next_fire_at === null ? earliest : Math.min(earliest, u.next_fire_at);
      sql.stmt(REWIND).run({ id: u.id, next, cancelled: cancelled.length });
      transitions.push(...changed(cancelled, 'scheduled'));
    }
    const last = users.length < req.limit ? null : String(users[users.length - 1]!.id);
    return { schedules: users.length, transitions, last };
  });
}
