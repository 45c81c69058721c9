// The worker's claim of due runs: ClaimRequest (who claims, how many, for how long), ClaimedRun (a run with
// its schedule and fencing token) and ClaimResult (the claimed runs and the claim's side effects). Types
// only: they must never hold logic; what a claim decides comes from domain/claim-decision.ts.

import type { Run } from '../domain/run.js';
import type { Schedule } from '../domain/schedule.js';
import type { Transition } from './transition.js';

export interface ClaimRequest {
  workerId: string;
  now: number;
  limit: number;
  leaseMs: number;
  /**
   * Runs of overlap `allow` due by this instant are claimed too (the worker starts each at its own instant;
   * `claimAheadMs`); runs of other policies only once due by `now`, since their claim decides against the
   * runs running then. Absent: `now`. Deadlines and the lease count from `now`.
   */
  dueBy?: number;
}

export interface ClaimedRun {
  run: Run;
  schedule: Schedule;
  /** Fencing token: settle and extend succeed only with it. */
  token: string;
}

export interface ClaimResult {
  claimed: ClaimedRun[];
  /** Side effects of claiming: expired (deadline), skipped (overlap), cancelled (cancelPrevious). */
  transitions: Transition[];
}
