// SQLite rows: their shapes, JSON text for a column, INTEGER keys from domain ids, and how JSON columns
// arrive (text) for the shared decoding (store/common/row-decoding.ts). Pure functions only: this module
// must never run a statement or read a clock.

import type { Attempt, Run } from '../../domain/run.js';
import type { Schedule } from '../../domain/schedule.js';
import type { ApiKey, Tenant } from '../tenant-store.js';
import {
  decodeApiKey,
  decodeAttempt,
  decodeRun,
  decodeSchedule,
  decodeTenant,
  type ApiKeyRowShape,
  type JsonColumn,
  type TenantRowShape,
} from '../common/row-decoding.js';
import type { ExecutionColumns } from './sqlite-executions.js';

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
  paused_at: number | null;
  paused_until: number | null;
  note: string | null;
  claimed_until: number | null;
  created_at: number;
  updated_at: number;
}

/** A schedule as read: its row and its executed counts (schedule_executions, sqlite-executions.ts). */
export type ScheduleReadRow = ScheduleRow & ExecutionColumns;

export interface RunRow {
  id: number;
  tenant_id: string;
  schedule_id: number;
  schedule_key: string;
  schedule_version: number;
  holds_occurrence: number | null;
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
  /** A success's attempt kept on the run row (migration 0020): its worker and end; NULL otherwise. */
  succeeded_by: string | null;
  attempt_finished_at: number | null;
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

export type TenantRow = TenantRowShape;

export type ApiKeyRow = ApiKeyRowShape;

/** JSON text for a column; null stays SQL NULL. */
export function toJson(v: unknown): string | null {
  return v === null || v === undefined ? null : JSON.stringify(v);
}

export function fromJson<T>(text: string | null): T | null {
  // An empty text is a schedule's policies or labels left at their default (migration 0023).
  return text === null || text === '' ? null : (JSON.parse(text) as T);
}

/** A domain id as the INTEGER key, or undefined when it cannot name a row. */
export function parseId(id: string): number | undefined {
  if (!/^[1-9]\d{0,15}$/.test(id)) return undefined;
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** JSON columns are text in SQLite. */
export const sqliteJson: JsonColumn = <T>(v: unknown) => fromJson<T>(v as string | null);

export const toSchedule = (r: ScheduleReadRow): Schedule => decodeSchedule(r, sqliteJson);
export const toRun = (r: RunRow): Run => decodeRun(r, sqliteJson);
export const toAttempt = (r: AttemptRow): Attempt => decodeAttempt(r, sqliteJson);
export const toTenant: (r: TenantRow) => Tenant = decodeTenant;
export const toApiKey: (r: ApiKeyRow) => ApiKey = decodeApiKey;
