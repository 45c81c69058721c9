// Migration 0019: storage diet, an index no statement needs. `schedules_state (state)` went: `stats` and the
// quota read schedule_counts (migration 0016), the due-schedule statements name schedules_due, and listing a
// tenant's schedules by state reads its key range; for the states that stay rare (paused, completed)
// `schedules_not_active (tenant_id, state, key) WHERE state <> 'active'` keeps that list a range in key
// order (the list names the index and repeats its predicate), and holds nothing while every schedule is
// active. Append-only: once released, this text never changes.

export const name = 'storage-diet';

export const sql = `
DROP INDEX schedules_state;
-- listSchedules by a state other than active; the list repeats the predicate.
CREATE INDEX schedules_not_active ON schedules (tenant_id, state, key) WHERE state <> 'active';
`;
