// A run's occurrence id, which no store writes down: a spec occurrence's is "<scheduleId>:<scheduledFor>"
// (occurrenceIdOf, the text its occurrence key holds while it blocks a duplicate), a manual run's
// "<scheduleId>:manual:<runId>". Derived from the run's kind, schedule and nominal instant, none of which ever
// changes on a run, so the `occurrence_id` column keeps NULL (rows written before keep the same text, read
// past). The same rule as SQL for the statements that need it (reruns, checks). Pure: no I/O.

import { occurrenceIdOf } from '../../domain/run.js';

/** A run's occurrence id from its row's kind, schedule id, nominal instant and id. */
export function storedOccurrenceId(row: {
  kind: string;
  schedule_id: string | number;
  scheduled_for: string | number;
  id: string | number;
}): string {
  return row.kind === 'manual'
    ? `${row.schedule_id}:manual:${row.id}`
    : occurrenceIdOf(row.schedule_id, row.scheduled_for);
}

/**
 * SQL of a run's occurrence key text, NULL for a manual run: what a rerun on SQLite takes back as its
 * occurrence key. `alias` qualifies the columns (`r.`), or is ''.
 */
export function occurrenceKeySql(alias = ''): string {
  return `CASE WHEN ${alias}kind = 'manual' THEN NULL ELSE ${alias}schedule_id || ':' || ${alias}scheduled_for END`;
}
