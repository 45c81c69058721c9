// Migration 6: schedule fields people expect. `summary` (the user's free text beside the generated
// description), `labels` (a JSON object of strings, found through a GIN index for the list's label filter),
// and the execution record: `executed_count` (runs settled succeeded or dead: the API's firedCount;
// `fired_count` stays the count of materialised occurrences that maxRuns limits), `last_fired_at`,
// `last_succeeded_at`. Existing schedules get them from the run history still kept.
// Append-only: once released, this text never changes. `s` is the already-quoted schema name; DDL only.

export const name = 'schedule-fields';

export function sql(s: string): string {
  return `
ALTER TABLE ${s}.schedules
  ADD COLUMN summary TEXT,
  ADD COLUMN labels JSONB NOT NULL DEFAULT '{}'::jsonb,
  ADD COLUMN executed_count BIGINT NOT NULL DEFAULT 0,
  ADD COLUMN last_fired_at BIGINT,
  ADD COLUMN last_succeeded_at BIGINT;
UPDATE ${s}.schedules AS sc
   SET executed_count = h.n, last_fired_at = h.fired, last_succeeded_at = h.succeeded
  FROM (SELECT schedule_id, count(*) AS n, max(started_at) AS fired,
               max(finished_at) FILTER (WHERE state = 'succeeded') AS succeeded
          FROM ${s}.runs WHERE state IN ('succeeded', 'dead') GROUP BY schedule_id) AS h
 WHERE h.schedule_id = sc.id;
CREATE INDEX schedules_labels ON ${s}.schedules USING GIN (labels jsonb_path_ops);
`;
}
