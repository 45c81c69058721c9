// Migration 0016: compact schedule revisions. A revision row no longer stores what can be derived: the
// content of the schedule's current version (NULL: read from the schedule row; written out when a put
// replaces that version or a delete removes the row) and a creation's diff (NULL: every field from nothing,
// recomputed from the content). SQLite cannot drop NOT NULL in place, so the table is rebuilt (rows, sequence
// and index kept), then the derivable parts of existing rows are cleared. Append-only: once released, this
// text never changes.

export const name = 'compact-revisions';

export const sql = `
CREATE TABLE schedule_revisions_compact (
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
  diff          TEXT,                              -- JSON; NULL: the creation diff of the content
  content       TEXT                               -- JSON; NULL: the schedule row's (it is at this version)
) STRICT;

INSERT INTO schedule_revisions_compact
  SELECT r.seq, r.tenant_id, r.key, r.schedule_id, r.version, r.at, r.actor, r.change, r.from_version, r.state,
         CASE WHEN r.change = 'created' THEN NULL ELSE r.diff END,
         CASE WHEN r.change <> 'deleted' AND EXISTS (
                SELECT 1 FROM schedules s WHERE s.id = r.schedule_id AND s.version = r.version)
              THEN NULL ELSE r.content END
    FROM schedule_revisions r ORDER BY r.seq;

-- The copy set the new table's sequence to its largest seq; keep the old one's if it went further.
UPDATE sqlite_sequence SET seq = MAX(seq, COALESCE(
    (SELECT o.seq FROM sqlite_sequence o WHERE o.name = 'schedule_revisions'), 0))
  WHERE name = 'schedule_revisions_compact';

DROP TABLE schedule_revisions;
ALTER TABLE schedule_revisions_compact RENAME TO schedule_revisions;

CREATE INDEX schedule_revisions_key ON schedule_revisions (tenant_id, key, seq);
`;
