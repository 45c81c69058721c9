// Transitions of the runs a statement changed, the same for both stores: in id order, each from the state
// the statement changed it from to the state it holds now. Pure: it must never run a statement.

import type { Run, RunState } from '../../domain/run.js';
import type { Transition } from '../store.js';

/** Transitions for runs a statement moved from `from` (null: inserted), in id order (sorts `runs`). */
export function runTransitions(runs: Run[], from: RunState | null): Transition[] {
  return runs.sort((a, b) => Number(a.id) - Number(b.id)).map((run) => ({ run, from, to: run.state }));
}
