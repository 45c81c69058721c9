// The failure-rate alert: over a schedule's latest executed runs (succeeded or dead, newest first), the share
// that died. This module owns the policy (window, threshold, minimum runs, with their defaults) and the
// verdict: open `failure_rate` at or above the threshold, clear it below, nothing while too few runs are
// known. Pure: it must never perform I/O or read a clock.

import { PunctualError } from '../errors.js';
import type { AlertClearance, AlertCondition } from './alert.js';

export interface FailureRatePolicy {
  /** How many of the latest executed runs are looked at. */
  window: number;
  /** The share of dead runs (0-1) at or above which the alert opens. */
  threshold: number;
  /** Fewer executed runs than this say nothing (no open, no clear). */
  minRuns: number;
}

/** ≥ 50% of the last 10 executed runs dead, with at least 5 runs known. */
export const DEFAULT_FAILURE_RATE: FailureRatePolicy = { window: 10, threshold: 0.5, minRuns: 5 };

/** Checks an engine's failure-rate option (a programming error otherwise: thrown at construction). */
export function failureRatePolicy(p: Partial<FailureRatePolicy> | undefined): FailureRatePolicy {
  const out = { ...DEFAULT_FAILURE_RATE, ...p };
  const ok =
    Number.isInteger(out.window) &&
    out.window >= 1 &&
    out.window <= 1000 &&
    Number.isInteger(out.minRuns) &&
    out.minRuns >= 1 &&
    out.minRuns <= out.window &&
    out.threshold > 0 &&
    out.threshold <= 1;
  if (!ok) {
    throw new PunctualError(
      'SCHEDULE_INVALID',
      'alerts.failureRate: window 1-1000, minRuns 1-window, threshold in (0, 1]',
      { field: 'alerts.failureRate' },
    );
  }
  return out;
}

/** What a schedule's latest outcomes (`succeeded` / `dead`, newest first) say. */
export function failureRateVerdict(
  s: { tenantId: string; scheduleKey: string },
  outcomes: readonly string[],
  policy: FailureRatePolicy,
): { open: AlertCondition } | { clear: AlertClearance } | null {
  const runs = outcomes.slice(0, policy.window);
  if (runs.length < policy.minRuns) return null;
  const dead = runs.filter((o) => o === 'dead').length;
  const rate = dead / runs.length;
  if (rate < policy.threshold) {
    return {
      clear: {
        tenantId: s.tenantId,
        subjectKind: 'schedule',
        subject: s.scheduleKey,
        kinds: ['failure_rate'],
      },
    };
  }
  return {
    open: {
      tenantId: s.tenantId,
      kind: 'failure_rate',
      subjectKind: 'schedule',
      subject: s.scheduleKey,
      summary: `schedule "${s.scheduleKey}": ${dead} of its last ${runs.length} runs failed (${Math.round(rate * 100)}%)`,
      details: { dead, runs: runs.length, rate, threshold: policy.threshold, window: policy.window },
    },
  };
}
