// The rerun of final runs as new attempts of the same occurrence: RerunRequest, RerunRefusal (why a run was
// left as it was) and RerunResult. Types only: they must never hold logic; reruns.ts finds the runs.

import type { RunState } from '../domain/run.js';
import type { Transition } from './transition.js';

/** Final runs of one schedule to run again, as new attempts of the same occurrence (the same run). */
export interface RerunRequest {
  tenantId: string;
  scheduleId: string;
  /** The schedule's current version: a rerun runs it (its target and policies as they are now). */
  scheduleVersion: number;
  /** Attempts each rerun gets on top of those it used (the schedule's retry.maxAttempts). */
  attempts: number;
  runIds: readonly string[];
  now: number;
}

export type RerunRefusal =
  | { runId: string; why: 'notFound' }
  | { runId: string; why: 'notFinal'; state: RunState }
  | { runId: string; why: 'occurrenceTaken'; state: RunState; heldBy: string };

export interface RerunResult {
  /** The runs made `scheduled` again (due at now), in the order asked. */
  transitions: Transition[];
  /**
   * Runs left as they were: not final yet, or their occurrence is held by another run. Unknown ids and runs
   * of another schedule or tenant are `notFound`.
   */
  refused: RerunRefusal[];
}
