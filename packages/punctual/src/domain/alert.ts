// Alerts: the kinds of condition that open one, their states, and the shapes of an alert, an alert channel,
// a check and a delivery of an alert to a channel. The lists here are the one source every layer (store,
// server schemas, dashboard) derives from. Pure types and constants: it must never perform I/O or read a
// clock.

import type { DeadlineSpec } from './deadline-check.js';
import type { Json } from './json.js';

/** Every kind of alert. */
export const ALERT_KINDS = [
  'expectation_breached',
  'heartbeat_missed',
  'deadline_missed',
  'schedule_not_fired',
  'run_dead',
  'failure_rate',
  'spec_exhausted',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** An alert is open until its condition clears, then resolved (for good: a new breach opens a new alert). */
export const ALERT_STATES = ['open', 'resolved'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/** What an alert is about: one of the tenant's schedules (by key) or one of its checks (by name). */
export const ALERT_SUBJECT_KINDS = ['schedule', 'check'] as const;
export type AlertSubjectKind = (typeof ALERT_SUBJECT_KINDS)[number];

/**
 * The kinds about a schedule that its next successful run clears. Not `expectation_breached` (cleared when an
 * occurrence succeeds within its window), `failure_rate` (when the rate drops below the threshold) nor
 * `spec_exhausted` (when the schedule is changed or deleted).
 */
export const CLEARED_BY_SUCCESS: readonly AlertKind[] = ['run_dead', 'schedule_not_fired'];

export interface Alert {
  id: string;
  tenantId: string;
  kind: AlertKind;
  subjectKind: AlertSubjectKind;
  /** The schedule key or the check name. */
  subject: string;
  state: AlertState;
  openedAt: number;
  resolvedAt: number | null;
  /** One line for people (the channel messages use it). */
  summary: string;
  /** What the condition saw when it opened (the run id, the last heartbeat...). */
  details: Json;
}

/** A condition that holds: opens an alert unless one of this kind is open for the subject already. */
export interface AlertCondition {
  tenantId: string;
  kind: AlertKind;
  subjectKind: AlertSubjectKind;
  subject: string;
  summary: string;
  details: Json;
}

/** A condition that cleared: resolves the open alerts of these kinds about the subject. */
export interface AlertClearance {
  tenantId: string;
  subjectKind: AlertSubjectKind;
  subject: string;
  kinds: readonly AlertKind[];
}

/** Every kind of alert channel. */
export const ALERT_CHANNEL_KINDS = ['webhook', 'slack', 'pagerduty'] as const;
export type AlertChannelKind = (typeof ALERT_CHANNEL_KINDS)[number];

export interface AlertChannel {
  tenantId: string;
  name: string;
  kind: AlertChannelKind;
  url: string;
  /** The Events API v2 routing key (pagerduty channels only; null otherwise). */
  routingKey: string | null;
  createdAt: number;
  updatedAt: number;
}

/**
 * Every kind of free-standing check: `heartbeat` (a heartbeat must arrive at least every `every`) and
 * `deadline` (a run of a schedule must succeed within `within` of each instant of a spec).
 */
export const CHECK_KINDS = ['heartbeat', 'deadline'] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

export interface Check {
  tenantId: string;
  name: string;
  kind: CheckKind;
  /** A heartbeat must arrive at least this often (ms); null for a deadline check. */
  everyMs: number | null;
  /** A deadline check's schedule, spec, zone and window length; null for a heartbeat check. */
  deadline: DeadlineSpec | null;
  /** The start of the window a deadline check watches (it is judged at start + within); null otherwise. */
  windowStart: number | null;
  lastBeatAt: number | null;
  /**
   * When the check is next evaluated: a heartbeat's due instant (null while its alert is open), a deadline's
   * window close (null once its spec opens no more windows).
   */
  nextCheckAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** An alert transition a channel is told of. */
export const ALERT_TRANSITIONS = ['opened', 'resolved'] as const;
export type AlertTransition = (typeof ALERT_TRANSITIONS)[number];

/** pending: waiting for its (next) attempt; delivered; failed: attempts used up, or its channel was deleted. */
export const ALERT_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type AlertDeliveryState = (typeof ALERT_DELIVERY_STATES)[number];

/** One alert transition to deliver to one channel (the outbox row). */
export interface AlertDelivery {
  id: string;
  alertId: string;
  channel: string;
  transition: AlertTransition;
  state: AlertDeliveryState;
  attempts: number;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  lastError: string | null;
  createdAt: number;
}

/** A delivery claimed for sending, with what the sender needs. */
export interface ClaimedAlertDelivery {
  delivery: AlertDelivery;
  alert: Alert;
  /** null when the channel was deleted since the transition: the delivery is then given up. */
  channel: AlertChannel | null;
  /** Identifies this claim: settling with another (a lapsed, retaken claim) changes nothing. */
  claim: number;
}

/** Attempts per delivery before it is given up (`failed`). */
export const ALERT_DELIVERY_MAX_ATTEMPTS = 8;

/** The wait before attempt `attempts + 1` after `attempts` failed ones: 1 s doubling, capped at 10 min. */
export function alertDeliveryBackoffMs(attempts: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempts - 1), 600_000);
}
