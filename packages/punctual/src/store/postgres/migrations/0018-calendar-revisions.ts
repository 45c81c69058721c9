// Migration 18: calendar revisions, one row per kept change of a calendar (who, when, which change, the field
// diff and the full content of the version). Keyed by (tenant, name) so a deleted calendar's history stays
// readable. A new table only (expand): older code runs beside it, writing no revisions. Append-only: once
// released, this text never changes. `s` is the already-quoted schema name; DDL only.

export const name = 'calendar-revisions';

export function sql(s: string): string {
  return `
CREATE TABLE ${s}.calendar_revisions (
  seq          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY, -- orders a name's revisions
  tenant_id    TEXT    COLLATE "C" NOT NULL,
  name         TEXT    COLLATE "C" NOT NULL, -- no foreign key: revisions outlive a deleted calendar
  version      INTEGER NOT NULL,
  at           BIGINT  NOT NULL,
  actor        TEXT,
  change       TEXT    NOT NULL,
  from_version INTEGER,
  diff         JSONB   NOT NULL,
  content      JSONB   NOT NULL
);

CREATE INDEX calendar_revisions_name ON ${s}.calendar_revisions (tenant_id, name, seq);
`;
}
