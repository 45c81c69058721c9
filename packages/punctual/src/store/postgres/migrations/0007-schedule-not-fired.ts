// Migration 7: which occurrence of a schedule was reported overdue ("not fired": its instant passed by the
// grace and nothing materialised it), so that any number of instances report it once. Append-only: once
// released, this text never changes. `s` is the already-quoted schema name; DDL only.

export const name = 'schedule-not-fired';

export function sql(s: string): string {
  return `
-- The nextFireAt that was reported overdue; NULL when none was. A new overdue occurrence differs from it.
ALTER TABLE ${s}.schedules ADD COLUMN not_fired_at BIGINT;
`;
}
