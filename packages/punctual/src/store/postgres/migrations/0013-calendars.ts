// Migration 13: a tenant's calendars (named sets of all-day dates and ranges with labels, an optional
// working-days mask, versioned like schedules), and a schedule's calendar rules (`exclude` and
// `businessDays` as one JSONB column, NULL for none). A new table and a nullable column only, so code from
// version 5 on keeps working beside it. Append-only: once released, this text never changes. `s` is the
// already-quoted schema name; DDL only. The name matches SQLite's.

export const name = 'calendars';

export function sql(s: string): string {
  return `
CREATE TABLE ${s}.calendars (
  tenant_id    TEXT   COLLATE "C" NOT NULL,
  name         TEXT   COLLATE "C" NOT NULL,
  tz           TEXT   NOT NULL,
  dates        JSONB  NOT NULL,                      -- [{ start, end, label }], sorted, inclusive ends
  working_days JSONB,                                -- ["mon", ...] or NULL: every day of the week
  description  TEXT,
  version      INTEGER NOT NULL,
  created_at   BIGINT NOT NULL,
  updated_at   BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, name)
);

-- A schedule's calendar rules: { exclude: [names], businessDays: { calendar, roll } | null }; NULL for none.
ALTER TABLE ${s}.schedules ADD COLUMN calendar_rules JSONB;
`;
}
