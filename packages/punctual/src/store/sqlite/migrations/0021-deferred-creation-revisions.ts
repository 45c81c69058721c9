// Migration 0021: a schedule never changed since its creation keeps its `created` revision in its own row
// instead of a schedule_revisions row and its index entry (93 of the 278 bytes a schedule took): the
// sequence number reserved for it (`created_seq`, NULL once written out) and who created it (`created_by`).
// The store writes the revision out as a row before any other change of the schedule, and reads answer it
// as if it were one (store/stored-revision.ts). Rows already there keep their revisions. Append-only: once
// released, this text never changes.

export const name = 'deferred-creation-revisions';

export const sql = `
ALTER TABLE schedules ADD COLUMN created_seq INTEGER;
ALTER TABLE schedules ADD COLUMN created_by TEXT;
`;
