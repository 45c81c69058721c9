// The execution counts of a schedule in schedule_executions (migration 22): what a schedule delete does to
// them. The settlement adds to them in the database (count_executions, called by postgres-leases.ts) and reads
// add them to the schedule row (scheduleColumns, postgres-rows.ts). It must never lock or write a schedule
// row, and never run outside the transaction of the delete it completes.

import type { PgDb } from './postgres-database.js';
import type { PgQueryable } from './postgres-driver.js';

/** The advisory lock buckets of the counts, by schedule id (count_executions takes the same). */
export const EXECUTION_LOCK_BUCKETS = 64;

/**
 * Deletes the counts row of a schedule the transaction `c` has just deleted; the last statements of that
 * transaction. The bucket's advisory lock, taken alone, waits for every settlement that may still add to the
 * schedule (they hold it shared from before they check that it exists until they commit), so the DELETE,
 * whose snapshot comes after, sees what they wrote; a settlement that comes later waits for this transaction
 * and then finds no schedule. Taken last, it holds the lock while waiting for nothing else: a settlement
 * holding the bucket never waits for a row this transaction locked (docs/postgres.md, Execution counts).
 */
export async function forgetExecutions(db: PgDb, c: PgQueryable, scheduleId: string): Promise<void> {
  await c.query(
    `SELECT pg_advisory_xact_lock(hashtextextended($1, $2::bigint % ${EXECUTION_LOCK_BUCKETS}))`,
    [`${db.s}.schedule_executions`, scheduleId],
  );
  await c.query(`DELETE FROM ${db.s}.schedule_executions WHERE schedule_id = $1`, [scheduleId]);
}
