// Row ↔ domain mapping for the SQLite store: snake_case columns become camelCase fields, INTEGER ids become
// strings, JSON text becomes values, and opaque page cursors are encoded here. Pure functions only: this
// module must never run a statement or read a clock.

import { PunctualError } from '../../errors.js';
import type { ScheduleExpect } from '../../domain/schedule-expect.js';
import type { Json } from '../../domain/json.js';
import type { Attempt, Run, RunError, RunKind, RunReason, RunState } from '../../domain/run.js';
import { expandPolicies } from '../stored-policies.js';
import type { Schedule, ScheduleState } from '../../domain/schedule.js';
import type { SpecKind } from '../../domain/timing/compiled-spec.js';
import type { DstChoice } from '../../domain/timing/dst-choice.js';
import type { CalendarRules } from '../../domain/calendar/calendar-rules.js';
import type { Target } from '../../domain/target.js';
import type { ApiKey, Tenant, TenantState } from '../tenant-store.js';

export interface ScheduleRow {
  id: number;
  tenant_id: string;
  key: string;
  spec: string;
  spec_kind: string;
  tz: string;
  target_kind: string;
  target: string;
  payload: string | null;
  policies: string;
  overlap: string;
  start_at: number | null;
  end_at: number | null;
  max_runs: number | null;
  jitter_ms: number;
  description: string;
  state: string;
  version: number;
  next_fire_at: number | null;
  fired_count: number;
  summary: string | null;
  labels: string;
  dst: string | null;
  calendar_rules: string | null;
  expect: string | null;
  executed_count: number;
  last_fired_at: number | null;
  last_succeeded_at: number | null;
  paused_at: number | null;
  paused_until: number | null;
  note: string | null;
  claimed_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface RunRow {
  id: number;
  tenant_id: string;
  schedule_id: number;
  schedule_key: string;
  schedule_version: number;
  occurrence_key: string | null;
  occurrence_id: string | null;
  kind: string;
  state: string;
  scheduled_for: number;
  due_at: number;
  expires_at: number | null;
  priority: number;
  attempt: number;
  max_attempts: number;
  checks: number;
  overlap: string;
  payload: string | null;
  reason: string | null;
  error: string | null;
  result: string | null;
  details: string | null;
  lease_owner: string | null;
  lease_token: string | null;
  lease_expires_at: number | null;
  attempt_started_at: number | null;
  not_fired_reported: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface AttemptRow {
  run_id: number;
  attempt: number;
  worker_id: string;
  started_at: number;
  finished_at: number;
  outcome: string;
  error: string | null;
  result: string | null;
}

export interface TenantRow {
  id: string;
  state: string;
  max_schedules: number | null;
  max_runs_per_minute: number | null;
  requests_per_second: number | null;
  webhook_secret: string;
  previous_webhook_secret: string | null;
  previous_secret_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface ApiKeyRow {
  id: number;
  tenant_id: string;
  prefix: string;
  hash: string;
  name: string | null;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
}

/** JSON text for a column; null stays SQL NULL. */
export function toJson(v: unknown): string | null {
  return v === null || v === undefined ? null : JSON.stringify(v);
}

export function fromJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/** A domain id as the INTEGER key, or undefined when it cannot name a row. */
export function parseId(id: string): number | undefined {
  if (!/^[1-9]\d{0,15}$/.test(id)) return undefined;
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : undefined;
}

export function toSchedule(r: ScheduleRow): Schedule {
  return {
    id: String(r.id),
    tenantId: r.tenant_id,
    key: r.key,
    spec: r.spec,
    specKind: r.spec_kind as SpecKind,
    tz: r.tz,
    target: JSON.parse(r.target) as Target,
    payload: fromJson<Json>(r.payload),
    policies: expandPolicies(JSON.parse(r.policies)),
    startAt: r.start_at,
    endAt: r.end_at,
    maxRuns: r.max_runs,
    jitterMs: r.jitter_ms,
    description: r.description,
    summary: r.summary,
    labels: JSON.parse(r.labels) as Record<string, string>,
    dst: r.dst === null ? null : (JSON.parse(r.dst) as DstChoice),
    calendarRules: r.calendar_rules == null ? null : (JSON.parse(r.calendar_rules) as CalendarRules),
    expect: r.expect == null ? null : (JSON.parse(r.expect) as ScheduleExpect),
    state: r.state as ScheduleState,
    version: r.version,
    nextFireAt: r.next_fire_at,
    materializedCount: r.fired_count,
    firedCount: r.executed_count,
    lastFiredAt: r.last_fired_at,
    lastSucceededAt: r.last_succeeded_at,
    pausedAt: r.paused_at,
    pausedUntil: r.paused_until,
    note: r.note,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function toRun(r: RunRow): Run {
  return {
    id: String(r.id),
    tenantId: r.tenant_id,
    scheduleId: String(r.schedule_id),
    scheduleKey: r.schedule_key,
    scheduleVersion: r.schedule_version,
    occurrenceId: r.occurrence_id ?? `${r.schedule_id}:manual:${r.id}`,
    kind: r.kind as RunKind,
    state: r.state as RunState,
    scheduledFor: r.scheduled_for,
    dueAt: r.due_at,
    expiresAt: r.expires_at,
    priority: r.priority,
    attempt: r.attempt,
    maxAttempts: r.max_attempts,
    checks: r.checks,
    payload: fromJson<Json>(r.payload),
    reason: r.reason as RunReason | null,
    error: fromJson<RunError>(r.error),
    result: fromJson<Json>(r.result),
    details: fromJson<Record<string, Json>>(r.details),
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    leaseOwner: r.lease_owner,
    leaseExpiresAt: r.lease_expires_at,
  };
}

export function toAttempt(r: AttemptRow): Attempt {
  return {
    runId: String(r.run_id),
    attempt: r.attempt,
    workerId: r.worker_id,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    outcome: r.outcome as Attempt['outcome'],
    error: fromJson<RunError>(r.error),
    result: fromJson<Json>(r.result),
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
    previousSecretUntil: r.previous_secret_until,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function toApiKey(r: ApiKeyRow): ApiKey {
  return {
    id: String(r.id),
    tenantId: r.tenant_id,
    prefix: r.prefix,
    hash: r.hash,
    name: r.name,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
    lastUsedAt: r.last_used_at,
  };
}

/** Opaque page cursor: base64url JSON of the last item's sort key. */
export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

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
