// Migration 16: expectations and deadline checks. A schedule's `expect` (JSONB); on each run the instant it
// must have succeeded by (`expect_by`, NULL once judged or when its schedule expects nothing), indexed
// partially so the evaluator reads only due expectations (the index starts empty: every existing run has
// NULL); on checks the fields of a deadline check. Nullable columns only (expand): older code runs beside
// them. Append-only: once released, this text never changes. `s` is the already-quoted schema name; DDL only.

export const name = 'expectations';

export function sql(s: string): string {
  return `
ALTER TABLE ${s}.schedules ADD COLUMN expect JSONB;
ALTER TABLE ${s}.runs ADD COLUMN expect_by BIGINT;
CREATE INDEX runs_expect_due ON ${s}.runs (expect_by) WHERE expect_by IS NOT NULL;

ALTER TABLE ${s}.checks ADD COLUMN schedule_key TEXT COLLATE "C";
ALTER TABLE ${s}.checks ADD COLUMN spec TEXT;
ALTER TABLE ${s}.checks ADD COLUMN tz TEXT;
ALTER TABLE ${s}.checks ADD COLUMN within_ms BIGINT;
ALTER TABLE ${s}.checks ADD COLUMN window_start BIGINT;
`;
}
