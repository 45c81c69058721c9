// Row → domain decoding shared by both stores: schedule, run, attempt, revision, tenant and API key rows
// become domain objects here, once. A dialect says only how its JSON columns arrive (JsonColumn: parsed already, or text);
// integers may arrive as numbers or as text (BIGINT) and are coerced here. Pure: it must never run a
// statement or read a clock, and never know a dialect's row type beyond the shapes below.

import type { Json } from '../../domain/json.js';
import type { Attempt, Run, RunError, RunKind, RunReason, RunState } from '../../domain/run.js';
import type { Schedule, ScheduleDraft, ScheduleState } from '../../domain/schedule.js';
import type { ScheduleExpect } from '../../domain/schedule-expect.js';
import type { ScheduleRevision } from '../../domain/schedule-revision.js';
import type { CalendarRules } from '../../domain/calendar/calendar-rules.js';
import type { SpecKind } from '../../domain/timing/compiled-spec.js';
import type { DstChoice } from '../../domain/timing/dst-choice.js';
import type { Target } from '../../domain/target.js';
import { describeStoredSpec } from '../../domain/timing/describe-spec.js';
import { expandPolicies } from '../stored-policies.js';
import { storedOccurrenceId } from './occurrence-id.js';
import { restoreRevision } from '../stored-revision.js';
import type { ApiKey, Tenant, TenantState } from '../tenant-store.js';

/**
 * What a schedule row's `description` column keeps: nothing. The description is derived from the spec, its
 * form and zone on every read (describeStoredSpec); rows of older releases keep their text, which is read past.
 */
export const STORED_DESCRIPTION = '';

/** The zone a schedule row's NULL (PostgreSQL, migration 26) or empty (SQLite, 0023) `tz` stands for. */
export const STORED_DEFAULT_TZ = 'UTC';

/** A JSON column's value as the driver returns it → the value (null for SQL NULL). */
export type JsonColumn = <T>(v: unknown) => T | null;

/** An integer column: a number, or text where the driver keeps BIGINT exact. */
type Int = number | string;

/** The schedule columns decoding reads; a dialect's row type must be assignable to it. */
export interface ScheduleRowShape {
  id: Int;
  tenant_id: string;
  key: string;
  spec: string;
  spec_kind: string;
  /** NULL for UTC (PostgreSQL, migration 26). */
  tz: string | null;
  target: unknown;
  payload: unknown;
  policies: unknown;
  start_at: Int | null;
  end_at: Int | null;
  max_runs: number | null;
  /** NULL for 0 (PostgreSQL, migration 26). */
  jitter_ms: Int | null;
  description: string | null;
  state: string;
  version: number;
  next_fire_at: Int | null;
  fired_count: Int;
  summary: string | null;
  labels: unknown;
  dst: unknown;
  calendar_rules: unknown;
  expect: unknown;
  /** NULL for 0 (PostgreSQL, migration 26). */
  executed_count: Int | null;
  last_fired_at: Int | null;
  last_succeeded_at: Int | null;
  paused_at: Int | null;
  paused_until: Int | null;
  note: string | null;
  created_at: Int;
  /** NULL until the first change (PostgreSQL, migration 26): the creation instant. */
  updated_at: Int | null;
}

/** The run columns decoding reads. */
export interface RunRowShape {
  id: Int;
  tenant_id: string;
  schedule_id: Int;
  schedule_key: string;
  schedule_version: number;
  occurrence_id: string | null;
  kind: string;
  state: string;
  scheduled_for: Int;
  due_at: Int;
  expires_at: Int | null;
  priority: number;
  attempt: number;
  max_attempts: number;
  checks: number;
  payload: unknown;
  reason: string | null;
  error: unknown;
  result: unknown;
  details: unknown;
  created_at: Int;
  started_at: Int | null;
  finished_at: Int | null;
  lease_owner: string | null;
  lease_expires_at: Int | null;
}

/** The attempt columns decoding reads. */
export interface AttemptRowShape {
  run_id: Int;
  attempt: number;
  worker_id: string;
  started_at: Int;
  finished_at: Int;
  outcome: string;
  error: unknown;
  result: unknown;
}

export interface TenantRowShape {
  id: string;
  state: string;
  max_schedules: number | null;
  max_runs_per_minute: number | null;
  requests_per_second: number | null;
  webhook_secret: string;
  previous_webhook_secret: string | null;
  previous_secret_until: Int | null;
  created_at: Int;
  updated_at: Int;
}

export interface ApiKeyRowShape {
  id: Int;
  tenant_id: string;
  prefix: string;
  hash: string;
  name: string | null;
  created_at: Int;
  revoked_at: Int | null;
  last_used_at: Int | null;
}

/** The schedule revision columns decoding reads. */
export interface RevisionRowShape {
  seq: Int;
  tenant_id: string;
  key: string;
  schedule_id: Int;
  version: number;
  at: Int;
  actor: string | null;
  change: string;
  from_version: number | null;
  state: string;
  diff: unknown;
  content: unknown;
}

const num = (v: Int): number => Number(v);
const numOrNull = (v: Int | null): number | null => (v === null ? null : Number(v));

