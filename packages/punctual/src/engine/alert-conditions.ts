// The alert conditions and clearances the engine's events become: a dead run, an occurrence not fired, a
// success, a spec that can never fire again, a schedule changed or deleted. Pure builders: they must never
// perform I/O or read a clock.

import {
  ALERT_KINDS,
  CLEARED_BY_SUCCESS,
  type AlertClearance,
  type AlertCondition,
} from '../domain/alert.js';
import type { Run } from '../domain/run.js';

/** A dead run opens `run_dead` about its schedule. */
export function runDeadCondition(run: Run): AlertCondition {
  const why = run.error?.message ? `: ${run.error.message.slice(0, 200)}` : '';
  return {
    tenantId: run.tenantId,
    kind: 'run_dead',
    subjectKind: 'schedule',
    subject: run.scheduleKey,
    summary: `schedule "${run.scheduleKey}": run ${run.id} is dead after ${run.attempt} attempt(s)${why}`,
    details: {
      runId: run.id,
      scheduledFor: new Date(run.scheduledFor).toISOString(),
      attempts: run.attempt,
      error: run.error ? { code: run.error.code ?? null, message: run.error.message } : null,
    },
  };
}

/** An occurrence that was not fired within the grace opens `schedule_not_fired` about its schedule. */
export function notFiredCondition(e: {
  tenantId: string;
  scheduleKey: string;
  scheduledFor: number;
  run: Run | null;
}): AlertCondition {
  return {
    tenantId: e.tenantId,
    kind: 'schedule_not_fired',
    subjectKind: 'schedule',
    subject: e.scheduleKey,
    summary: `schedule "${e.scheduleKey}": the occurrence of ${new Date(e.scheduledFor).toISOString()} was not fired`,
    details: { scheduledFor: new Date(e.scheduledFor).toISOString(), runId: e.run?.id ?? null },
  };
}

/** A successful run clears what a success clears about its schedule. */
export function successClearance(run: Run): AlertClearance {
  return {
    tenantId: run.tenantId,
    subjectKind: 'schedule',
    subject: run.scheduleKey,
    kinds: CLEARED_BY_SUCCESS,
  };
}

/** A recurring schedule whose spec and bounds have no instant left opens `spec_exhausted`. */
export function specExhaustedCondition(e: {
  tenantId: string;
  scheduleKey: string;
  spec: string;
}): AlertCondition {
  return {
    tenantId: e.tenantId,
    kind: 'spec_exhausted',
    subjectKind: 'schedule',
    subject: e.scheduleKey,
    summary: `schedule "${e.scheduleKey}": its spec "${e.spec.slice(0, 200)}" will never fire again`,
    details: { spec: e.spec },
  };
}

/** A schedule put (a new version) clears `spec_exhausted`: the materializer judges the new spec afresh. */
export function scheduleChangedClearance(tenantId: string, key: string): AlertClearance {
  return { tenantId, subjectKind: 'schedule', subject: key, kinds: ['spec_exhausted'] };
}

/** A deleted schedule's open alerts can never clear by themselves: all of them resolve. */
export function scheduleDeletedClearance(tenantId: string, key: string): AlertClearance {
  return { tenantId, subjectKind: 'schedule', subject: key, kinds: ALERT_KINDS };
}
