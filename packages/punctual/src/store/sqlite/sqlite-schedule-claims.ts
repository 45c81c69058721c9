// The materializer's claims of due schedules in the SQLite store, kept in a TEMP table of the store's own
// connection instead of the schedule row. A claim only spreads work between materializers (advance's
// compare-and-set decides), and the SQLite store is one process (capabilities.multiInstance is false), so
// the claim need not be durable; written to the row, it cost a WAL page per claimed schedule (4 kB per run,
// bench/results/2026-11-26-wal-per-run.md), since a batch's due schedules lie on different pages. A TEMP
// table is not in the database file: its writes never reach the WAL. A temporary trigger drops a schedule's
// claim whenever a write changes what the materializer reads of it (next occurrence, version, state: put,
// pause, resume, advance, a calendar's rewind), as writing `claimed_until = NULL` with them did. It must
// never read a clock: `now` comes from the caller.

import type { Schedule } from '../../domain/schedule.js';
import type { SqliteDatabase } from './sqlite-database.js';
import { toSchedule, type ScheduleRow } from './sqlite-rows.js';

/** The claims table and the trigger that drops a claim when its schedule changes (idempotent). */
export const SCHEDULE_CLAIMS_DDL = `
  CREATE TEMP TABLE IF NOT EXISTS schedule_claims (id INTEGER PRIMARY KEY, until INTEGER NOT NULL);
  CREATE TEMP TRIGGER IF NOT EXISTS schedule_claims_drop
    AFTER UPDATE OF next_fire_at, version, state, updated_at ON main.schedules
    BEGIN DELETE FROM schedule_claims WHERE id = NEW.id; END;
  CREATE TEMP TRIGGER IF NOT EXISTS schedule_claims_gone AFTER DELETE ON main.schedules
    BEGIN DELETE FROM schedule_claims WHERE id = OLD.id; END;`;

// The schedules that roll back (`roll: "previous"`): schedules_due_roll_back's predicate, word for word.
const ROLLS_BACK = `state = 'active' AND json_extract(calendar_rules, '$.businessDays.roll') = 'previous'`;

/** Not claimed, or its claim lapsed by @now (a primary-key probe of the TEMP table). */
const UNCLAIMED = `NOT EXISTS (SELECT 1 FROM temp.schedule_claims AS c WHERE c.id = schedules.id AND c.until > @now)`;

// A range of schedules_due, in its order (no sort), and one of schedules_due_roll_back reaching
// @rollBackLeadMs further. INDEXED BY: see sqlite-schedules.ts (without statistics SQLite took an equality
// on state, over schedules_state until migration 0019, instead of the next_fire_at range).
export const CLAIM_DUE = `
  SELECT * FROM schedules
  WHERE id IN (
    SELECT id FROM (
      SELECT id FROM schedules INDEXED BY schedules_due
      WHERE state = 'active' AND next_fire_at <= @horizon AND ${UNCLAIMED}
      ORDER BY next_fire_at, id LIMIT @limit)
    UNION ALL
    SELECT id FROM (
      SELECT id FROM schedules INDEXED BY schedules_due_roll_back
      WHERE ${ROLLS_BACK} AND next_fire_at <= @horizon + @rollBackLeadMs AND ${UNCLAIMED}
      ORDER BY next_fire_at, id LIMIT @limit))`;

const CLAIM = 'INSERT OR REPLACE INTO temp.schedule_claims (id, until) VALUES (?, ?)';

/** Connections whose TEMP table and triggers exist. */
const ready = new WeakSet<SqliteDatabase>();

export function claimDueSchedules(
  sql: SqliteDatabase,
  req: { now: number; horizon: number; limit: number; leaseMs: number; rollBackLeadMs?: number | undefined },
): Schedule[] {
  if (req.limit <= 0) return [];
  if (!ready.has(sql)) {
    // Preparing a statement on schedules first: a database never migrated is STORE_NOT_MIGRATED, not the
    // trigger's "no such table".
    sql.stmt('SELECT 1 FROM schedules LIMIT 0');
    sql.exec(SCHEDULE_CLAIMS_DDL);
    ready.add(sql);
  }
  const rows = sql.write(() => {
    const due = sql.stmt(CLAIM_DUE).all({
      horizon: req.horizon,
      now: req.now,
      limit: req.limit,
      rollBackLeadMs: req.rollBackLeadMs ?? 0,
    }) as ScheduleRow[];
    const claim = sql.stmt(CLAIM);
    for (const r of due) claim.run(r.id, req.now + req.leaseMs);
    return due;
  });
  return rows.sort((a, b) => (a.next_fire_at ?? 0) - (b.next_fire_at ?? 0) || a.id - b.id).map(toSchedule);
}
