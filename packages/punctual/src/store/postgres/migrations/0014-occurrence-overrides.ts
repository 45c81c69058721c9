// Migration 14: per-occurrence overrides (skip, move, payload of one occurrence, by its nominal instant) and
// the timed pause (`paused_until`: a paused schedule resumes by itself then). A new table and a nullable
// column only (expand): older code runs beside them (it neither applies overrides nor resumes timed pauses
// while it runs). Append-only: once released, this text never changes. `s` is the already-quoted schema
// name; DDL only.

export const name = 'occurrence-overrides';

export function sql(s: string): string {
  return `
CREATE TABLE ${s}.occurrence_overrides (
  schedule_id BIGINT  NOT NULL REFERENCES ${s}.schedules (id) ON DELETE CASCADE,
  instant     BIGINT  NOT NULL, -- the occurrence's scheduledFor
  tenant_id   TEXT    COLLATE "C" NOT NULL,
  kind        TEXT    NOT NULL, -- skip | move | payload
  move_to     BIGINT,
  payload     JSONB,
  note        TEXT,
  created_at  BIGINT  NOT NULL,
  PRIMARY KEY (schedule_id, instant)
);

-- The materializer's read of a batch's moved occurrences that fall due early.
CREATE INDEX occurrence_overrides_move ON ${s}.occurrence_overrides (schedule_id, move_to)
  WHERE move_to IS NOT NULL;

ALTER TABLE ${s}.schedules ADD COLUMN paused_until BIGINT;

-- dueTimedPauses and nextTimedResumeAt.
CREATE INDEX schedules_paused_until ON ${s}.schedules (paused_until)
  WHERE state = 'paused' AND paused_until IS NOT NULL;
`;
}
