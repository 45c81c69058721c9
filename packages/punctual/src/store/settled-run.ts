// The run as a settlement leaves it, computed from the run as it was claimed: a store whose fenced write
// matched (the caller held the lease, so nobody else changed the row) can report the transition without
// reading the row back. Pure: no I/O, no clock (`now` is the settlement's instant). It must say exactly
// what the stores write (the conformance suite compares it with the stored run).

import type { Run } from '../domain/run.js';
import type { SettleOutcome } from './store.js';

/**
 * `run` (as claimed, state running) after `outcome` was written at `now`; the lease is released and
 * `startedAt` is what the settlement said (settledStartedAt).
 */
export function settledRun(run: Run, outcome: SettleOutcome, now: number, startedAt = run.startedAt): Run {
  const released = { ...run, leaseOwner: null, leaseExpiresAt: null, startedAt };
  switch (outcome.state) {
    case 'succeeded':
      return {
        ...released,
        state: 'succeeded',
        result: outcome.result,
        reason: null,
        error: null,
        finishedAt: now,
      };
    case 'scheduled':
      return {
        ...released,
        state: 'scheduled',
        dueAt: outcome.dueAt,
        reason: outcome.reason,
        error: outcome.error,
        checks: run.checks + (outcome.reason === 'checkAgain' ? 1 : 0),
        attempt:
          outcome.reason === 'checkAgain'
            ? 0
            : outcome.reason === 'released'
              ? Math.max(run.attempt - 1, 0)
              : run.attempt,
      };
    case 'dead':
      return { ...released, state: 'dead', error: outcome.error, reason: null, finishedAt: now };
    case 'cancelled':
    case 'skipped':
    case 'expired':
      // Never delivered in this attempt: the attempt the claim counted is handed back.
      return {
        ...released,
        state: outcome.state,
        reason: outcome.reason,
        attempt: Math.max(run.attempt - 1, 0),
        finishedAt: now,
      };
  }
}
