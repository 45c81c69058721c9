// The failure-rate watch: remembers which schedules had a run settle (succeeded or dead, each announced by
// one instance) and, once per evaluator round, reads each one's latest executed runs from the store (an
// index range of `window` rows) and says whether `failure_rate` opens or clears. It never scans history nor
// every schedule: only schedules whose runs settled since the last round are read.

import { failureRateVerdict, type FailureRatePolicy } from '../domain/failure-rate.js';
import type { AlertClearance, AlertCondition } from '../domain/alert.js';
import type { Run } from '../domain/run.js';
import type { AlertStore } from '../store/alert-store.js';

export type RateOp = { open: AlertCondition } | { clear: AlertClearance };

export class FailureRateWatch {
  /** scheduleId -> what the verdict names it by. */
  #pending = new Map<string, { tenantId: string; scheduleKey: string }>();

  constructor(
    private readonly store: Pick<AlertStore, 'recentOutcomes'>,
    private readonly policy: FailureRatePolicy,
  ) {}

  /** A run of the schedule settled: its rate is read again next round. */
  settled(run: Run): void {
    this.#pending.set(run.scheduleId, { tenantId: run.tenantId, scheduleKey: run.scheduleKey });
  }

  get pending(): boolean {
    return this.#pending.size > 0;
  }

  /** The verdicts of the schedules that settled runs since the last call (none for too few runs). */
  async verdicts(): Promise<RateOp[]> {
    const todo = this.#pending;
    this.#pending = new Map();
    const out: RateOp[] = [];
    const done = new Set<string>();
    try {
      for (const [scheduleId, s] of todo) {
        const outcomes = await this.store.recentOutcomes(scheduleId, this.policy.window);
        const v = failureRateVerdict(s, outcomes, this.policy);
        if (v !== null) out.push(v);
        done.add(scheduleId);
      }
    } catch (e) {
      // What was not read is read again next round (newer settlements kept their own entries).
      for (const [id, s] of todo) if (!done.has(id) && !this.#pending.has(id)) this.#pending.set(id, s);
      throw e;
    }
    return out;
  }
}
