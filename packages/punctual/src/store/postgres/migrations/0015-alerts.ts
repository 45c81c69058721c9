// Migration 15: alerting. Alert channels and checks per tenant (by name), alerts (at most one open per
// tenant, subject and kind: the partial unique index is what makes opening insert-if-absent across
// instances), and the outbox of deliveries (one row per alert transition and channel), indexed by when each
// is next due. New tables only (expand): older code runs beside them. Append-only: once released, this text
// never changes. `s` is the already-quoted schema name; DDL only.

export const name = 'alerts';

export function sql(s: string): string {
  return `
CREATE TABLE ${s}.alert_channels (
  tenant_id    TEXT   COLLATE "C" NOT NULL,
  name         TEXT   COLLATE "C" NOT NULL,
  kind         TEXT   NOT NULL,
  url          TEXT   NOT NULL,
  routing_key  TEXT,
  created_at   BIGINT NOT NULL,
  updated_at   BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, name)
);

CREATE TABLE ${s}.checks (
  tenant_id     TEXT   COLLATE "C" NOT NULL,
  name          TEXT   COLLATE "C" NOT NULL,
  kind          TEXT   NOT NULL,
  every_ms      BIGINT NOT NULL,
  last_beat_at  BIGINT,
  next_check_at BIGINT, -- NULL: disarmed (its alert is open)
  created_at    BIGINT NOT NULL,
  updated_at    BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, name)
);

CREATE INDEX checks_due ON ${s}.checks (next_check_at) WHERE next_check_at IS NOT NULL;

CREATE TABLE ${s}.alerts (
  id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id     TEXT   COLLATE "C" NOT NULL,
  kind          TEXT   NOT NULL,
  subject_kind  TEXT   NOT NULL,
  subject       TEXT   COLLATE "C" NOT NULL,
  state         TEXT   NOT NULL,
  opened_at     BIGINT NOT NULL,
  resolved_at   BIGINT,
  summary       TEXT   NOT NULL,
  details       JSONB  NOT NULL
);

CREATE UNIQUE INDEX alerts_open ON ${s}.alerts (tenant_id, subject_kind, subject, kind) WHERE state = 'open';
CREATE INDEX alerts_tenant ON ${s}.alerts (tenant_id, id);

CREATE TABLE ${s}.alert_deliveries (
  id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  tenant_id       TEXT    COLLATE "C" NOT NULL,
  alert_id        BIGINT  NOT NULL,
  channel         TEXT    COLLATE "C" NOT NULL,
  transition      TEXT    NOT NULL,
  state           TEXT    NOT NULL,
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT, -- due (or lease end while claimed); NULL once final
  claim           INTEGER NOT NULL DEFAULT 0, -- bumped by every claim
  delivered_at    BIGINT,
  last_error      TEXT,
  created_at      BIGINT  NOT NULL
);

CREATE INDEX alert_deliveries_due ON ${s}.alert_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX alert_deliveries_alert ON ${s}.alert_deliveries (alert_id, id);
`;
}
