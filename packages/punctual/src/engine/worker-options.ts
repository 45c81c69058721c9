// The worker's settings: slots, lease, claim and settlement batching, prefetch, waiting for saturated
// targets. Plain data filled by options.ts; it holds no behaviour.

import type { RunTracer } from '../run-tracer.js';

export interface WorkerOptions {
  workerId: string;
  concurrency: number;
  leaseMs: number;
  /** Most runs claimed in one store transaction. */
  claimBatch: number;
  /**
   * How far ahead of their instant runs of overlap `allow` are claimed (ClaimRequest.dueBy); each waits in
   * the prefetch buffer, lease held, and starts at its instant on a timer. One claim then serves the runs of
   * the coming moment instead of one claim per instant. 0: claim runs only once due.
   */
  claimAheadMs: number;
  /**
   * Runs claimed beyond `concurrency`, waiting in memory to start the moment a slot frees. They let one
   * transaction settle and claim more than `concurrency` runs when handlers are fast. The buffer is
   * `min` deep, and deeper (up to `max`) while deliveries are fast enough that a buffered run waits about
   * `waitMs` at most (prefetch-sizer.ts).
   */
  prefetch: { min: number; max: number; waitMs: number };
  /** Most settlements committed in one store transaction. */
  settleBatch: number;
  /**
   * Most settlement transactions in flight at once. Two let the store execute and commit one batch while
   * the worker delivers the runs of the previous one and prepares the next (settlement-pipeline.ts).
   */
  settleParallel: number;
  maxSleepMs: number;
  /**
   * How often runs waiting for a saturated target are offered to it again (besides whenever a delivery
   * ends), and how long a run is handed back to the store for when `maxWaiting` runs already wait.
   */
  deferMs: number;
  /** Most claimed runs waiting in memory for a saturated target; beyond it a run is handed back. */
  maxWaiting: number;
  /** Results larger than this (JSON bytes) are replaced by a marker. */
  maxResultBytes: number;
  random: () => number;
  /** Opens a span per delivered attempt (run-tracer.ts); none: no tracing. */
  tracer?: RunTracer;
}
