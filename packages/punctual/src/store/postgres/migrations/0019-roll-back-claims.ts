// Migration 19: the active schedules whose business-day rule rolls back (`roll: "previous"`), by next
// occurrence, so the materializer can claim them ahead of the others (their runs may be due before their
// nominal instants) from an index instead of a range of every schedule. An index only (expand): older code
// works beside it (it claims those schedules at their nominal instants, as before). Append-only: once
// released, this text never changes. `s` is the already-quoted schema name; DDL only. The name matches
// SQLite's.

export const name = 'roll-back-claims';

export function sql(s: string): string {
  return `
-- claimDueSchedules (the roll-back part) and nextRollingBackAt; their predicate repeats this one.
CREATE INDEX schedules_due_roll_back ON ${s}.schedules (next_fire_at, id)
  WHERE state = 'active' AND (calendar_rules -> 'businessDays' ->> 'roll') = 'previous';
`;
}
