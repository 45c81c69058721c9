// The alerting part of the store contract: alert channels, checks (heartbeats), alerts and their delivery
// outbox. Every method is atomic and takes `now` as a parameter. An alert opens at most once per condition
// (kind + subject) while it is open: opening is an insert-if-absent on a unique index of open alerts, so any
// number of instances reporting one breach open one alert. Each transition inserts one outbox row per channel
// the tenant has, in the same transaction. Stores validate bodies with domain/alert-input.ts.

import type {
  Alert,
  AlertChannel,
  AlertClearance,
  AlertCondition,
  AlertDelivery,
  AlertState,
  Check,
  ClaimedAlertDelivery,
} from '../domain/alert.js';
import type { AlertChannelInput, CheckInput } from '../domain/alert-input.js';

export interface AlertListQuery {
  tenantId: string;
  state?: AlertState | undefined;
  /** Only alerts about this schedule key. */
  scheduleKey?: string | undefined;
  /** Newest first, at most this many (1-1000). */
  limit: number;
}

/** How an attempt to deliver an alert ended. */
export type AlertDeliveryResult =
  | { ok: true }
  | {
      ok: false;
      error: string;
      /** false: give up now (a refused address, a deleted channel). */ retry: boolean;
    };

export interface AlertStore {
  /** Creates or replaces a channel. Throws ALERT_CHANNEL_INVALID for a bad body; nothing is written then. */
  putAlertChannel(
    tenantId: string,
    input: AlertChannelInput,
    now: number,
  ): Promise<{ channel: AlertChannel; created: boolean }>;
  getAlertChannel(tenantId: string, name: string): Promise<AlertChannel | undefined>;
  /** The tenant's channels by name. */
  listAlertChannels(tenantId: string): Promise<AlertChannel[]>;
  /** False when the tenant has no such channel. Its pending deliveries are given up when next claimed. */
  deleteAlertChannel(tenantId: string, name: string): Promise<boolean>;

  /**
   * Creates or replaces a check (CHECK_INVALID for a bad body, CHECK_DEADLINE_UNMEETABLE for a deadline that
   * can never be met; nothing is written then). A new heartbeat check expects its first heartbeat within
   * `every` of now; replacing one keeps its last heartbeat and re-arms from it. A deadline check watches its
   * first window whose close is ahead of now. A check that changes kind resolves its former kind's alert.
   */
  putCheck(tenantId: string, input: CheckInput, now: number): Promise<{ check: Check; created: boolean }>;
  getCheck(tenantId: string, name: string): Promise<Check | undefined>;
  listChecks(tenantId: string): Promise<Check[]>;
  /** False when the tenant has no such check. Its open alert is resolved. */
  deleteCheck(tenantId: string, name: string, now: number): Promise<boolean>;
  /**
   * Records a heartbeat: re-arms the check for now + every and resolves its open `heartbeat_missed` alert,
   * in one transaction. Undefined (and nothing written) when the tenant has no such heartbeat check.
   */
  recordHeartbeat(tenantId: string, name: string, now: number): Promise<Check | undefined>;
  /**
   * Evaluates up to `limit` checks due at `now`, in one transaction per batch, each taken by one instance
   * only. A heartbeat check opens `heartbeat_missed` and is disarmed until the next heartbeat; a deadline
   * check's window closed: `deadline_missed` opens unless a run of its schedule succeeded in the window (then
   * it resolves), and the next window is armed. Returns the alerts it opened or resolved (by their state).
   */
  evaluateDueChecks(now: number, limit: number): Promise<Alert[]>;
  /** The earliest instant a check is due, or null. */
  nextCheckAt(): Promise<number | null>;

  /**
   * Judges up to `limit` runs whose expectation (`expect_by`) is due at `now`, each by one instance, in one
   * transaction: marks them judged, opens `expectation_breached` about the schedule of a run that had not
   * succeeded by then and resolves it for one that had (cancelled and skipped runs are not judged). Returns
   * how many runs it judged and the alerts opened and resolved (by their state), in the order of the runs'
   * deadlines.
   */
  evaluateDueExpectations(now: number, limit: number): Promise<{ judged: number; alerts: Alert[] }>;
  /** The earliest instant an expectation is due, or null. */
  nextExpectationAt(): Promise<number | null>;
  /** The states (`succeeded` or `dead`) of the schedule's latest `limit` executed runs, newest finished first. */
  recentOutcomes(scheduleId: string, limit: number): Promise<string[]>;

  /** Opens an alert per condition unless one of its kind is open for the subject; returns those it opened. */
  openAlerts(conditions: readonly AlertCondition[], now: number): Promise<Alert[]>;
  /** Resolves the open alerts these clearances name; returns those it resolved. */
  resolveAlerts(clearances: readonly AlertClearance[], now: number): Promise<Alert[]>;
  listAlerts(q: AlertListQuery): Promise<Alert[]>;
  /** An alert with its deliveries (oldest first), or undefined. */
  getAlert(tenantId: string, id: string): Promise<{ alert: Alert; deliveries: AlertDelivery[] } | undefined>;
  /** Open alerts per tenant (for the gauge). */
  countOpenAlerts(): Promise<{ tenantId: string; kind: string; count: number }[]>;

  /**
   * Claims up to `limit` deliveries due at `now` for `leaseMs`: no other instance takes them until the lease
   * lapses (a crashed sender's deliveries are then taken again).
   */
  claimAlertDeliveries(now: number, leaseMs: number, limit: number): Promise<ClaimedAlertDelivery[]>;
  /**
   * Settles a claimed delivery: delivered, retried after backoff, or failed once attempts are used up (or
   * `retry` is false). A claim that lapsed and was retaken changes nothing (false).
   */
  settleAlertDelivery(
    claimed: ClaimedAlertDelivery,
    result: AlertDeliveryResult,
    now: number,
  ): Promise<{ settled: boolean; state: AlertDelivery['state'] }>;
  /** The earliest instant a pending delivery is due, or null. */
  nextAlertDeliveryAt(): Promise<number | null>;
}

/** True when a store implements the alerting contract. */
export function hasAlerts<S extends object>(store: S): store is S & AlertStore {
  return 'openAlerts' in store && typeof (store as Partial<AlertStore>).openAlerts === 'function';
}
