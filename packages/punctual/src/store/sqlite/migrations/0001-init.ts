// Migration 0001: the initial SQLite schema (schedules, runs, attempts). Append-only: once released, this
// text never changes; a later change is a new numbered file. Every table carries tenant_id; every instant is
// INTEGER epoch milliseconds; JSON columns are TEXT. Never put a value here: this is DDL only.

export const name = 'init';

export const sql = `
CREATE TABLE schedules (
  id            INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: occurrence keys embed it
  tenant_id     TEXT    NOT NULL,
  key           TEXT    NOT NULL,
  spec          TEXT    NOT NULL,
  spec_kind     TEXT    NOT NULL,
  tz            TEXT    NOT NULL,
  target_kind   TEXT    NOT NULL,
  target        TEXT    NOT NULL,                  -- JSON
  payload       TEXT,                              -- JSON; NULL for none
  policies      TEXT    NOT NULL,                  -- JSON
  overlap       TEXT    NOT NULL,                  -- policies.overlap, denormalised for SQL
  start_at      INTEGER,
  end_at        INTEGER,
  max_runs      INTEGER,
  jitter_ms     INTEGER NOT NULL,
  description   TEXT    NOT NULL,
  state         TEXT    NOT NULL CHECK (state IN ('active', 'paused', 'completed')),
  version       INTEGER NOT NULL,
  next_fire_at  INTEGER,
  fired_count   INTEGER NOT NULL,
  paused_at     INTEGER,
  note          TEXT,
  claimed_until INTEGER,                           -- materializer claim (spreads work; CAS decides)
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  UNIQUE (tenant_id, key)
) STRICT;

-- claimDueSchedules and nextScheduleAt: active schedules by next occurrence.
CREATE INDEX schedules_due ON schedules (next_fire_at) WHERE state = 'active';

CREATE TABLE runs (
  id                 INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant_id          TEXT    NOT NULL,
  schedule_id        INTEGER NOT NULL,             -- no foreign key: history outlives its schedule
  schedule_key       TEXT    NOT NULL,
  schedule_version   INTEGER NOT NULL,
  occurrence_key     TEXT UNIQUE,                  -- '<scheduleId>:<scheduledFor>' while it blocks a duplicate
  occurrence_id      TEXT,                         -- the same text, kept for good; NULL for manual runs
  kind               TEXT    NOT NULL CHECK (kind IN ('scheduled', 'manual', 'backfill')),
  state              TEXT    NOT NULL CHECK (state IN
                       ('scheduled', 'running', 'succeeded', 'dead', 'skipped', 'expired', 'cancelled')),
  scheduled_for      INTEGER NOT NULL,
  due_at             INTEGER NOT NULL,
  expires_at         INTEGER,
  priority           INTEGER NOT NULL,
  attempt            INTEGER NOT NULL,
  max_attempts       INTEGER NOT NULL,
  checks             INTEGER NOT NULL,
  overlap            TEXT    NOT NULL,
  payload            TEXT,                         -- JSON
  reason             TEXT,
  error              TEXT,                         -- JSON
  result             TEXT,                         -- JSON
  details            TEXT,                         -- JSON
  lease_owner        TEXT,
  lease_token        TEXT,
  lease_expires_at   INTEGER,
  attempt_started_at INTEGER,
  not_fired_reported INTEGER NOT NULL,
  created_at         INTEGER NOT NULL,
  started_at         INTEGER,
  finished_at        INTEGER                       -- set exactly when the state is final
) STRICT;

-- claimRuns: one range per priority level, in claim order (rowid breaks ties).
CREATE INDEX runs_claim ON runs (priority DESC, due_at) WHERE state = 'scheduled';
-- reclaimExpiredLeases.
CREATE INDEX runs_lease ON runs (lease_expires_at) WHERE state = 'running';
-- overlap checks and cancelling a schedule's pending runs.
CREATE INDEX runs_schedule_state ON runs (schedule_id, state);
-- listRuns, newest first, with and without a schedule key.
CREATE INDEX runs_tenant_time ON runs (tenant_id, scheduled_for);
CREATE INDEX runs_tenant_key_time ON runs (tenant_id, schedule_key, scheduled_for);
-- pruneHistory: by age, and the newest final runs per schedule.
CREATE INDEX runs_finished ON runs (finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX runs_schedule_finished ON runs (schedule_id, finished_at) WHERE finished_at IS NOT NULL;

CREATE TABLE attempts (
  id          INTEGER PRIMARY KEY,
  tenant_id   TEXT    NOT NULL,
  run_id      INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  attempt     INTEGER NOT NULL,
  worker_id   TEXT    NOT NULL,
  started_at  INTEGER NOT NULL,
  finished_at INTEGER NOT NULL,
  outcome     TEXT    NOT NULL,
  error       TEXT,                                -- JSON
  result      TEXT                                 -- JSON
) STRICT;

CREATE INDEX attempts_run ON attempts (run_id, started_at);
`;
