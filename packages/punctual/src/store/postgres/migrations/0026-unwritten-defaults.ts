// Migration 26: a schedule row leaves out what equals its default. `jitter_ms` 0, the compact `policies` and
// the `labels` when empty (`{}`) and the zone when UTC are written as NULL, as are three columns whose value
// lives elsewhere: the `description` (derived on every read since it stopped being kept), `overlap` (read from
// the policies; no statement reads the column) and `executed_count` (counted in schedule_executions since
// migration 22); `updated_at` stays NULL until the first change (the creation instant stands for it). A NULL
// costs a bit of the row's null bitmap instead of 1 to 8 bytes each, in every version the materializer's
// advances write (measured: the schedules heap from 222 to 168 bytes a schedule, bench/storage-size.ts).
// Each column loses NOT NULL and any default (a catalog change: no rewrite, no scan); rows already there keep
// their values, which read the same. A contract step: older code reads NULL labels as no object and a NULL
// zone as no zone. Append-only: once released, this text never changes. `s` is the already-quoted schema
// name; DDL only.

export const name = 'unwritten-defaults';

export function sql(s: string): string {
  return `
ALTER TABLE ${s}.schedules
  ALTER COLUMN jitter_ms DROP NOT NULL, ALTER COLUMN jitter_ms DROP DEFAULT,
  ALTER COLUMN policies DROP NOT NULL,
  ALTER COLUMN labels DROP NOT NULL, ALTER COLUMN labels DROP DEFAULT,
  ALTER COLUMN description DROP NOT NULL, ALTER COLUMN description DROP DEFAULT,
  ALTER COLUMN executed_count DROP NOT NULL, ALTER COLUMN executed_count DROP DEFAULT,
  ALTER COLUMN tz DROP NOT NULL,
  ALTER COLUMN overlap DROP NOT NULL,
  ALTER COLUMN updated_at DROP NOT NULL;
`;
}
