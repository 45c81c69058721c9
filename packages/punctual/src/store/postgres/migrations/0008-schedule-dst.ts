// Migration 8: a schedule's DST choice ({ gap, repeat }), NULL for the spec kind's default (cron:
// shift/first, RRULE: skip/first) and for @every/@at. A nullable column only, so code from version 5 on
// keeps working beside it (it leaves the column NULL: the defaults). Append-only: once released, this text
// never changes. `s` is the already-quoted schema name; DDL only.

export const name = 'schedule-dst';

export function sql(s: string): string {
  return `
-- The DST choice; NULL means the default of the spec kind.
ALTER TABLE ${s}.schedules ADD COLUMN dst JSONB;
`;
}
