// Migration 0016: compact storage and counted schedules. A revision row no longer stores what can be derived: the
// content of the schedule's current version (NULL: read from the schedule row; written out when a put
// replaces that version or a delete removes the row) and a creation's diff (NULL: every field from nothing,
// recomputed from the content). SQLite cannot drop NOT NULL in place, so the table is rebuilt (rows, sequence
// and index kept), then the derivable parts of existing rows are cleared. Schedules are counted by tenant and
// state in schedule_counts, kept by triggers on every insert, delete and change of state, so the stats and
// the quota read a few rows instead of counting the schedules. Append-only: once released, this text never
// changes.

export const name = 'compact-storage';

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

-- Schedules by tenant and state: what stats() and countSchedules() read (never a count of schedules).
CREATE TABLE schedule_counts (
  tenant_id  TEXT    NOT NULL,
  state      TEXT    NOT NULL,
  n          INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, state)
) STRICT, WITHOUT ROWID;

INSERT INTO schedule_counts (tenant_id, state, n)
  SELECT tenant_id, state, COUNT(*) FROM schedules GROUP BY tenant_id, state;

CREATE TRIGGER schedules_count_insert AFTER INSERT ON schedules BEGIN
  INSERT INTO schedule_counts (tenant_id, state, n) VALUES (NEW.tenant_id, NEW.state, 1)
    ON CONFLICT (tenant_id, state) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER schedules_count_delete AFTER DELETE ON schedules BEGIN
  UPDATE schedule_counts SET n = n - 1 WHERE tenant_id = OLD.tenant_id AND state = OLD.state;
END;

CREATE TRIGGER schedules_count_state AFTER UPDATE OF tenant_id, state ON schedules
  WHEN OLD.state IS NOT NEW.state OR OLD.tenant_id IS NOT NEW.tenant_id BEGIN
  UPDATE schedule_counts SET n = n - 1 WHERE tenant_id = OLD.tenant_id AND state = OLD.state;
  INSERT INTO schedule_counts (tenant_id, state, n) VALUES (NEW.tenant_id, NEW.state, 1)
    ON CONFLICT (tenant_id, state) DO UPDATE SET n = n + 1;
END;
`;
