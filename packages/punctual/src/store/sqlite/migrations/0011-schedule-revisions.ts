// Migration 0011: schedule revisions, one row per kept change of a schedule (who, when, which change, the
// field diff and the full content of the version). Keyed by (tenant, key) so a deleted schedule's history
// stays readable. Append-only: once released, this text never changes.

export const name = 'schedule-revisions';

export const sql = `
CREATE TABLE schedule_revisions (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT, -- orders a key's revisions
  tenant_id     TEXT    NOT NULL,
  key           TEXT    NOT NULL,
  schedule_id   INTEGER NOT NULL,                  -- no foreign key: revisions outlive a deleted schedule
  version       INTEGER NOT NULL,
  at            INTEGER NOT NULL,
  actor         TEXT,
  change        TEXT    NOT NULL,
  from_version  INTEGER,
  state         TEXT    NOT NULL,
  diff          TEXT    NOT NULL,                  -- JSON
  content       TEXT    NOT NULL                   -- JSON: the normalised schedule content
) STRICT;

CREATE INDEX schedule_revisions_key ON schedule_revisions (tenant_id, key, seq);
`;
