// Migration 17: compact schedule revisions. A revision row no longer stores what can be derived: the content
// of the schedule's current version (NULL: read from the schedule row; written out when a put replaces that
// version or a delete removes the row) and a creation's diff (NULL: every field from nothing, recomputed from
// the content). The columns become nullable and the derivable parts of existing rows are cleared. A contract
// step: older code reads these columns as always set, and reads schedule policies written out in full, which
// this release keeps compact. Append-only: once released, this text never changes. `s` is the
// already-quoted schema name.

export const name = 'compact-revisions';

export function sql(s: string): string {
  return `
ALTER TABLE ${s}.schedule_revisions ALTER COLUMN diff DROP NOT NULL, ALTER COLUMN content DROP NOT NULL;

UPDATE ${s}.schedule_revisions SET diff = NULL WHERE change = 'created';

UPDATE ${s}.schedule_revisions AS r SET content = NULL
  FROM ${s}.schedules AS c
 WHERE r.change <> 'deleted' AND c.id = r.schedule_id AND c.version = r.version;
`;
}
