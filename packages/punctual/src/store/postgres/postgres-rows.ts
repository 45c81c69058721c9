// PostgreSQL rows: their shapes and column lists, and how their JSONB columns arrive (parsed) for the shared
// decoding (store/common/row-decoding.ts). Pure functions only: it must never run a query or read a clock.

import type { ScheduleExpect } from '../../domain/schedule-expect.js';
import type { Json } from '../../domain/json.js';
import type { Attempt, Run, RunError } from '../../domain/run.js';
import type { Schedule, ScheduleDraft } from '../../domain/schedule.js';
import type { DstChoice } from '../../domain/timing/dst-choice.js';
import type { CalendarRules } from '../../domain/calendar/calendar-rules.js';
import type { Target } from '../../domain/target.js';
import type { ApiKey, Tenant } from '../tenant-store.js';
import {
  decodeApiKey,
  decodeAttempt,
  decodeDraft,
  decodeRun,
  decodeSchedule,
  decodeTenant,
  type ApiKeyRowShape,
  type JsonColumn,
  type TenantRowShape,
} from '../common/row-decoding.js';

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
  tz: string | null; // NULL for UTC (migration 26)
  target: Target;
  target_kind: string;
  payload: Json | null;
  policies: unknown; // compact (store/stored-policies.ts), NULL for `{}` (migration 26), or, in older rows, written out in full
  overlap: string | null; // the policies' overlap in older rows; NULL since migration 26 (never read)
  start_at: Int8 | null;
  end_at: Int8 | null;
  max_runs: number | null;
  jitter_ms: Int8 | null; // NULL for 0 (migration 26), as are `labels` `{}` and `executed_count` 0
  description: string | null;
  state: string;
  version: number;
  next_fire_at: Int8 | null;
  fired_count: Int8;
  summary: string | null;
  labels: Record<string, string> | null;
  dst: DstChoice | null;
  calendar_rules: CalendarRules | null;
  expect: ScheduleExpect | null;
  executed_count: Int8 | null;
  last_fired_at: Int8 | null;
  last_succeeded_at: Int8 | null;
  paused_at: Int8 | null;
  paused_until: Int8 | null;
  note: string | null;
  claimed_until: Int8 | null;
  created_at: Int8;
  updated_at: Int8 | null; // NULL until the first change (migration 26)
}

export interface RunRow {
  id: Int8;
  tenant_id: string;
  schedule_id: Int8;
  schedule_key: string;
  schedule_version: number;
  /** TRUE while the run blocks a duplicate of its occurrence, NULL otherwise (migration 27). */
  holds_occurrence: boolean | null;
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

export type TenantRow = TenantRowShape;

export type ApiKeyRow = ApiKeyRowShape;

/** The columns of `runs`, listed rather than `*` so a prepared statement's result type never changes. */
export const RUN_COLUMNS: readonly (keyof RunRow)[] = [
  'id',
  'tenant_id',
  'schedule_id',
  'schedule_key',
  'schedule_version',
  'holds_occurrence',
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

/** The execution counts, kept apart from the wide row since migration 22 (postgres-executions.ts). */
const EXECUTION_COLUMNS = new Set<string>(['executed_count', 'last_fired_at', 'last_succeeded_at']);

/**
 * The columns of schedule `alias` as the decoding reads them, in a SELECT or a RETURNING: the execution counts
 * add schedule_executions to what the row still holds (written before migration 22, or by older instances
 * during a rolling deploy): the counts summed, the instants the later. One probe of its primary key per
 * column; nothing there (never executed) reads as 0 and null.
 */
export function scheduleColumns(s: string, alias: string): string {
  const of = (col: string) =>
    `(SELECT x.${col} FROM ${s}.schedule_executions AS x WHERE x.schedule_id = ${alias}.id)`;
  return [
    columns(
      SCHEDULE_COLUMNS.filter((c) => !EXECUTION_COLUMNS.has(c)),
      alias,
    ),
    `coalesce(${alias}.executed_count, 0) + coalesce(${of('executed_count')}, 0) AS executed_count`,
    `greatest(${alias}.last_fired_at, ${of('last_fired_at')}) AS last_fired_at`,
    `greatest(${alias}.last_succeeded_at, ${of('last_succeeded_at')}) AS last_succeeded_at`,
  ].join(', ');
}

/** A column list for SQL, each column qualified by `alias`. */
export function columns(list: readonly string[], alias: string): string {
  return list.map((c) => `${alias}.${c}`).join(', ');
}

/** JSONB arrives parsed: only SQL NULL (or a column not selected) needs mapping. */
export const pgJson: JsonColumn = <T>(v: unknown) => (v ?? null) as T | null;

export const draftOf = (row: ScheduleRow): ScheduleDraft => decodeDraft(row, pgJson);
export const toSchedule = (row: ScheduleRow): Schedule => decodeSchedule(row, pgJson);
export const toRun = (row: RunRow): Run => decodeRun(row, pgJson);
export const toAttempt = (row: AttemptRow): Attempt => decodeAttempt(row, pgJson);
export const toTenant: (r: TenantRow) => Tenant = decodeTenant;
export const toApiKey: (r: ApiKeyRow) => ApiKey = decodeApiKey;

/** JSON for a JSONB parameter (null stays SQL NULL). */
export function jsonParam(v: unknown): string | null {
  return v === null || v === undefined ? null : JSON.stringify(v);
}
