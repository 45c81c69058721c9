// Migration 26: the materializer's queue of active schedules moves out of the wide `schedules` row into a
// narrow table of its own, `schedule_due` (schedule id, next occurrence, claim, whether it rolls back), with
// the two indexes the claim reads. At ten million schedules every advance wrote a new version of the wide row
// (~240 bytes) with an entry in each of its three big indexes (next_fire_at was indexed, so no advance was a
// HOT update), and the autovacuum of `schedules` read ~3.8 GB every ~12 minutes while runs fell seconds late.
// Now the wide row's advance changes no indexed column (a HOT update, no index entry) and the queue's row is
// ~60 bytes with two small indexes.
//
// The wide row stays the truth (next_fire_at, state, fired_count, version; what every read returns); the
// queue is kept in step with it by statement-level triggers, set-based over their transition tables, so no
// writer can forget it: a schedule is in the queue exactly while it is active with a next occurrence, and any
// change of its state, next occurrence, version or calendar rules puts it back with its claim cleared (what
// every such writer did to `claimed_until` before). Claims now lock and lease queue rows only.
//
// A contract step: older code claims by the dropped indexes (a scan of the whole table per claim) and leases
// by the dropped column; stop every instance. Append-only: once released, this text never changes. `s` is the
// already-quoted schema name; DDL only.

export const name = 'schedule-due';

/** Whether row `r`'s business-day rule rolls back (`roll: "previous"`): claimed ahead of its instants. */
const rollsBack = (r: string): string =>
  `coalesce((${r}.calendar_rules -> 'businessDays' ->> 'roll') = 'previous', false)`;

export function sql(s: string): string {
  return `
CREATE TABLE ${s}.schedule_due (
  schedule_id   BIGINT  PRIMARY KEY,            -- schedules.id; no foreign key: its check would lock the row
  next_fire_at  BIGINT  NOT NULL,
  claimed_until BIGINT,                         -- a materializer's lease on the schedule while it advances it
  rolls_back    BOOLEAN NOT NULL
);
-- Filled before its indexes are built (one sort each instead of an insert per row).
INSERT INTO ${s}.schedule_due (schedule_id, next_fire_at, claimed_until, rolls_back)
SELECT sc.id, sc.next_fire_at, sc.claimed_until, ${rollsBack('sc')}
  FROM ${s}.schedules AS sc WHERE state = 'active' AND next_fire_at IS NOT NULL;

-- claimDueSchedules, nextScheduleAt, takeOverdueSchedules: the queue by next occurrence.
CREATE INDEX schedule_due_next ON ${s}.schedule_due (next_fire_at, schedule_id);
-- claimDueSchedules (the roll-back part) and nextRollingBackAt.
CREATE INDEX schedule_due_roll_back ON ${s}.schedule_due (next_fire_at, schedule_id) WHERE rolls_back;

CREATE FUNCTION ${s}.schedule_due_inserted() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  INSERT INTO ${s}.schedule_due (schedule_id, next_fire_at, rolls_back)
  SELECT n.id, n.next_fire_at, ${rollsBack('n')} FROM new_rows AS n
   WHERE n.state = 'active' AND n.next_fire_at IS NOT NULL;
  RETURN NULL;
END
$fn$;

CREATE FUNCTION ${s}.schedule_due_updated() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM ${s}.schedule_due
   WHERE schedule_id = ANY (ARRAY(SELECT id FROM new_rows WHERE state <> 'active' OR next_fire_at IS NULL));
  INSERT INTO ${s}.schedule_due AS d (schedule_id, next_fire_at, rolls_back)
  SELECT a.id, a.next_fire_at, ${rollsBack('a')}
    FROM new_rows AS a JOIN old_rows AS b ON b.id = a.id
   WHERE a.state = 'active' AND a.next_fire_at IS NOT NULL
     AND (a.state, a.next_fire_at, a.version, a.calendar_rules)
         IS DISTINCT FROM (b.state, b.next_fire_at, b.version, b.calendar_rules)
  ON CONFLICT (schedule_id) DO UPDATE
     SET next_fire_at = excluded.next_fire_at, rolls_back = excluded.rolls_back, claimed_until = NULL;
  RETURN NULL;
END
$fn$;

CREATE FUNCTION ${s}.schedule_due_deleted() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  DELETE FROM ${s}.schedule_due WHERE schedule_id = ANY (ARRAY(SELECT id FROM old_rows));
  RETURN NULL;
END
$fn$;

CREATE TRIGGER schedule_due_inserted AFTER INSERT ON ${s}.schedules
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.schedule_due_inserted();
CREATE TRIGGER schedule_due_updated AFTER UPDATE ON ${s}.schedules
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ${s}.schedule_due_updated();
CREATE TRIGGER schedule_due_deleted AFTER DELETE ON ${s}.schedules
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${s}.schedule_due_deleted();

DROP INDEX ${s}.schedules_due;
DROP INDEX ${s}.schedules_due_roll_back;
ALTER TABLE ${s}.schedules DROP COLUMN claimed_until;
`;
}
