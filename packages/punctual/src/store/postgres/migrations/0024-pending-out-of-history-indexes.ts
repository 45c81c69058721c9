// Migration 24: a run waiting to be claimed leaves no entry in the history indexes either. The materializer
// inserts every run as a scheduled one, and `runs_tenant_time` and `runs_tenant_key_time` took an entry for
// it at once, which the settlement's new row version (never HOT: `state` changes) wrote again: two of the
// seven entries of an insert served only the lists' first page. Both indexes now hold the finished runs
// (every state but scheduled and running), so the insert writes five entries and the run gets its two
// history entries once, at its settlement. The reads add the scheduled runs from `runs_claim_tenant` (a
// tenant's scheduled runs: the look-ahead's worth, and retries waiting for their backoff) and from
// `runs_schedule_pending` (one schedule's), and repeat the predicate so the planner matches the indexes.
// The indexes are rebuilt in the migration's transaction: writes to runs wait for the build (seconds per
// million runs). An index change only (expand): older code still answers every read, its lists and its
// override check reading the table without these indexes until it is replaced (roll without lingering).
// Append-only: once released, this text never changes. `s` is the already-quoted schema name; DDL only.

export const name = 'pending-out-of-history-indexes';

export function sql(s: string): string {
  return `
DROP INDEX ${s}.runs_tenant_time;
DROP INDEX ${s}.runs_tenant_key_time;
CREATE INDEX runs_tenant_time ON ${s}.runs (tenant_id, scheduled_for DESC, id DESC)
  WHERE state NOT IN ('scheduled', 'running');
CREATE INDEX runs_tenant_key_time ON ${s}.runs (tenant_id, schedule_key, scheduled_for DESC, id DESC)
  WHERE state NOT IN ('scheduled', 'running');
`;
}
