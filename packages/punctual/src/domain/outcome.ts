// What a delivery returns, and the pure rule that turns an outcome into the run's next state (retry with
// backoff, dead, check again within its guards). It must never perform I/O or read a clock.

import type { Json } from './json.js';
import type { Policies } from './policies.js';
import { retryDelay } from './policies.js';
import type { Attempt, Run, RunError } from './run.js';

export type Outcome =
  | { type: 'ok'; result?: Json | undefined }
  | { type: 'retry'; error: RunError; afterMs?: number | undefined }
  | { type: 'fail'; error: RunError }
  | { type: 'checkAgain'; at: number }
  /**
   * The attempt could not start for a reason that is not the target's (the store did not answer): the run is
   * handed back, due again `afterMs` later, and the attempt does not count.
   */
  | { type: 'release'; afterMs: number; error: RunError };

/** The run's next state after an attempt: what the store is asked to settle. */
export type NextState =
  | { state: 'succeeded'; result: Json | null }
  | {
      state: 'scheduled';
      reason: 'retry' | 'checkAgain' | 'released';
      dueAt: number;
      error: RunError | null;
    }
  | { state: 'dead'; error: RunError };

/**
 * Applies the retry and check-again policies to an outcome. `run.attempt` is the attempt that just ended;
 * `random` in [0, 1) drives backoff jitter.
 */
export function nextStateFor(
  run: Run,
  outcome: Outcome,
  policies: Policies,
  now: number,
  random: number,
): NextState {
  switch (outcome.type) {
    case 'ok':
      return { state: 'succeeded', result: outcome.result ?? null };
    case 'fail':
      return { state: 'dead', error: outcome.error };
    case 'release':
      return { state: 'scheduled', reason: 'released', dueAt: now + outcome.afterMs, error: outcome.error };
    case 'retry': {
      if (run.attempt >= run.maxAttempts) return { state: 'dead', error: outcome.error };
      const delay = outcome.afterMs ?? retryDelay(policies.retry, run.attempt, random);
      return { state: 'scheduled', reason: 'retry', dueAt: now + delay, error: outcome.error };
    }
    case 'checkAgain': {
      if (run.checks + 1 > policies.maxChecks) {
        return {
          state: 'dead',
          error: {
            code: 'CHECK_LIMIT_REACHED',
            message: `check-again asked more than maxChecks (${policies.maxChecks}) times`,
          },
        };
      }
      // A past instant would be due at once, again and again: refused rather than treated as now.
      if (outcome.at < now) {
        return {
          state: 'dead',
          error: {
            code: 'CHECK_AGAIN_IN_PAST',
            message: `check-again asked for an instant in the past (${new Date(outcome.at).toISOString()})`,
          },
        };
      }
      if (outcome.at > run.scheduledFor + policies.checkHorizonMs) {
        return {
          state: 'dead',
          error: {
            code: 'CHECK_LIMIT_REACHED',
            message: 'check-again asked for an instant past the check horizon',
          },
        };
      }
      return { state: 'scheduled', reason: 'checkAgain', dueAt: outcome.at, error: null };
    }
  }
}

/** How an attempt is recorded in the run's history, from what the delivery returned and what it led to. */
export function attemptOutcome(outcome: Outcome, next: NextState): Attempt['outcome'] {
  switch (outcome.type) {
    case 'ok':
      return 'succeeded';
    case 'release':
      return 'released';
    case 'checkAgain':
      return 'checkAgain';
    case 'retry':
      if (outcome.error.code === 'ATTEMPT_TIMEOUT') return 'timeout';
      return next.state === 'scheduled' ? 'retry' : 'failed';
    case 'fail':
      return 'failed';
  }
}
