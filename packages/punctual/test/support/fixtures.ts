// Builders for store-level test data: schedule drafts and run inserts written out literally (no spec
// compiler but for a draft's description), so store tests depend on the Store contract and the domain types only. Defaults are plain and
// every field can be overridden.

import { DEFAULT_POLICIES, type Policies, type RetryPolicy } from '../../src/domain/policies.js';
import type { Run } from '../../src/domain/run.js';
import type { Schedule, ScheduleDraft } from '../../src/domain/schedule.js';
import { describeStoredSpec } from '../../src/domain/timing/describe-spec.js';
import type { RunInsert } from '../../src/store/store.js';

export const TENANT = 'tenant-a';
export const OTHER_TENANT = 'tenant-b';

/** A fixed reference instant: 2023-11-14T22:13:20Z. */
export const T0 = 1_700_000_000_000;
export const MINUTE = 60_000;

/** Default policies with some fields replaced (retry merged field by field). */
export function policies(
  overrides: Partial<Omit<Policies, 'retry'>> & { retry?: Partial<RetryPolicy> } = {},
): Policies {
  const { retry, ...rest } = overrides;
  return { ...DEFAULT_POLICIES, ...rest, retry: { ...DEFAULT_POLICIES.retry, ...retry } };
}

/**
 * A schedule draft: every five minutes, UTC, to handler "job". Its description is what the stores derive
 * from the spec, form and zone (as the spec compiler writes it), unless given.
 */
export function draft(overrides: Partial<ScheduleDraft> = {}): ScheduleDraft {
  const d: ScheduleDraft = {
    tenantId: TENANT,
    key: 'report',
    spec: '*/5 * * * *',
    specKind: 'cron',
    tz: 'UTC',
    target: { handler: 'job' },
    payload: null,
    policies: DEFAULT_POLICIES,
    startAt: null,
    endAt: null,
    maxRuns: null,
    jitterMs: 0,
    description: '',
    summary: null,
    labels: {},
    dst: null,
    calendarRules: null,
    expect: null,
    ...overrides,
  };
  return overrides.description === undefined
    ? { ...d, description: describeStoredSpec(d.spec, d.specKind, d.tz) }
    : d;
}

/** A run insert; pass `schedule` to take tenant, id, key, version, overlap and priority from it. */
export function runInsert(overrides: Partial<RunInsert> & { schedule?: Schedule } = {}): RunInsert {
  const { schedule, ...rest } = overrides;
  const scheduledFor = rest.scheduledFor ?? T0;
  return {
    tenantId: schedule?.tenantId ?? TENANT,
    scheduleId: schedule?.id ?? '1',
    scheduleKey: schedule?.key ?? 'report',
    scheduleVersion: schedule?.version ?? 1,
    kind: 'scheduled',
    unique: true,
    scheduledFor,
    dueAt: scheduledFor,
    expiresAt: null,
    priority: schedule?.policies.priority ?? 0,
    maxAttempts: schedule?.policies.retry.maxAttempts ?? 3,
    overlap: schedule?.policies.overlap ?? 'allow',
    payload: null,
    state: 'scheduled',
    reason: null,
    details: null,
    ...rest,
  };
}

/** A run as a worker holds it after its claim (state running, first attempt). */
export function runningRun(overrides: Partial<Run> = {}): Run {
  return {
    id: '1',
    tenantId: TENANT,
    scheduleId: '1',
    scheduleKey: 'report',
    scheduleVersion: 1,
    occurrenceId: `1:${T0}`,
    kind: 'scheduled',
    state: 'running',
    scheduledFor: T0,
    dueAt: T0,
    expiresAt: null,
    priority: 0,
    attempt: 1,
    maxAttempts: 3,
    checks: 0,
    payload: null,
    reason: null,
    error: null,
    result: null,
    details: null,
    createdAt: T0,
    startedAt: T0,
    finishedAt: null,
    leaseOwner: 'worker-1',
    leaseExpiresAt: T0 + 60_000,
    ...overrides,
  };
}
