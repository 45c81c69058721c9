// The parts a page of runs is read in, for both stores. The listing indexes (`runs_tenant_time`,
// `runs_tenant_key_time`) hold finished runs only (PostgreSQL migration 24, SQLite 0022), so a page merges
// three sorted reads: the finished runs from those, the running ones from `runs_lease`, the scheduled ones
// from `runs_claim_tenant`; a state filter reads one part. Pure: each store writes its own statement around
// these predicates and must never read a part it could leave out.

import type { RunState } from '../../domain/run.js';

/**
 * The predicate of runs_tenant_time and runs_tenant_key_time: the finished runs, word for word, so a read that
 * repeats it is matched to those indexes (neither planner infers it from `state = 'succeeded'`).
 */
export const FINISHED_RUNS = `state NOT IN ('scheduled', 'running')`;
/** The running part: runs_lease's predicate. */
export const RUNNING_RUNS = `state = 'running'`;
/** The scheduled part: runs_claim_tenant's predicate. */
export const SCHEDULED_RUNS = `state = 'scheduled'`;

/** The predicates of the parts a page of runs in `state` (every state when undefined) reads. */
export function runListParts(state: RunState | undefined): string[] {
  if (state === 'scheduled') return [SCHEDULED_RUNS];
  if (state === 'running') return [RUNNING_RUNS];
  return state === undefined ? [FINISHED_RUNS, RUNNING_RUNS, SCHEDULED_RUNS] : [FINISHED_RUNS];
}
