// Migration 5: a successful attempt is kept on its run row instead of as an attempts row. The settlement of
// a success writes the worker and the delivery start on the run (the run already holds the attempt number,
// result and finish), and reads of a run's attempts add that attempt after the rows of the earlier ones.
// One row insert (and its two index entries and foreign-key check) less per successful run: most runs.
// Append-only: once released, this text never changes. `s` is the already-quoted schema name; DDL only.

export const name = 'succeeded-attempt';

export function sql(s: string): string {
  return `
-- The worker of the run's successful attempt; NULL for runs that did not succeed, and for runs that
-- succeeded before this migration (their attempt is an attempts row).
ALTER TABLE ${s}.runs ADD COLUMN succeeded_by TEXT;
`;
}
