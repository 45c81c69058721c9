// The rows of the alerting tables as both stores read them, and their mapping to domain values. Shared so
// the two stores answer byte-identical objects. It must never run a statement or read a clock.

import type {
  Alert,
  AlertChannel,
  AlertDelivery,
  AlertKind,
  AlertSubjectKind,
  Check,
  CheckKind,
  AlertChannelKind,
} from '../domain/alert.js';
import type { Json } from '../domain/json.js';

export interface AlertRow {
  id: number | string;
  tenant_id: string;
  kind: string;
  subject_kind: string;
  subject: string;
  state: string;
  opened_at: number;
  resolved_at: number | null;
  summary: string;
  /** JSON text. */
  details: string;
}

export interface AlertChannelRow {
  tenant_id: string;
  name: string;
  kind: string;
  url: string;
  routing_key: string | null;
  created_at: number;
  updated_at: number;
}

export interface CheckRow {
  tenant_id: string;
  name: string;
  kind: string;
  every_ms: number;
  last_beat_at: number | null;
  next_check_at: number | null;
  created_at: number;
  updated_at: number;
  /** Deadline checks only (NULL for heartbeats). */
  schedule_key: string | null;
  spec: string | null;
  tz: string | null;
  within_ms: number | null;
  window_start: number | null;
}

export interface AlertDeliveryRow {
  id: number | string;
  alert_id: number | string;
  channel: string;
  transition: string;
  state: string;
  attempts: number;
  next_attempt_at: number | null;
  delivered_at: number | null;
  last_error: string | null;
  created_at: number;
  claim: number;
}

export function toAlert(r: AlertRow): Alert {
  return {
    id: String(r.id),
    tenantId: r.tenant_id,
    kind: r.kind as AlertKind,
    subjectKind: r.subject_kind as AlertSubjectKind,
    subject: r.subject,
    state: r.state as Alert['state'],
    openedAt: Number(r.opened_at),
    resolvedAt: r.resolved_at === null ? null : Number(r.resolved_at),
    summary: r.summary,
    details: JSON.parse(r.details) as Json,
  };
}

export function toAlertChannel(r: AlertChannelRow): AlertChannel {
  return {
    tenantId: r.tenant_id,
    name: r.name,
    kind: r.kind as AlertChannelKind,
    url: r.url,
    routingKey: r.routing_key,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export function toCheck(r: CheckRow): Check {
  return {
    tenantId: r.tenant_id,
    name: r.name,
    kind: r.kind as CheckKind,
    everyMs: r.kind === 'deadline' ? null : Number(r.every_ms),
    deadline:
      r.kind === 'deadline' && r.schedule_key !== null && r.spec !== null && r.within_ms !== null
        ? { schedule: r.schedule_key, spec: r.spec, tz: r.tz ?? 'UTC', withinMs: Number(r.within_ms) }
        : null,
    windowStart: r.window_start === null || r.window_start === undefined ? null : Number(r.window_start),
    lastBeatAt: r.last_beat_at === null ? null : Number(r.last_beat_at),
    nextCheckAt: r.next_check_at === null ? null : Number(r.next_check_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export function toAlertDelivery(r: AlertDeliveryRow): AlertDelivery {
  return {
    id: String(r.id),
    alertId: String(r.alert_id),
    channel: r.channel,
    transition: r.transition as AlertDelivery['transition'],
    state: r.state as AlertDelivery['state'],
    attempts: Number(r.attempts),
    nextAttemptAt: r.next_attempt_at === null ? null : Number(r.next_attempt_at),
    deliveredAt: r.delivered_at === null ? null : Number(r.delivered_at),
    lastError: r.last_error,
    createdAt: Number(r.created_at),
  };
}

/** The summary of a heartbeat check that missed its interval. */
export function heartbeatMissedSummary(c: Check): string {
  return `no heartbeat for check "${c.name}" within ${Math.round((c.everyMs ?? 0) / 1000)}s`;
}

/** A numeric id from an API path, or undefined when it cannot name a row. */
export function alertIdOf(id: string): number | undefined {
  return /^[1-9][0-9]{0,15}$/.test(id) ? Number(id) : undefined;
}
