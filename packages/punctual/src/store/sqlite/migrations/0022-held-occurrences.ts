// Migration 0022: a pending run on SQLite keeps only the index entries its reads need (PostgreSQL's
// migrations 24 and 27 for the same reasons).
// - A run holds its occurrence by a flag. Exactly once per occurrence was `occurrence_key TEXT UNIQUE`
//   ('<scheduleId>:<scheduledFor>', about 20 bytes of every row and a 29-byte entry of its automatic index);
//   both values are columns of the row already, so `holds_occurrence` (1 while the run blocks a duplicate,
//   NULL once it released it or for a manual run) and a unique partial index on (schedule_id, scheduled_for)
//   say the same with a 1-byte column and an entry only for the runs that hold one.
// - `runs_tenant_time` and `runs_tenant_key_time` hold finished runs only (`state NOT IN ('scheduled',
//   'running')`, the predicate repeated word for word by each statement that reads them, so SQLite matches
//   it): a page of runs adds the running ones from `runs_lease` and the scheduled ones from
//   `runs_claim_tenant`. The materializer's insert and the claim then touch neither.
// SQLite drops no UNIQUE column in place, so `runs` is rebuilt: a new table, every row copied with the flag
// set where a key was, `attempts` copied beside it (its REFERENCES would otherwise cascade the old table's drop
// into its rows), the old two dropped, the new two renamed (the rename carries the reference), the indexes
// made again, and the id sequence kept where it was (ids of pruned runs are never reused). One transaction,
// like every migration: a crash leaves the database at 0021. Append-only: once released, this text never
// changes.

export const name = 'held-occurrences';

