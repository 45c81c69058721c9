// Migration 1: the initial schema (schedules, runs, attempts). Append-only: once released, this text is
// never edited; a change is a new numbered migration. `s` is the already-quoted schema name; this module
// must never see a value, only that identifier. Column names match the SQLite store's.

export const name = 'init';

export function sql(s: string): string {
  return `
CREATE TABLE ${s}.schedules (
  id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id     TEXT    COLLATE "C" NOT NULL,
  key           TEXT    COLLATE "C" NOT NULL,
  spec          TEXT    NOT NULL,
  spec_kind     TEXT    NOT NULL,
  tz            TEXT    NOT NULL,
  target        JSONB   NOT NULL,
  target_kind   TEXT    NOT NULL,
  payload       JSONB,
  policies      JSONB   NOT NULL,
  overlap       TEXT    NOT NULL,                  -- policies.overlap, denormalised for SQL
  start_at      BIGINT,
  end_at        BIGINT,
  max_runs      INTEGER,
  jitter_ms     BIGINT  NOT NULL DEFAULT 0,
  description   TEXT    NOT NULL DEFAULT '',
  state         TEXT    NOT NULL CHECK (state IN ('active', 'paused', 'completed')),
  version       INTEGER NOT NULL,
  next_fire_at  BIGINT,
  fired_count   BIGINT  NOT NULL DEFAULT 0,
  paused_at     BIGINT,
  note          TEXT,
  claimed_until BIGINT,
  created_at    BIGINT  NOT NULL,
  updated_at    BIGINT  NOT NULL,
  CONSTRAINT schedules_tenant_key UNIQUE (tenant_id, key)
);
-- claimDueSchedules and nextScheduleAt: active schedules by next occurrence.
CREATE INDEX schedules_due ON ${s}.schedules (next_fire_at, id) WHERE state = 'active';

CREATE TABLE ${s}.runs (
  id                 BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id          TEXT    COLLATE "C" NOT NULL,
  schedule_id        BIGINT  NOT NULL,             -- no foreign key: history outlives its schedule
  schedule_key       TEXT    COLLATE "C" NOT NULL,
  schedule_version   INTEGER NOT NULL,
  occurrence_key     TEXT,                         -- '<scheduleId>:<scheduledFor>' while it blocks a duplicate
  occurrence_id      TEXT,                         -- the same text, kept for good; NULL for manual runs
  kind               TEXT    NOT NULL CHECK (kind IN ('scheduled', 'manual', 'backfill')),
  state              TEXT    NOT NULL
    CHECK (state IN ('scheduled', 'running', 'succeeded', 'dead', 'skipped', 'expired', 'cancelled')),
  scheduled_for      BIGINT  NOT NULL,
  due_at             BIGINT  NOT NULL,
  expires_at         BIGINT,
  priority           INTEGER NOT NULL DEFAULT 0,
  attempt            INTEGER NOT NULL DEFAULT 0,
  max_attempts       INTEGER NOT NULL,
  checks             INTEGER NOT NULL DEFAULT 0,
  overlap            TEXT    NOT NULL,
  payload            JSONB,
  reason             TEXT,
  error              JSONB,
  result             JSONB,
  details            JSONB,
  created_at         BIGINT  NOT NULL,
  started_at         BIGINT,
  finished_at        BIGINT,                       -- set exactly when the state is final
  lease_owner        TEXT,
  lease_token        TEXT,
  lease_expires_at   BIGINT,
  attempt_started_at BIGINT,
  not_fired_reported BOOLEAN NOT NULL DEFAULT false,
  CONSTRAINT runs_occurrence_key UNIQUE (occurrence_key)
);
-- claimRuns: one range per priority level, in claim order.
CREATE INDEX runs_claim ON ${s}.runs (priority DESC, due_at, id) WHERE state = 'scheduled';
-- nextRunDueAt and takeNotFired: the earliest pending run whatever its priority.
CREATE INDEX runs_due ON ${s}.runs (due_at) WHERE state = 'scheduled';
-- reclaimExpiredLeases.
CREATE INDEX runs_lease ON ${s}.runs (lease_expires_at, id) WHERE state = 'running';
-- overlap checks and cancelling a schedule's pending runs.
CREATE INDEX runs_schedule_pending ON ${s}.runs (schedule_id) WHERE state IN ('scheduled', 'running');
-- listRuns, newest first, with and without a schedule key.
CREATE INDEX runs_tenant_time ON ${s}.runs (tenant_id, scheduled_for DESC, id DESC);
CREATE INDEX runs_tenant_key_time ON ${s}.runs (tenant_id, schedule_key, scheduled_for DESC, id DESC);
-- pruneHistory: by age, and the newest final runs per schedule.
CREATE INDEX runs_finished ON ${s}.runs (finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX runs_schedule_finished ON ${s}.runs (schedule_id, finished_at DESC, id DESC)
  WHERE finished_at IS NOT NULL;

CREATE TABLE ${s}.attempts (
  id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id   TEXT    COLLATE "C" NOT NULL,
  run_id      BIGINT  NOT NULL REFERENCES ${s}.runs (id) ON DELETE CASCADE,
  attempt     INTEGER NOT NULL,
  worker_id   TEXT    NOT NULL,
  started_at  BIGINT  NOT NULL,
  finished_at BIGINT  NOT NULL,
  outcome     TEXT    NOT NULL,
  error       JSONB,
  result      JSONB
);
CREATE INDEX attempts_run ON ${s}.attempts (run_id, id);
`;
}
