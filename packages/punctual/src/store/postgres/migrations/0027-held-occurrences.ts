// Migration 27: a run holds its occurrence by a flag instead of a text key. Exactly once per occurrence was a
// UNIQUE constraint on `occurrence_key` ('<scheduleId>:<scheduledFor>', about 20 bytes in every version of the
// row and a 70-byte index entry); the same two values are already columns of the row, so the flag
// `holds_occurrence` (TRUE while the run blocks a duplicate, NULL once it released it or for a manual run)
// and a unique partial index on (schedule_id, scheduled_for) WHERE holds_occurrence say the same with a
// 1-byte column and a 16-byte key. Every run holding a key gets the flag (one rewrite of those rows), then the
// index is built and the text column dropped (a catalog change). The two claim indexes lose their trailing
// id: the claim reads them in due order and takes any run of an instant (ties need no order), and without a
// unique tail the runs of one instant (all of a minute boundary's) share one key, which B-tree deduplication
// stores once with a list of row pointers. Both hold only scheduled runs, so they rebuild quickly. A contract
// step: older code inserts with ON CONFLICT (occurrence_key), which no longer exists. Append-only: once
// released, this text never changes. `s` is the already-quoted schema name; DDL only.

export const name = 'held-occurrences';

export function sql(s: string): string {
  return `
ALTER TABLE ${s}.runs ADD COLUMN holds_occurrence BOOLEAN;
UPDATE ${s}.runs SET holds_occurrence = true WHERE occurrence_key IS NOT NULL;
CREATE UNIQUE INDEX runs_occurrence ON ${s}.runs (schedule_id, scheduled_for) WHERE holds_occurrence;
ALTER TABLE ${s}.runs DROP CONSTRAINT runs_occurrence_key;
ALTER TABLE ${s}.runs DROP COLUMN occurrence_key;
DROP INDEX ${s}.runs_claim;
CREATE INDEX runs_claim ON ${s}.runs (priority DESC, due_at) WHERE state = 'scheduled';
DROP INDEX ${s}.runs_claim_tenant;
CREATE INDEX runs_claim_tenant ON ${s}.runs (tenant_id, priority DESC, due_at) WHERE state = 'scheduled';
`;
}
