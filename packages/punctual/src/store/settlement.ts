// A settlement: the outcome the worker writes for one claimed run's attempt (SettleOutcome, Settlement), and
// two pure readings of it (settledStartedAt, endedBeforeDelivery) the stores share. Pure: no I/O, no clock;
// it must never decide an outcome (domain/outcome.ts does) or what a store writes for it.

import type { Json } from '../domain/json.js';
import type { Attempt, Run, RunError, RunReason } from '../domain/run.js';

export type SettleOutcome =
  | { state: 'succeeded'; result: Json | null }
  | { state: 'scheduled'; reason: 'retry' | 'checkAgain' | 'released'; dueAt: number; error: RunError | null }
  | { state: 'dead'; error: RunError }
  /**
   * Ended before its delivery started (found past its deadline, or its schedule paused, while it waited in
   * the worker's buffer): the attempt the claim counted is handed back and no attempt is recorded.
   */
  | { state: 'cancelled' | 'skipped' | 'expired'; reason: RunReason };

export interface Settlement {
  runId: string;
  token: string;
  outcome: SettleOutcome;
  attempt: Attempt;
  /**
   * The run as it was claimed. While the caller holds the lease nobody else changes the row (but for the
   * lease's expiry), so a store may report the settled run from this and the outcome (settledRun) instead
   * of reading the row back.
   */
  run: Run;
  /**
   * What the run's `startedAt` becomes: when its first delivery started (null: never). Undefined keeps
   * `run.startedAt`. The claim sets `startedAt` to the claim instant; the worker corrects it to the delivery
   * start, or clears it for a run that ended in its buffer without being delivered.
   */
  startedAt?: number | null | undefined;
}

/** What a settlement leaves in the run's `startedAt`. */
export function settledStartedAt(x: Pick<Settlement, 'startedAt' | 'run'>): number | null {
  return x.startedAt === undefined ? x.run.startedAt : x.startedAt;
}

/** Whether a settlement ends a run that was never delivered in this attempt (no attempt is recorded). */
export function endedBeforeDelivery(o: SettleOutcome): boolean {
  return o.state === 'cancelled' || o.state === 'skipped' || o.state === 'expired';
}
