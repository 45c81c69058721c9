// Migration 0012: a tenant's calendars (named sets of all-day dates and ranges with labels, an optional
// working-days mask, versioned like schedules), and a schedule's calendar rules (`exclude` and
// `businessDays` as one JSON text column, NULL for none). Append-only: once released, this text never
// changes. DDL only.

export const name = 'calendars';

export const sql = `
CREATE TABLE calendars (
  tenant_id    TEXT    NOT NULL,
  name         TEXT    NOT NULL,
  tz           TEXT    NOT NULL,
  dates        TEXT    NOT NULL CHECK (json_valid(dates)),  -- [{ start, end, label }], sorted, inclusive ends
  working_days TEXT    CHECK (working_days IS NULL OR json_valid(working_days)),  -- ["mon", ...] or NULL
  description  TEXT,
  version      INTEGER NOT NULL,
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, name)
) STRICT, WITHOUT ROWID;

-- A schedule's calendar rules: { exclude: [names], businessDays: { calendar, roll } | null }; NULL for none.
ALTER TABLE schedules ADD COLUMN calendar_rules TEXT;
`;
