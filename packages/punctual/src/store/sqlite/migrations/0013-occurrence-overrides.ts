// Migration 0013: per-occurrence overrides (skip, move, payload of one occurrence, by its nominal instant)
// and the timed pause (`paused_until`: a paused schedule resumes by itself then). Append-only: once released,
// this text never changes.

export const name = 'occurrence-overrides';

export const sql = `
CREATE TABLE occurrence_overrides (
  schedule_id  INTEGER NOT NULL REFERENCES schedules (id) ON DELETE CASCADE,
  instant      INTEGER NOT NULL,                  -- the occurrence's scheduledFor
  tenant_id    TEXT    NOT NULL,
  kind         TEXT    NOT NULL,                  -- skip | move | payload
  move_to      INTEGER,
  payload      TEXT,                              -- JSON
  note         TEXT,
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (schedule_id, instant)
) STRICT;

-- The materializer's read of a batch's moved occurrences that fall due early.
CREATE INDEX occurrence_overrides_move ON occurrence_overrides (schedule_id, move_to) WHERE move_to IS NOT NULL;

ALTER TABLE schedules ADD COLUMN paused_until INTEGER;

-- dueTimedPauses and nextTimedResumeAt.
CREATE INDEX schedules_paused_until ON schedules (paused_until) WHERE state = 'paused' AND paused_until IS NOT NULL;
`;
