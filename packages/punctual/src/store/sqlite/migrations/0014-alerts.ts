// Migration 0014: alerting. Alert channels and checks per tenant (by name), alerts (at most one open per
// tenant, subject and kind: the partial unique index is what makes opening insert-if-absent), and the outbox
// of deliveries (one row per alert transition and channel), indexed by when each is next due. Append-only:
// once released, this text never changes.

export const name = 'alerts';

export const sql = `
CREATE TABLE alert_channels (
  tenant_id    TEXT    NOT NULL,
  name         TEXT    NOT NULL,
  kind         TEXT    NOT NULL,
  url          TEXT    NOT NULL,
  routing_key  TEXT,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, name)
) STRICT;

CREATE TABLE checks (
  tenant_id     TEXT    NOT NULL,
  name          TEXT    NOT NULL,
  kind          TEXT    NOT NULL,
  every_ms      INTEGER NOT NULL,
  last_beat_at  INTEGER,
  next_check_at INTEGER,                           -- NULL: disarmed (its alert is open)
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, name)
) STRICT;

CREATE INDEX checks_due ON checks (next_check_at) WHERE next_check_at IS NOT NULL;

CREATE TABLE alerts (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant_id     TEXT    NOT NULL,
  kind          TEXT    NOT NULL,
  subject_kind  TEXT    NOT NULL,
  subject       TEXT    NOT NULL,
  state         TEXT    NOT NULL,
  opened_at     INTEGER NOT NULL,
  resolved_at   INTEGER,
  summary       TEXT    NOT NULL,
  details       TEXT    NOT NULL                   -- JSON
) STRICT;

CREATE UNIQUE INDEX alerts_open ON alerts (tenant_id, subject_kind, subject, kind) WHERE state = 'open';
CREATE INDEX alerts_tenant ON alerts (tenant_id, id);

CREATE TABLE alert_deliveries (
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  tenant_id       TEXT    NOT NULL,
  alert_id        INTEGER NOT NULL,
  channel         TEXT    NOT NULL,
  transition      TEXT    NOT NULL,
  state           TEXT    NOT NULL,
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,                         -- due (or lease end while claimed); NULL once final
  claim           INTEGER NOT NULL DEFAULT 0,      -- bumped by every claim
  delivered_at    INTEGER,
  last_error      TEXT,
  created_at      INTEGER NOT NULL
) STRICT;

CREATE INDEX alert_deliveries_due ON alert_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX alert_deliveries_alert ON alert_deliveries (alert_id, id);
`;
