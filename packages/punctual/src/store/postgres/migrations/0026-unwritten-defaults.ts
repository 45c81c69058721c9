// Migration 26: a schedule row leaves out what equals its default. `jitter_ms` 0, the compact `policies` and
// the `labels` when empty (`{}`), the `description` (derived on every read since it stopped being kept) and
// `executed_count` (counted in schedule_executions since migration 22) are written as NULL, which costs a
// bit of the row's null bitmap instead of 1 to 8 bytes each, in every version the materializer's advances
// write (measured: the schedules heap from 222 to 184 bytes a schedule, bench/storage-size.ts). Each column
// loses NOT NULL and its default (a catalog change: no rewrite, no scan); rows already there keep their
// values, which read the same. A contract step: older code reads NULL labels as no object. Append-only: once
// released, this text never changes. `s` is the already-quoted schema name; DDL only.

export const name = 'unwritten-defaults';

export function sql(s: string): string {
  return `
ALTER TABLE ${s}.schedules
  ALTER COLUMN jitter_ms DROP NOT NULL, ALTER COLUMN jitter_ms DROP DEFAULT,
  ALTER COLUMN policies DROP NOT NULL,
  ALTER COLUMN labels DROP NOT NULL, ALTER COLUMN labels DROP DEFAULT,
  ALTER COLUMN description DROP NOT NULL, ALTER COLUMN description DROP DEFAULT,
  ALTER COLUMN executed_count DROP NOT NULL, ALTER COLUMN executed_count DROP DEFAULT;
`;
}
