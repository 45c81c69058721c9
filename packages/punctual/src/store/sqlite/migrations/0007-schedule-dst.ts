// Migration 0007: a schedule's DST choice ({ gap, repeat } as JSON text), NULL for the spec kind's default
// (cron: shift/first, RRULE: skip/first) and for @every/@at. Append-only: once released, this text never
// changes.

export const name = 'schedule-dst';

export const sql = `
-- The DST choice as JSON text; NULL means the default of the spec kind.
ALTER TABLE schedules ADD COLUMN dst TEXT;
`;
