// Migration 12: schedule revisions, one row per kept change of a schedule (who, when, which change, the field
// diff and the full content of the version). Keyed by (tenant, key) so a deleted schedule's history stays
// readable. A new table only (expand): older code runs beside it, writing no revisions. Append-only: once
// released, this text never changes. `s` is the already-quoted schema name; DDL only.

export const name = 'schedule-revisions';

export function sql(s: string): string {
  return `
CREATE TABLE ${s}.schedule_revisions (
  seq          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, -- orders a key's revisions
  tenant_id    TEXT    COLLATE "C" NOT NULL,
  key          TEXT    COLLATE "C" NOT NULL,
  schedule_id  BIGINT  NOT NULL, -- no foreign key: revisions outlive a deleted schedule
  version      INTEGER NOT NULL,
  at           BIGINT  NOT NULL,
  actor        TEXT,
  change       TEXT    NOT NULL,
  from_version INTEGER,
  state        TEXT    NOT NULL,
  diff         JSONB   NOT NULL,
  content      JSONB   NOT NULL
);

CREATE INDEX schedule_revisions_key ON ${s}.schedule_revisions (tenant_id, key, seq);
`;
}
