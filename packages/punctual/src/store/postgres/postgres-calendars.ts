// A tenant's calendars on PostgreSQL: get, list, put (the version compare-and-set on the row locked FOR
// UPDATE in the same transaction as the write, with its revision) and delete (refused while a schedule's
// calendar rules name it; its revision kept). It must never read a clock (`now` is a parameter), nor put a name into SQL text: values are bound.

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
import { firstCalendarVersion, insertCalendarRevision } from './postgres-calendar-revisions.js';
import type { RunRow } from './postgres-rows.js';
import { transitionsOf } from './postgres-runs.js';
import { RetryTransaction, type PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';

const COLUMNS = 'tenant_id, name, tz, dates, working_days, description, version, created_at, updated_at';

export async function getCalendar(db: PgDb, tenantId: string, name: string): Promise<Calendar | undefined> {
  const rows = await db.query<CalendarRow>(
    `SELECT ${COLUMNS} FROM ${db.s}.calendars WHERE tenant_id = $1 AND name = $2`,
    [tenantId, name],
  );
  return rows[0] === undefined ? undefined : toCalendar(rows[0]);
}

export async function listCalendars(db: PgDb, tenantId: string): Promise<Calendar[]> {
  const rows = await db.query<CalendarRow>(
    `SELECT ${COLUMNS} FROM ${db.s}.calendars WHERE tenant_id = $1 ORDER BY name`,
    [tenantId],
  );
  return rows.map(toCalendar);
}

export async function putCalendar(db: PgDb, req: PutCalendarRequest): Promise<PutCalendarResult> {
  const d = req.draft;
  return db.tx(async (c) => {
    const { rows } = await c.query<CalendarRow>(
      `SELECT ${COLUMNS} FROM ${db.s}.calendars WHERE tenant_id = $1 AND name = $2 FOR UPDATE`,
      [req.tenantId, d.name],
    );
    const current = rows[0] === undefined ? undefined : toCalendar(rows[0]);
    if (req.expectedVersion !== undefined && current?.version !== req.expectedVersion) {
      throw calendarVersionConflict(d.name, req.expectedVersion, current?.version ?? null);
    }
    if (current !== undefined && sameCalendar(current, d))
      return { calendar: current, created: false, changed: false };
    const values = [
      req.tenantId,
      d.name,
      d.tz,
      JSON.stringify(d.dates),
      d.workingDays === null ? null : JSON.stringify(d.workingDays),
      d.description,
      req.now,
    ];
    let written: Calendar;
    if (current === undefined) {
      const first = await firstCalendarVersion(db, c, req.tenantId, d.name);
      const { rows: inserted } = await c.query<CalendarRow>(
        `INSERT INTO ${db.s}.calendars (${COLUMNS}) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $8, $7, $7)
         ON CONFLICT (tenant_id, name) DO NOTHING RETURNING ${COLUMNS}`,
        [...values, first],
      );
      // Another writer created it between our read and insert: run the whole put again.
      if (inserted[0] === undefined) throw new RetryTransaction();
      written = toCalendar(inserted[0]);
    } else {
      const { rows: updated } = await c.query<CalendarRow>(
        `UPDATE ${db.s}.calendars SET tz = $3, dates = $4::jsonb, working_days = $5::jsonb, description = $6,
           version = version + 1, updated_at = $7
         WHERE tenant_id = $1 AND name = $2 RETURNING ${COLUMNS}`,
        values,
      );
      written = toCalendar(updated[0]!);
    }
    const revision = calendarRevisionOf(req.tenantId, current, written, req.revision, req.now);
    await insertCalendarRevision(db, c, revision);
    return { calendar: written, created: current === undefined, changed: true };
  });
}

/** The keys of up to `limit` schedules naming the calendar in `exclude` or `businessDays`. */
export async function usersOf(
  db: PgDb,
  c: PgQueryable,
  tenantId: string,
  name: string,
  limit: number,
): Promise<string[]> {
  const { rows } = await c.query<{ key: string }>(
    `SELECT key FROM ${db.s}.schedules
     WHERE tenant_id = $1 AND calendar_rules IS NOT NULL
       AND (calendar_rules->'exclude' ? $2 OR calendar_rules->'businessDays'->>'calendar' = $2)
     ORDER BY key LIMIT $3`,
    [tenantId, name, limit],
  );
  return rows.map((r) => r.key);
}

export async function calendarUsers(
  db: PgDb,
  tenantId: string,
  name: string,
  limit: number,
): Promise<string[]> {
  return db.tx((c) => usersOf(db, c, tenantId, name, limit));
}

export async function deleteCalendar(
  db: PgDb,
  tenantId: string,
  name: string,
  opts: DeleteCalendarOptions,
): Promise<void> {
  await db.tx(async (c) => {
    const { rows } = await c.query<CalendarRow>(
      `SELECT ${COLUMNS} FROM ${db.s}.calendars WHERE tenant_id = $1 AND name = $2 FOR UPDATE`,
      [tenantId, name],
    );
    if (rows[0] === undefined) throw calendarNotFound(name);
    const { expectedVersion } = opts;
    if (expectedVersion !== undefined && Number(rows[0].version) !== expectedVersion) {
      throw calendarVersionConflict(name, expectedVersion, Number(rows[0].version));
    }
    const users = await usersOf(db, c, tenantId, name, 10);
    if (users.length > 0) throw calendarInUse(name, users);
    await c.query(`DELETE FROM ${db.s}.calendars WHERE tenant_id = $1 AND name = $2`, [tenantId, name]);
    const note = { actor: opts.actor };
    await insertCalendarRevision(
      db,
      c,
      calendarRevisionOf(tenantId, toCalendar(rows[0]), null, note, opts.now),
    );
  });
}

export async function rewindCalendarUsers(
  db: PgDb,
  req: RewindCalendarUsers,
): Promise<{ schedules: number; transitions: Transition[]; last: string | null }> {
  return db.tx(async (c) => {
    const { rows: users } = await c.query<{ id: string; next_fire_at: string | null }>(
      `SELECT id::text AS id, next_fire_at FROM ${db.s}.schedules
        WHERE tenant_id = $1 AND id > $2 AND calendar_rules IS NOT NULL
          AND (calendar_rules->'exclude' ? $3 OR calendar_rules->'businessDays'->>'calendar' = $3)
        ORDER BY id LIMIT $4
        FOR UPDATE`,
      [req.tenantId, req.after ?? '0', req.calendar, req.limit],
    );
    const transitions: Transition[] = [];
    for (const u of users) {
      const { rows: cancelled } = await c.query<RunRow>(
        `UPDATE ${db.s}.runs SET state = 'cancelled', reason = 'calendarChanged', finished_at = $2,
                holds_occurrence = NULL
          WHERE schedule_id = $1 AND state = 'scheduled' AND kind = 'scheduled'
          RETURNING *`,
        [u.id, req.now],
      );
      const { rows: dropped } = await c.query<{ scheduled_for: string }>(
        `DELETE FROM ${db.s}.runs
          WHERE schedule_id = $1 AND state = 'skipped' AND reason = 'calendar' AND scheduled_for >= $2
          RETURNING scheduled_for`,
        [u.id, req.now],
      );
      const instants = [
        ...cancelled.map((r) => Number(r.scheduled_for)),
        ...dropped.map((r) => Number(r.scheduled_for)),
      ];
      if (instants.length === 0) continue;
      const earliest = Math.min(...instants);
      const next = u.next_fire_at === null ? earliest : Math.min(earliest, Number(u.next_fire_at));
      await c.query(
        `UPDATE ${db.s}.schedules SET next_fire_at = $2, fired_count = GREATEST(0, fired_count - $3),
                claimed_until = NULL
          WHERE id = $1`,
        [u.id, next, cancelled.length],
      );
      transitions.push(...transitionsOf(cancelled, 'scheduled'));
    }
    const last = users.length < req.limit ? null : users[users.length - 1]!.id;
    return { schedules: users.length, transitions, last };
  });
}
