// Migration 21: storage diet, indexes no statement needs. `runs_due (due_at) WHERE state = 'scheduled'` went:
// the earliest due instant, the not-fired scan and the due count of `stats` walk the priority levels of
// runs_claim instead, one range per level (the walk the claim already does), so every pending run saves an
// index entry. `schedules_state (state)` went: `stats` and the quota read schedule_counts (migration 17), and
// listing a tenant's schedules by state reads its key range; for the states that stay rare (paused,
// completed) `schedules_not_active (tenant_id, state, key) WHERE state <> 'active'` keeps that list a range
// in key order (the list repeats the predicate), and holds nothing while every schedule is active. An index
// change only (expand): older code still answers every read beside it, its earliest-due, not-fired and stats
// reads walking runs_claim whole while the roll lasts. Append-only: once released, this text never changes. `s` is the
// already-quoted schema name; DDL only.

export const name = 'storage-diet';

export function sql(s: string): string {
  return `
DROP INDEX ${s}.runs_due;
DROP INDEX ${s}.schedules_state;
-- listSchedules by a state other than active; the list repeats the predicate.
CREATE INDEX schedules_not_active ON ${s}.schedules (tenant_id, state, key) WHERE state <> 'active';
`;
}
