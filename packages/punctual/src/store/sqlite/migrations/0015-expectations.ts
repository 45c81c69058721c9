// Migration 0015: expectations and deadline checks. A schedule's `expect` (JSON); on each run the instant it
// must have succeeded by (`expect_by`, NULL once judged or when its schedule expects nothing), indexed
// partially so the evaluator reads only due expectations; on checks the fields of a deadline check (the
// schedule it watches, its spec, zone and window length, and the start of the window being watched).
// Append-only: once released, this text never changes.

export const name = 'expectations';

export const sql = `
ALTER TABLE schedules ADD COLUMN expect TEXT;          -- JSON { successWithinMs }; NULL: none
ALTER TABLE runs ADD COLUMN expect_by INTEGER;         -- NULL: nothing expected (or already judged)
CREATE INDEX runs_expect_due ON runs (expect_by) WHERE expect_by IS NOT NULL;

ALTER TABLE checks ADD COLUMN schedule_key TEXT;       -- deadline checks only
ALTER TABLE checks ADD COLUMN spec TEXT;
ALTER TABLE checks ADD COLUMN tz TEXT;
ALTER TABLE checks ADD COLUMN within_ms INTEGER;
ALTER TABLE checks ADD COLUMN window_start INTEGER;    -- the window its next_check_at closes
`;
