// Transition: one state change of a run that a store operation made, as every store result reports it (the
// engine turns each into one typed event). A type only: it must never hold logic.

import type { Run, RunState } from '../domain/run.js';

/** One state change a store operation made; the engine turns each into one typed event. */
export interface Transition {
  run: Run;
  from: RunState | null;
  to: RunState;
}
