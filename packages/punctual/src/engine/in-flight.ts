// A run the worker holds (claimed, not settled yet; prefetch-buffer.ts holds those waiting for a free slot or
// for their instant). It keeps the facts about one held run that the worker's decisions read: when it was
// claimed, whether its delivery started, whether it was reported late, and the settlement that ends its
// attempt. It never talks to the store or a target.

import type { CancelTimer } from '../clock.js';
import type { Json } from '../domain/json.js';
import type { NextState } from '../domain/outcome.js';
import type { Attempt } from '../domain/run.js';
import type { AttemptSpan } from '../run-tracer.js';
import type { ClaimedRun, Settlement, SettleOutcome } from '../store/store.js';

export interface InFlight {
  claimed: ClaimedRun;
  abort: AbortController;
  /** The instant of the claim that leased it. */
  claimedAt: number;
  /** When the delivery started (claim time while it waits in the prefetch buffer). */
  startedAt: number;
  /** Waiting in the prefetch buffer, not delivering yet. */
  buffered: boolean;
  /** Waiting for its saturated target to have room (not delivering, holds no slot). */
  waiting: boolean;
  /** Its delivery started (its target was called). */
  delivered: boolean;
  /** Reported as not started within the grace (schedule:notFired), once. */
  reported: boolean;
  /** The delivery ended (finished or dropped): its slot is free. */
  done: boolean;
  settled: boolean;
  cancelTimeout: CancelTimer;
  /** When the lease lapses unless renewed (engine clock). */
  leaseUntil: number;
  /** The span of the attempt being delivered, while it is open (only with a tracer). */
  span?: AttemptSpan;
}

/** A run just claimed at `now`: held in the prefetch buffer, its lease good for `leaseMs`. */
export function claimedFlight(claimed: ClaimedRun, now: number, leaseMs: number): InFlight {
  return {
    claimed,
    abort: new AbortController(),
    claimedAt: now,
    startedAt: now,
    buffered: true,
    waiting: false,
    delivered: false,
    reported: false,
    done: false,
    settled: false,
    cancelTimeout: () => {},
    leaseUntil: now + leaseMs,
  };
}

/**
 * What the run's startedAt is after this attempt: when its first delivery started. The claim recorded its
 * own instant; a run that was not delivered in this attempt keeps what it had before the claim.
 */
export function firstStart(flight: InFlight): number | null {
  const recorded = flight.claimed.run.startedAt;
  if (recorded !== flight.claimedAt) return recorded; // an earlier attempt started it
  return flight.delivered ? flight.startedAt : null;
}

/**
 * The settlement that ends the held run's attempt at `now`: its next state (or a release), the attempt it
 * records for `workerId`, and what its startedAt becomes.
 */
export function flightSettlement(
  flight: InFlight,
  next: NextState | SettleOutcome,
  outcome: Attempt['outcome'],
  now: number,
  result: Json | null,
  workerId: string,
): Settlement {
  const run = flight.claimed.run;
  return {
    runId: run.id,
    token: flight.claimed.token,
    startedAt: firstStart(flight),
    outcome: next,
    attempt: {
      runId: run.id,
      attempt: run.attempt,
      workerId,
      startedAt: flight.startedAt,
      finishedAt: now,
      outcome,
      error: 'error' in next ? next.error : null,
      result,
    },
    run,
  };
}
