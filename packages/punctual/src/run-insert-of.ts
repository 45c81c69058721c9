// The run a schedule's occurrence becomes, as a store insert, built one way for every caller outside the
// materializer (trigger, backfill, resume's skipped records, occurrence overrides). It must never write or
// read anything: it only builds the request.

import type { Json } from './domain/json.js';
import { overriddenRun, type OccurrenceOverride } from './domain/occurrence-override.js';
import { jitterOffset } from './domain/policies.js';
import { expectByOf } from './domain/schedule-expect.js';
import type { Schedule } from './domain/schedule.js';
import type { RunInsert } from './store/store.js';

export function runInsertOf(
  s: Schedule,
  kind: RunInsert['kind'],
  scheduledFor: number,
  o: Partial<Pick<RunInsert, 'state' | 'reason' | 'unique' | 'payload' | 'dueAt' | 'details'>>,
): RunInsert {
  const p = s.policies;
  return {
    tenantId: s.tenantId,
    scheduleId: s.id,
    scheduleKey: s.key,
    scheduleVersion: s.version,
    kind,
    unique: o.unique ?? true,
    scheduledFor,
    dueAt: o.dueAt ?? scheduledFor,
    expiresAt: p.deadlineMs === null || kind !== 'scheduled' ? null : scheduledFor + p.deadlineMs,
    // Only a spec occurrence is expected to succeed (a trigger or a backfill is not).
    expectBy:
      kind === 'scheduled'
        ? expectByOf(s.expect, { scheduledFor, state: o.state ?? 'scheduled', details: o.details ?? null })
        : null,
    priority: p.priority,
    maxAttempts: p.retry.maxAttempts,
    overlap: p.overlap,
    payload: o.payload ?? null,
    state: o.state ?? 'scheduled',
    reason: o.reason ?? null,
    details: o.details ?? null,
  };
}

/** The skipped record (reason paused) of an occurrence that fell in a pause. */
export function pausedRecord(
  s: Schedule,
  scheduledFor: number,
  details: Record<string, Json> | null,
): RunInsert {
  return runInsertOf(s, 'scheduled', scheduledFor, {
    state: 'skipped',
    reason: 'paused',
    unique: false,
    details,
  });
}

/** The plain run of a spec occurrence, as the materializer writes it (due at its instant plus jitter). */
export function occurrenceRun(s: Schedule, scheduledFor: number): RunInsert {
  return runInsertOf(s, 'scheduled', scheduledFor, {
    dueAt: scheduledFor + jitterOffset(s.key, scheduledFor, s.jitterMs),
  });
}

/** The run of an occurrence under its override (a skip is a record, not a unique occurrence). */
export function overriddenInsert(s: Schedule, o: OccurrenceOverride): RunInsert {
  const plain = occurrenceRun(s, o.instant);
  const r = overriddenRun(plain, o);
  const expectBy = r.state === 'scheduled' ? plain.expectBy : null;
  return { ...plain, ...r, unique: r.state === 'scheduled', expectBy };
}