/** The draft a schedule row holds (what a put compares with). */
export function decodeDraft(row: ScheduleRowShape, json: JsonColumn): ScheduleDraft {
  const tz = row.tz || STORED_DEFAULT_TZ;
  return {
    tenantId: row.tenant_id,
    key: row.key,
    spec: row.spec,
    specKind: row.spec_kind as SpecKind,
    tz,
    target: json<Target>(row.target)!,
    payload: json<Json>(row.payload),
    policies: expandPolicies(json(row.policies)),
    startAt: numOrNull(row.start_at),
    endAt: numOrNull(row.end_at),
    maxRuns: row.max_runs,
    jitterMs: row.jitter_ms === null ? 0 : num(row.jitter_ms),
    description: describeStoredSpec(row.spec, row.spec_kind as SpecKind, tz),
    summary: row.summary,
    labels: json<Record<string, string>>(row.labels) ?? {},
    dst: json<DstChoice>(row.dst),
    calendarRules: json<CalendarRules>(row.calendar_rules),
    expect: json<ScheduleExpect>(row.expect),
  };
}

export function decodeSchedule(row: ScheduleRowShape, json: JsonColumn): Schedule {
  return {
    id: String(row.id),
    ...decodeDraft(row, json),
    state: row.state as ScheduleState,
    version: row.version,
    nextFireAt: numOrNull(row.next_fire_at),
    materializedCount: num(row.fired_count),
    firedCount: row.executed_count === null ? 0 : num(row.executed_count),
    lastFiredAt: numOrNull(row.last_fired_at),
    lastSucceededAt: numOrNull(row.last_succeeded_at),
    pausedAt: numOrNull(row.paused_at),
    pausedUntil: numOrNull(row.paused_until),
    note: row.note,
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at ?? row.created_at),
  };
}

export function decodeRun(row: RunRowShape, json: JsonColumn): Run {
  return {
    id: String(row.id),
    tenantId: row.tenant_id,
    scheduleId: String(row.schedule_id),
    scheduleKey: row.schedule_key,
    scheduleVersion: row.schedule_version,
    // Derived (common/occurrence-id.ts); rows written before this release keep the same text.
    occurrenceId: row.occurrence_id ?? storedOccurrenceId(row),
    kind: row.kind as RunKind,
    state: row.state as RunState,
    scheduledFor: num(row.scheduled_for),
    dueAt: num(row.due_at),
    expiresAt: numOrNull(row.expires_at),
    priority: row.priority,
    attempt: row.attempt,
    maxAttempts: row.max_attempts,
    checks: row.checks,
    payload: json<Json>(row.payload),
    reason: row.reason as RunReason | null,
    error: json<RunError>(row.error),
    result: json<Json>(row.result),
    details: json<Record<string, Json>>(row.details),
    createdAt: num(row.created_at),
    startedAt: numOrNull(row.started_at),
    finishedAt: numOrNull(row.finished_at),
    leaseOwner: row.lease_owner,
    leaseExpiresAt: numOrNull(row.lease_expires_at),
  };
}

export function decodeAttempt(row: AttemptRowShape, json: JsonColumn): Attempt {
  return {
    runId: String(row.run_id),
    attempt: row.attempt,
    workerId: row.worker_id,
    startedAt: num(row.started_at),
    finishedAt: num(row.finished_at),
    outcome: row.outcome as Attempt['outcome'],
    error: json<RunError>(row.error),
    result: json<Json>(row.result),
  };
}

/** A revision; `current` is the schedule its NULL content derives from (undefined: none at its version). */
export function decodeRevision(
  r: RevisionRowShape,
  json: JsonColumn,
  current: Schedule | undefined,
): ScheduleRevision {
  const { diff, content } = restoreRevision(
    {
      diff: json<ScheduleRevision['diff']>(r.diff),
      content: json<ScheduleRevision['content']>(r.content),
      current,
    },
    r,
  );
  return {
    seq: num(r.seq),
    scheduleId: String(r.schedule_id),
    tenantId: r.tenant_id,
    key: r.key,
    version: r.version,
    at: num(r.at),
    actor: r.actor,
    change: r.change as ScheduleRevision['change'],
    fromVersion: r.from_version,
    state: r.state as ScheduleRevision['state'],
    diff,
    content,
  };
}

export function decodeTenant(r: TenantRowShape): Tenant {
  return {
    id: r.id,
    state: r.state as TenantState,
    quotas: {
      maxSchedules: r.max_schedules,
      maxRunsPerMinute: r.max_runs_per_minute,
      requestsPerSecond: r.requests_per_second,
    },
    webhookSecret: r.webhook_secret,
    previousWebhookSecret: r.previous_webhook_secret,
    previousSecretUntil: numOrNull(r.previous_secret_until),
    createdAt: num(r.created_at),
    updatedAt: num(r.updated_at),
  };
}

export function decodeApiKey(r: ApiKeyRowShape): ApiKey {
  return {
    id: String(r.id),
    tenantId: r.tenant_id,
    prefix: r.prefix,
    hash: r.hash,
    name: r.name,
    createdAt: num(r.created_at),
    revokedAt: numOrNull(r.revoked_at),
    lastUsedAt: numOrNull(r.last_used_at),
  };
}
