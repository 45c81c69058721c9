// Migration 0005: schedule fields people expect. `summary` (the user's free text beside the generated
// description), `labels` (JSON object of strings), and the execution record: `executed_count` (runs settled
// succeeded or dead: the API's firedCount; `fired_count` stays the count of materialised occurrences that
// maxRuns limits), `last_fired_at`, `last_succeeded_at`. Existing schedules get them from the run history
// still kept. Append-only: once released, this text never changes.

export const name = 'schedule-fields';

export const sql = `
ALTER TABLE schedules ADD COLUMN summary TEXT;
ALTER TABLE schedules ADD COLUMN labels TEXT NOT NULL DEFAULT '{}';
ALTER TABLE schedules ADD COLUMN executed_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE schedules ADD COLUMN last_fired_at INTEGER;
ALTER TABLE schedules ADD COLUMN last_succeeded_at INTEGER;
UPDATE schedules SET
  executed_count = (SELECT count(*) FROM runs r
                     WHERE r.schedule_id = schedules.id AND r.state IN ('succeeded', 'dead')),
  last_fired_at = (SELECT max(r.started_at) FROM runs r
                    WHERE r.schedule_id = schedules.id AND r.state IN ('succeeded', 'dead')),
  last_succeeded_at = (SELECT max(r.finished_at) FROM runs r
                        WHERE r.schedule_id = schedules.id AND r.state = 'succeeded');
`;
