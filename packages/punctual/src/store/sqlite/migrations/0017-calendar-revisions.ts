// Migration 0017: calendar revisions, one row per kept change of a calendar (who, when, which change, the
// field diff and the full content of the version). Keyed by (tenant, name) so a deleted calendar's history
// stays readable. Append-only: once released, this text never changes.

export const name = 'calendar-revisions';

export const sql = `
CREATE TABLE calendar_revisions (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT, -- orders a name's revisions
  tenant_id     TEXT    NOT NULL,
  name          TEXT    NOT NULL,                  -- no foreign key: revisions outlive a deleted calendar
  version       INTEGER NOT NULL,
  at            INTEGER NOT NULL,
  actor         TEXT,
  change        TEXT    NOT NULL,
  from_version  INTEGER,
  diff          TEXT    NOT NULL,                  -- JSON
  content       TEXT    NOT NULL                   -- JSON: the normalised calendar content
) STRICT;

CREATE INDEX calendar_revisions_name ON calendar_revisions (tenant_id, name, seq);
`;
