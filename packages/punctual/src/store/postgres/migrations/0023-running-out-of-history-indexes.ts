// Migration 23: a run being executed leaves no entry in the history indexes. The claim turns a scheduled run
// into a running one and the settlement into a final one; neither update can be HOT (both change `state`,
// which the partial indexes name), so each gave the run a new entry in every index its new version matched:
// seven at the claim, of which three served no read of a running run. `runs_tenant_time` and
// `runs_tenant_key_time` (listRuns, the deadline check, an override's latest record) and `runs_tenant_started`
// (the runs-per-minute quota) now hold every run but the running ones, so the claim writes four entries
// (primary key, occurrence key, lease, the schedule's pending runs) and the run gets the three back, once,
// at its settlement. The reads add the running runs from `runs_lease` (every running run: as many as the
// workers execute at once) and repeat the predicate so the planner matches the partial index. The indexes are
// rebuilt in the migration's transaction: writes to runs wait for the build (seconds per million runs).
// An index change only (expand): older code still answers every read, its lists and quota count reading the
// table without these indexes until it is replaced (roll without lingering). Append-only: once released,
// this text never changes. `s` is the already-quoted schema name; DDL only.

export const name = 'running-out-of-history-indexes';

export function sql(s: string): string {
  return `
DROP INDEX ${s}.runs_tenant_time;
DROP INDEX ${s}.runs_tenant_key_time;
DROP INDEX ${s}.runs_tenant_started;
CREATE INDEX runs_tenant_time ON ${s}.runs (tenant_id, scheduled_for DESC, id DESC) WHERE state <> 'running';
CREATE INDEX runs_tenant_key_time ON ${s}.runs (tenant_id, schedule_key, scheduled_for DESC, id DESC)
  WHERE state <> 'running';
CREATE INDEX runs_tenant_started ON ${s}.runs (tenant_id, started_at)
  WHERE started_at IS NOT NULL AND state <> 'running';
`;
}
