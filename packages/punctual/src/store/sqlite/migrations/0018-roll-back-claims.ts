// Migration 0018: the active schedules whose business-day rule rolls back (`roll: "previous"`), by next
// occurrence, so the materializer can claim them ahead of the others (their runs may be due before their
// nominal instants) from an index instead of a range of every schedule. An index only. Append-only: once
// released, this text never changes.

export const name = 'roll-back-claims';

export const sql = `
-- claimDueSchedules (the roll-back part) and nextRollingBackAt. The predicate is repeated word for word by
-- those statements: SQLite uses a partial index only for a WHERE that implies its own.
CREATE INDEX schedules_due_roll_back ON schedules (next_fire_at)
  WHERE state = 'active' AND json_extract(calendar_rules, '$.businessDays.roll') = 'previous';
`;
