// Migration 22: the execution counts leave the wide schedule row. Every settled run added to its schedule's
// `executed_count`, `last_fired_at` and `last_succeeded_at` (migration 6) under a row lock, so each fired run
// wrote its schedule's heap page twice (the materializer's advance, then the settlement): at millions of
// schedules that page is rarely still in memory. `schedule_executions` holds them instead, one narrow row per
// schedule that has executed a run, written by the settlement (`count_executions`) and none for one that never
// did; no index covers a counter, so each update can stay on its page (HOT), which the fillfactor keeps room
// for. No foreign key: its check would lock the schedule row, the write this removes. Instead a transaction-
// scoped advisory lock, shared by settlements and taken alone by a delete, in one of 64 buckets by schedule id
// (docs/postgres.md, Execution counts): a settlement takes its buckets in order, then counts only schedules
// that still exist in a fresh snapshot (a PL/pgSQL statement takes its own), and a delete takes its bucket last
// and only then deletes the counts row, so neither order leaves a counts row without its schedule.
// The three columns stay in `schedules`, no longer written by this release: a read adds both places (count
// summed, instants the later), so the counts written before this migration, and those release-21 instances
// still write there during a rolling deploy, are kept without copying a row. An expand step: older code works
// beside it, reading only its own columns (its firedCount then lacks what newer instances counted). Append-
// only: once released, this text never changes. `s` is the already-quoted schema name; DDL only.

export const name = 'schedule-executions';

export function sql(s: string): string {
  // The advisory lock's text: the table's qualified name (postgres-executions.ts computes the same).
  const lockName = `'${`${s}.schedule_executions`.replace(/'/g, "''")}'`;
  return `
CREATE TABLE ${s}.schedule_executions (
  schedule_id       BIGINT PRIMARY KEY,
  executed_count    BIGINT NOT NULL,
  last_fired_at     BIGINT,
  last_succeeded_at BIGINT
) WITH (fillfactor = 70);

-- Adds executions to the schedules that still exist ($1 ids, distinct; $2 counts, $3 latest fired instants,
-- $4 latest success instants or NULL). Returns the number of counts rows written. The schedules that exist
-- are one primary-key probe per id (an init plan): with an EXISTS per row, the cached generic plan walked the
-- whole primary key in id order to spare the ORDER BY a sort (37 s per settlement at 1 M schedules).
CREATE FUNCTION ${s}.count_executions(ids BIGINT[], counts BIGINT[], fired BIGINT[], succeeded BIGINT[])
  RETURNS INTEGER LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  bucket  BIGINT;
  written INTEGER;
BEGIN
  FOREACH bucket IN ARRAY (SELECT coalesce(array_agg(DISTINCT b.b ORDER BY b.b), '{}')
                             FROM unnest(ids) AS i(id), LATERAL (SELECT i.id % 64 AS b) AS b) LOOP
    PERFORM pg_advisory_xact_lock_shared(hashtextextended(${lockName}, bucket));
  END LOOP;
  INSERT INTO ${s}.schedule_executions AS x (schedule_id, executed_count, last_fired_at, last_succeeded_at)
  SELECT u.id, u.n, u.fired_at, u.succeeded_at
    FROM unnest(ids, counts, fired, succeeded) AS u(id, n, fired_at, succeeded_at)
   WHERE u.id = ANY (ARRAY(SELECT sc.id FROM ${s}.schedules AS sc WHERE sc.id = ANY (ids)))
   ORDER BY u.id
  ON CONFLICT (schedule_id) DO UPDATE
     SET executed_count = x.executed_count + excluded.executed_count,
         last_fired_at = greatest(x.last_fired_at, excluded.last_fired_at),
         last_succeeded_at = greatest(x.last_succeeded_at, excluded.last_succeeded_at);
  GET DIAGNOSTICS written = ROW_COUNT;
  RETURN written;
END
$fn$;
`;
}
