// Migration 20: schedules_labels holds only the schedules that have labels. A GIN index keeps an entry for
// an empty `labels` too, so every new row version of a schedule (each materializer advance moves
// next_fire_at, which schedules_due indexes, so it is never a HOT update) wrote a GIN entry and a meta-page
// record: 172 bytes of WAL per materialised run, measured by bench/wal-per-run.ts. The list's label filter
// repeats the predicate (`labels <> '{}'`), which every non-empty filter implies. An index change only
// (expand): older code works beside it (its label filter, without the predicate, reads the tenant's range of
// schedules_tenant_key instead). Append-only: once released, this text never changes. `s` is the
// already-quoted schema name; DDL only. SQLite has no labels index and no counterpart.

export const name = 'labelled-schedules-index';

export function sql(s: string): string {
  return `
DROP INDEX ${s}.schedules_labels;
-- listSchedules with labels; its filter repeats the predicate.
CREATE INDEX schedules_labels ON ${s}.schedules USING GIN (labels jsonb_path_ops) WHERE labels <> '{}'::jsonb;
`;
}
