// Translation between PostgreSQL rows and domain objects: row shapes, row → Schedule / Run / Attempt, the
// stable JSON used to compare drafts, and the opaque page cursors. Pure functions only: it must never run a
// query or read a clock.

import { PunctualError } from '../../errors.js';
import type { ScheduleExpect } from '../../domain/schedule-expect.js';
import type { Json } from '../../domain/json.js';
import type { Attempt, Run, RunError, RunKind, RunReason, RunState } from '../../domain/run.js';
import { expandPolicies } from '../stored-policies.js';
import type { Schedule, ScheduleDraft, ScheduleState } from '../../domain/schedule.js';
import type { SpecKind } from '../../domain/timing/compiled-spec.js';
import type { DstChoice } from '../../domain/timing/dst-choice.js';
import type { CalendarRules } from '../../domain/calendar/calendar-rules.js';
import type { Target } from '../../domain/target.js';
import type { ApiKey, Tenant, TenantState } from '../tenant-store.js';

/** A positive BIGINT in text: what a run or schedule id looks like. */
export const ID_RE = /^[1-9][0-9]{0,17}$/;

/** BIGINT arrives as a number while exact (ids beyond 2^53 as text). */
type Int8 = number | string;

export interface ScheduleRow {
  id: Int8;
  tenant_id: string;
  key: string;
  spec: string;
  spec_kind: string;
  tz: string;
  target: Target;
  target_kind: string;
  payload: Json | null;
  policies: unknown; // compact (store/stored-policies.ts) or, in older rows, written out in full
  overlap: string;
  start_at: Int8 | null;
  end_at: Int8 | null;
  max_runs: number | null;
  jitter_ms: Int8;
  description: string;
  state: string;
  version: number;
  next_fire_at: Int8 | null;
  fired_count: Int8;
  summary: string | null;
  labels: Record<string, string>;
  dst: DstChoice | null;
  calendar_rules: CalendarRules | null;
  expect: ScheduleExpect | null;
  executed_count: Int8;
  last_fired_at: Int8 | null;
  last_succeeded_at: Int8 | null;
  paused_at: Int8 | null;
  paused_until: Int8 | null;
  note: string | null;
  claimed_until: Int8 | null;
  created_at: Int8;
  updated_at: Int8;
}

export interface RunRow {
  id: Int8;
  tenant_id: string;
  schedule_id: Int8;
  schedule_key: string;
  schedule_version: number;
  occurrence_key: string | null;
  occurrence_id: string | null;
  kind: string;
  state: string;
  scheduled_for: Int8;
  due_at: Int8;
  expires_at: Int8 | null;
  priority: number;
  attempt: number;
  max_attempts: number;
  checks: number;
  overlap: string;
  payload: Json | null;
  reason: string | null;
  error: RunError | null;
  result: Json | null;
  details: Record<string, Json> | null;
  created_at: Int8;
  started_at: Int8 | null;
  finished_at: Int8 | null;
  lease_owner: string | null;
  lease_token: string | null;
  lease_expires_at: Int8 | null;
  attempt_started_at: Int8 | null;
  /** The worker of the successful attempt kept on this row (migration 5); only `SELECT *` reads it. */
  succeeded_by?: string | null;
  not_fired_reported: boolean;
}

export interface AttemptRow {
  run_id: Int8;
  attempt: number;
  worker_id: string;
  started_at: Int8;
  finished_at: Int8;
  outcome: string;
  error: RunError | null;
  result: Json | null;
}

export interface TenantRow {
  id: string;
  state: string;
  max_schedules: number | null;
  max_runs_per_minute: number | null;
  requests_per_second: number | null;
  webhook_secret: string;
  previous_webhook_secret: string | null;
  previous_secret_until: Int8 | null;
  created_at: Int8;
  updated_at: Int8;
}

export interface ApiKeyRow {
  id: Int8;
  tenant_id: string;
  prefix: string;
  hash: string;
  name: string | null;
  created_at: Int8;
  revoked_at: Int8 | null;
  last_used_at: Int8 | null;
}

/** The columns of `runs`, listed rather than `*` so a prepared statement's result type never changes. */
export const RUN_COLUMNS: readonly (keyof RunRow)[] = [
  'id',
  'tenant_id',
  'schedule_id',
  'schedule_key',
  'schedule_version',
  'occurrence_key',
  'occurrence_id',
  'kind',
  'state',
  'scheduled_for',
  'due_at',
  'expires_at',
  'priority',
  'attempt',
  'max_attempts',
  'checks',
  'overlap',
  'payload',
  'reason',
  'error',
  'result',
  'details',
  'created_at',
  'started_at',
  'finished_at',
  'lease_owner',
  'lease_token',
  'lease_expires_at',
  'attempt_started_at',
  'not_fired_reported',
];

