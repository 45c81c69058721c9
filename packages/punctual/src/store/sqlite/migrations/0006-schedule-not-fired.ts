// Migration 0006: which occurrence of a schedule was reported overdue ("not fired": its instant passed by
// the grace and nothing materialised it), so that it is reported once. Append-only: once released, this
// text never changes.

export const name = 'schedule-not-fired';

export const sql = `
-- The nextFireAt that was reported overdue; NULL when none was. A new overdue occurrence differs from it.
ALTER TABLE schedules ADD COLUMN not_fired_at INTEGER;
`;
