// Migration 0020: fewer pages written per settled run. Three writes of every run landed on pages scattered
// by schedule or cost a row of their own:
// - `runs_schedule_state (schedule_id, state)` held every run, history included, and its entry moved at the
//   claim and at the settlement. It now holds pending runs only (scheduled or running: the statements that
//   read it name one of the two, which implies the OR predicate), so it stays as small as the queue; the one
//   history statement that read it (a calendar change dropping its future skips) reads runs_tenant_key_time.
// - The settlement rewrote the schedule's row for its executed counts. They move to schedule_executions, a
//   narrow table keyed by schedule id (about 160 schedules a page where the schedule row fits about 25), a row
//   per schedule that triggers make and delete with it. Existing counts are copied, then the columns dropped
//   (the schedules table is rewritten once).
// - A success's attempt was an attempts row. It is kept on its run row when it says nothing else (worker, start
//   and end: two new columns, attempt_started_at takes the start), as PostgreSQL's migration 5 does; reads
//   add it after the attempts rows.
// Append-only: once released, this text never changes.

export const name = 'settlement-pages';

export const sql = `
DROP INDEX runs_schedule_state;
-- Overlap checks, cancelling or skipping a schedule's pending runs, pendingDueAt. OR, not IN: a statement's
-- "state = 'scheduled'" implies an OR term of the predicate, never an IN list.
CREATE INDEX runs_schedule_state ON runs (schedule_id, state) WHERE state = 'scheduled' OR state = 'running';

-- firedCount, lastFiredAt, lastSucceededAt of a schedule: a row per schedule, made and deleted with it, so a
-- settlement updates it in place (never a page split of a scattered insert, never a read of the schedule).
CREATE TABLE schedule_executions (
  schedule_id       INTEGER PRIMARY KEY,           -- schedules.id (never reused)
  executed_count    INTEGER NOT NULL,
  last_fired_at     INTEGER,
  last_succeeded_at INTEGER
) STRICT;

INSERT INTO schedule_executions (schedule_id, executed_count, last_fired_at, last_succeeded_at)
  SELECT id, executed_count, last_fired_at, last_succeeded_at FROM schedules ORDER BY id;

CREATE TRIGGER schedules_executions_insert AFTER INSERT ON schedules BEGIN
  INSERT INTO schedule_executions (schedule_id, executed_count) VALUES (NEW.id, 0);
END;

CREATE TRIGGER schedules_executions_delete AFTER DELETE ON schedules BEGIN
  DELETE FROM schedule_executions WHERE schedule_id = OLD.id;
END;

ALTER TABLE schedules DROP COLUMN executed_count;
ALTER TABLE schedules DROP COLUMN last_fired_at;
ALTER TABLE schedules DROP COLUMN last_succeeded_at;

-- A successful attempt that says nothing the run row does not is kept on the row (its worker, start and end)
-- instead of an attempts row. NULL: not succeeded, succeeded before this migration, or its attempt is a row.
ALTER TABLE runs ADD COLUMN succeeded_by TEXT;
ALTER TABLE runs ADD COLUMN attempt_finished_at INTEGER;
`;
