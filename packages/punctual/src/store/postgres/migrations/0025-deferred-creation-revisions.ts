// Migration 25: a schedule never changed since its creation keeps its `created` revision in its own row
// instead of a schedule_revisions row and its two index entries (227 of the 571 bytes a schedule took): the
// number of the revisions' sequence reserved for it (`created_seq`, NULL once written out) and who created
// it (`created_by`). The store writes the revision out as a row, under that number, before any other change
// of the schedule, and reads answer it as if it were one (store/stored-revision.ts). Rows already there keep
// their revisions. Two nullable columns: no table rewrite. A contract step: older code would change such a
// schedule without writing its creation out, and the revision would be lost; and the release that brings it
// no longer writes `runs.occurrence_id` (derived from kind, schedule and instant: store/common/
// occurrence-id.ts), which older code would read as a manual run's id. Append-only: once released,
// this text never changes. `s` is the already-quoted schema name; DDL only.

export const name = 'deferred-creation-revisions';

export function sql(s: string): string {
  return `
ALTER TABLE ${s}.schedules ADD COLUMN created_seq BIGINT, ADD COLUMN created_by TEXT;
`;
}