/** The columns of `schedules`, listed for the same reason. */
export const SCHEDULE_COLUMNS: readonly (keyof ScheduleRow)[] = [
  'id',
  'tenant_id',
  'key',
  'spec',
  'spec_kind',
  'tz',
  'target',
  'target_kind',
  'payload',
  'policies',
  'overlap',
  'start_at',
  'end_at',
  'max_runs',
  'jitter_ms',
  'description',
  'state',
  'version',
  'next_fire_at',
  'fired_count',
  'summary',
  'labels',
  'dst',
  'calendar_rules',
  'expect',
  'executed_count',
  'last_fired_at',
  'last_succeeded_at',
  'paused_at',
  'paused_until',
  'note',
  'claimed_until',
  'created_at',
  'updated_at',
];

/** A column list for SQL, each column qualified by `alias`. */
export function columns(list: readonly string[], alias: string): string {
  return list.map((c) => `${alias}.${c}`).join(', ');
}

const num = (v: Int8): number => Number(v);
const numOrNull = (v: Int8 | null): number | null => (v === null ? null : Number(v));

export function draftOf(row: ScheduleRow): ScheduleDraft {
  return {
    tenantId: row.tenant_id,
    key: row.key,
    spec: row.spec,
    specKind: row.spec_kind as SpecKind,
    tz: row.tz,
    target: row.target,
    payload: row.payload,
    policies: expandPolicies(row.policies),
    startAt: numOrNull(row.start_at),
    endAt: numOrNull(row.end_at),
    maxRuns: row.max_runs,
    jitterMs: num(row.jitter_ms),
    description: row.description,
    summary: row.summary,
    labels: row.labels,
    dst: row.dst ?? null,
    calendarRules: row.calendar_rules ?? null,
    expect: row.expect ?? null,
  };
}

export function toSchedule(row: ScheduleRow): Schedule {
  return {
    id: String(row.id),
    ...draftOf(row),
    state: row.state as ScheduleState,
    version: row.version,
    nextFireAt: numOrNull(row.next_fire_at),
    materializedCount: num(row.fired_count),
    firedCount: num(row.executed_count),
    lastFiredAt: numOrNull(row.last_fired_at),
    lastSucceededAt: numOrNull(row.last_succeeded_at),
    pausedAt: numOrNull(row.paused_at),
    pausedUntil: numOrNull(row.paused_until),
    note: row.note,
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
  };
}

export function toRun(row: RunRow): Run {
  return {
    id: String(row.id),
    tenantId: row.tenant_id,
    scheduleId: String(row.schedule_id),
    scheduleKey: row.schedule_key,
    scheduleVersion: row.schedule_version,
    // Kept when occurrence_key is released; runs that are not unique occurrences get one of their own.
    occurrenceId: row.occurrence_id ?? `${row.schedule_id}:manual:${row.id}`,
    kind: row.kind as RunKind,
    state: row.state as RunState,
    scheduledFor: num(row.scheduled_for),
    dueAt: num(row.due_at),
    expiresAt: numOrNull(row.expires_at),
    priority: row.priority,
    attempt: row.attempt,
    maxAttempts: row.max_attempts,
    checks: row.checks,
    payload: row.payload,
    reason: row.reason as RunReason | null,
    error: row.error,
    result: row.result,
    details: row.details,
    createdAt: num(row.created_at),
    startedAt: numOrNull(row.started_at),
    finishedAt: numOrNull(row.finished_at),
    leaseOwner: row.lease_owner,
    leaseExpiresAt: numOrNull(row.lease_expires_at),
  };
}

export function toAttempt(row: AttemptRow): Attempt {
  return {
    runId: String(row.run_id),
    attempt: row.attempt,
    workerId: row.worker_id,
    startedAt: num(row.started_at),
    finishedAt: num(row.finished_at),
    outcome: row.outcome as Attempt['outcome'],
    error: row.error,
    result: row.result,
  };
}

export function toTenant(r: TenantRow): Tenant {
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

export function toApiKey(r: ApiKeyRow): ApiKey {
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

/** JSON for a JSONB parameter (null stays SQL NULL). */
export function jsonParam(v: unknown): string | null {
  return v === null || v === undefined ? null : JSON.stringify(v);
}

export function encodeCursor(parts: (string | number)[]): string {
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

/** Decodes a cursor made by encodeCursor with the given shape; CURSOR_INVALID otherwise. */
export function decodeCursor<T extends readonly (string | number)[]>(
  cursor: string,
  shape: readonly ('string' | 'number')[],
): T {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    v = undefined;
  }
  if (!Array.isArray(v) || v.length !== shape.length || v.some((x, i) => typeof x !== shape[i])) {
    throw new PunctualError('CURSOR_INVALID', 'the page cursor is not one this listing returned', { cursor });
  }
  return v as unknown as T;
}
