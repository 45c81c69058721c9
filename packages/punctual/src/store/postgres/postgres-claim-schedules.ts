// The schedules of the runs a claim's page holds: from the store's cache at the version the page read, the
// ones it lacks read in one statement after the page, and the runs leased for a schedule deleted in between
// cancelled. It must never hand out a run without its schedule, nor read a clock (`now` is a parameter).

import type { Schedule } from '../../domain/schedule.js';
import type { Transition } from '../store.js';
import { applySql, schedulesByIdSql } from './postgres-claim-sql.js';
import type { PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';
import { toRun, toSchedule, type RunRow, type ScheduleRow } from './postgres-rows.js';

type Id = string;

/** What this file reads of a page's rows: the run row and its schedule's version when the page was read. */
export type ScheduledPageRow = RunRow & { schedule_version_now: number | null };

/**
 * The schedule of each candidate of a page, into `known` (null: deleted). The page carries each schedule's
 * current version; the store's cache serves that version, and the schedules it lacks are read in one
 * statement (the materializer fills the cache, so in one process this read is rare). A schedule edited since
 * the page was read comes back at its newer version, which is the one to run with.
 */
export async function resolveSchedules(
  db: PgDb,
  q: PgQueryable,
  page: ScheduledPageRow[],
  known: Map<Id, Schedule | null>,
): Promise<void> {
  const missing = new Set<Id>();
  for (const row of page) {
    const sid = String(row.schedule_id);
    if (known.has(sid) || missing.has(sid)) continue;
    const version = row.schedule_version_now;
    const cached = version === null ? null : db.schedules.get(sid, version);
    if (cached === undefined) missing.add(sid);
    else known.set(sid, cached);
  }
  if (missing.size === 0) return;
  const { rows } = await q.query<ScheduleRow>(db.named('claim.schedules', schedulesByIdSql, [[...missing]]));
  for (const row of rows) {
    const schedule = toSchedule(row);
    db.schedules.set(schedule);
    known.set(schedule.id, schedule);
  }
  for (const sid of missing) if (!known.has(sid)) known.set(sid, null);
}

/**
 * Leased runs whose schedule was deleted between the page and the read of its schedule: cancelled (fenced
 * by their tokens), reported as transitions from running.
 */
export async function cancelOrphans(
  db: PgDb,
  q: PgQueryable,
  rows: ScheduledPageRow[],
  now: number,
): Promise<Transition[]> {
  if (rows.length === 0) return [];
  const { rows: done } = await q.query<RunRow>(applySql.orphans(db.s), [
    rows.map((r) => r.id),
    now,
    rows.map((r) => r.lease_token),
  ]);
  return done.map((r) => ({ run: toRun(r), from: 'running' as const, to: 'cancelled' as const }));
}