export const sql = `
CREATE TABLE runs_new (
  id                  INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant_id           TEXT    NOT NULL,
  schedule_id         INTEGER NOT NULL,            -- no foreign key: history outlives its schedule
  schedule_key        TEXT    NOT NULL,
  schedule_version    INTEGER NOT NULL,
  holds_occurrence    INTEGER,                     -- 1 while it blocks a duplicate of its occurrence, else NULL
  occurrence_id       TEXT,                        -- rows written before 0019; NULL since (derived)
  kind                TEXT    NOT NULL CHECK (kind IN ('scheduled', 'manual', 'backfill')),
  state               TEXT    NOT NULL CHECK (state IN
                        ('scheduled', 'running', 'succeeded', 'dead', 'skipped', 'expired', 'cancelled')),
  scheduled_for       INTEGER NOT NULL,
  due_at              INTEGER NOT NULL,
  expires_at          INTEGER,
  priority            INTEGER NOT NULL,
  attempt             INTEGER NOT NULL,
  max_attempts        INTEGER NOT NULL,
  checks              INTEGER NOT NULL,
  overlap             TEXT    NOT NULL,
  payload             TEXT,                        -- JSON
  reason              TEXT,
  error               TEXT,                        -- JSON
  result              TEXT,                        -- JSON
  details             TEXT,                        -- JSON
  lease_owner         TEXT,
  lease_token         TEXT,
  lease_expires_at    INTEGER,
  attempt_started_at  INTEGER,
  not_fired_reported  INTEGER NOT NULL,
  created_at          INTEGER NOT NULL,
  started_at          INTEGER,
  finished_at         INTEGER,                     -- set exactly when the state is final
  expect_by           INTEGER,
  succeeded_by        TEXT,
  attempt_finished_at INTEGER
) STRICT;

INSERT INTO runs_new (id, tenant_id, schedule_id, schedule_key, schedule_version, holds_occurrence,
    occurrence_id, kind, state, scheduled_for, due_at, expires_at, priority, attempt, max_attempts, checks,
    overlap, payload, reason, error, result, details, lease_owner, lease_token, lease_expires_at,
    attempt_started_at, not_fired_reported, created_at, started_at, finished_at, expect_by, succeeded_by,
    attempt_finished_at)
  SELECT id, tenant_id, schedule_id, schedule_key, schedule_version,
    CASE WHEN occurrence_key IS NOT NULL THEN 1 END,
    occurrence_id, kind, state, scheduled_for, due_at, expires_at, priority, attempt, max_attempts, checks,
    overlap, payload, reason, error, result, details, lease_owner, lease_token, lease_expires_at,
    attempt_started_at, not_fired_reported, created_at, started_at, finished_at, expect_by, succeeded_by,
    attempt_finished_at
  FROM runs ORDER BY id;

-- The copy set the new sequence to the highest id copied; the old one may be higher (its newest runs pruned).
INSERT INTO sqlite_sequence (name, seq)
  SELECT 'runs_new', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'runs_new');
UPDATE sqlite_sequence SET seq = MAX(seq, COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'runs'), 0))
  WHERE name = 'runs_new';

CREATE TABLE attempts_new (
  id          INTEGER PRIMARY KEY,
  tenant_id   TEXT    NOT NULL,
  run_id      INTEGER NOT NULL REFERENCES runs_new (id) ON DELETE CASCADE,
  attempt     INTEGER NOT NULL,
  worker_id   TEXT    NOT NULL,
  started_at  INTEGER NOT NULL,
  finished_at INTEGER NOT NULL,
  outcome     TEXT    NOT NULL,
  error       TEXT,                                -- JSON
  result      TEXT                                 -- JSON
) STRICT;

INSERT INTO attempts_new (id, tenant_id, run_id, attempt, worker_id, started_at, finished_at, outcome, error,
    result)
  SELECT id, tenant_id, run_id, attempt, worker_id, started_at, finished_at, outcome, error, result
  FROM attempts ORDER BY id;

DROP TABLE attempts;
DROP TABLE runs;
ALTER TABLE runs_new RENAME TO runs;
ALTER TABLE attempts_new RENAME TO attempts;

CREATE INDEX attempts_run ON attempts (run_id, started_at);

-- insertRuns: exactly once per occurrence (ON CONFLICT … WHERE holds_occurrence DO NOTHING); an override's
-- and a rerun's "which run holds this occurrence".
CREATE UNIQUE INDEX runs_occurrence ON runs (schedule_id, scheduled_for) WHERE holds_occurrence;
-- claimRuns: one range per priority level, in claim order (rowid breaks ties).
CREATE INDEX runs_claim ON runs (priority DESC, due_at) WHERE state = 'scheduled';
-- The fair claim's tenants and their due ranges; a page of runs' scheduled part. Without the id of 0004: the
-- rowid ends every entry of an index already, and in the same order.
CREATE INDEX runs_claim_tenant ON runs (tenant_id, priority, due_at) WHERE state = 'scheduled';
-- reclaimExpiredLeases; a page of runs' running part.
CREATE INDEX runs_lease ON runs (lease_expires_at) WHERE state = 'running';
-- Overlap checks, cancelling or skipping a schedule's pending runs, pendingDueAt (OR: see 0020).
CREATE INDEX runs_schedule_state ON runs (schedule_id, state) WHERE state = 'scheduled' OR state = 'running';
-- listRuns' finished part, newest first, with and without a schedule key; a deadline's window; an override's
-- latest record of its occurrence; a calendar change dropping its future skips.
CREATE INDEX runs_tenant_time ON runs (tenant_id, scheduled_for) WHERE state NOT IN ('scheduled', 'running');
CREATE INDEX runs_tenant_key_time ON runs (tenant_id, schedule_key, scheduled_for)
  WHERE state NOT IN ('scheduled', 'running');
-- pruneHistory: by age, and the newest final runs per schedule.
CREATE INDEX runs_finished ON runs (finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX runs_schedule_finished ON runs (schedule_id, finished_at) WHERE finished_at IS NOT NULL;
-- countRunsStartedSince.
CREATE INDEX runs_tenant_started ON runs (tenant_id, started_at) WHERE started_at IS NOT NULL;
-- Expectations due.
CREATE INDEX runs_expect_due ON runs (expect_by) WHERE expect_by IS NOT NULL;
`;
