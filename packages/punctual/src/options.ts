// Scheduler options: the documented defaults in one object and the resolution of user options into a frozen
// whole. Validation is at this boundary only.

import type { AlertSender } from './targets/alert-channel-sender.js';
import type { FailureRatePolicy } from './domain/failure-rate.js';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import type { Retention } from './engine/housekeeper.js';
import {
  DEFAULT_DECLARING_APP,
  ORPHAN_POLICIES,
  checkAppName,
  type OrphanPolicy,
} from './domain/declared.js';
import { PunctualError } from './errors.js';
import type { RunTracer } from './run-tracer.js';
import type { Store } from './store/store.js';
import type { TargetDriver } from './targets/target.js';

export interface SchedulerOptions {
  /** Where schedules and runs live. Default: SQLite at ./data/punctual.db. */
  store?: Store;
  /** Tenant of the scheduler's own schedule methods (the service uses `tenant(id)` for others). */
  tenantId?: string;
  clock?: Clock;
  /** Unique per process; defaults to host:pid:random. */
  workerId?: string;
  /** Runs delivered at once by this process. Default 10. */
  concurrency?: number;
  /** Lease per claimed run, renewed every third of it while delivering. Default 30 s. */
  leaseMs?: number;
  /** How far ahead of their time runs are written. Default 10 s. */
  lookaheadMs?: number;
  /**
   * How far ahead of their instant runs of overlap `allow` are claimed, each then started on a timer at its
   * instant (one claim serves the runs of the coming moment, and a minute boundary's thousands are claimed
   * before it rather than after). 0: claim runs once due. Default 1 s.
   */
  claimAheadMs?: number;
  /** An occurrence later than this when materialised counts as missed (misfire policy). Default 5 s. */
  misfireThresholdMs?: number;
  /** A run not started within this after it was due is reported (schedule:notFired). Default 60 s. */
  notFiredGraceMs?: number;
  /** How often leases are checked for lapses. Default 5 s. */
  reapIntervalMs?: number;
  /** Backstop sleep when nothing is due (wakes are event-driven; this only bounds a missed wake). Default 30 s. */
  maxSleepMs?: number;
  /** Graceful stop: how long in-flight runs may take to finish. Default 10 s. */
  shutdownGraceMs?: number;
  retention?: Partial<Retention>;
  /** Largest stored result (JSON bytes). Default 64 KiB. */
  maxResultBytes?: number;
  /** Extra target drivers (webhook, brokers, script), by kind. The handler driver is built in. */
  targets?: TargetDriver[];
  /**
   * Alerting, with a store that keeps alerts (AlertStore): the evaluator runs whenever the store has them;
   * `sender` delivers alert transitions to the tenants' channels (none: the outbox is kept but not sent by
   * this process). `maxSleepMs` bounds how long a new delivery made by another instance waits (default 5 s).
   * `failureRate`: the `failure_rate` alert, off unless given: `true` takes the defaults (at least 50% of the
   * last 10 executed runs dead, with at least 5 runs), an object overrides some of them (docs/alerts.md).
   */
  alerts?: {
    sender?: AlertSender;
    maxSleepMs?: number;
    failureRate?: Partial<FailureRatePolicy> | boolean;
  };
  /** Run only the worker side, or only the materializer (both by default). */
  roles?: { materializer?: boolean; worker?: boolean };
  /** Random source for backoff jitter. Default Math.random. */
  random?: () => number;
  /**
   * With a store that offers it (PostgreSQL), the clock is corrected by the measured offset to the store's
   * server, measured at start and every `intervalMs` (default 60 s); offsets above `warnAboveMs` (default
   * 1000) are reported as skewed.
   */
  clockSync?: { enabled?: boolean; intervalMs?: number; warnAboveMs?: number };
  /**
   * Declared schedules (`handle(name, fn, { schedule })`, `defineSchedules`), applied by start():
   * `app` names the declaring application (default "default"; required with `orphans` other than keep),
   * `orphans` says what happens to a schedule it declared before and no more (`keep`, the default, `pause`
   * or `delete`), `adopt` takes over a schedule with a declared key that nobody declared (default false:
   * DECLARATION_KEY_TAKEN). See docs/declared-schedules.md.
   */
  declared?: { app?: string; orphans?: OrphanPolicy; adopt?: boolean };
  /**
   * Opens a span per delivered attempt (run-tracer.ts); its W3C trace context is sent with webhook and broker
   * deliveries and its ids ride on the run events. Default: none (no tracing; the library loads no tracing
   * code). The service builds one from OpenTelemetry when tracing is configured (docs/operations.md).
   */
  tracer?: RunTracer;
}

export interface ResolvedOptions {
  tenantId: string;
  clock: Clock;
  workerId: string;
  concurrency: number;
  leaseMs: number;
  lookaheadMs: number;
  claimAheadMs: number;
  misfireThresholdMs: number;
  notFiredGraceMs: number;
  reapIntervalMs: number;
  maxSleepMs: number;
  shutdownGraceMs: number;
  retention: Retention;
  maxResultBytes: number;
  roles: { materializer: boolean; worker: boolean };
  random: () => number;
  clockSync: { enabled: boolean; intervalMs: number; warnAboveMs: number };
  /** `explicit`: the options named the application (declared.app). */
  declared: { app: string; orphans: OrphanPolicy; adopt: boolean; explicit: boolean };
}

const DAY = 86_400_000;

/** Default claimAheadMs: runs of overlap `allow` are claimed this long before their instant. */
export const CLAIM_AHEAD_MS = 2000;

function nonNegative(name: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (!Number.isFinite(v) || v < 0) {
    throw new PunctualError('SCHEDULE_INVALID', `option ${name} must be zero or a positive number`, {
      field: name,
    });
  }
  return v;
}

function positive(name: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (!Number.isFinite(v) || v <= 0) {
    throw new PunctualError('SCHEDULE_INVALID', `option ${name} must be a positive number`, { field: name });
  }
  return v;
}

export function resolveOptions(o: SchedulerOptions, defaultWorkerId: string): ResolvedOptions {
  const leaseMs = positive('leaseMs', o.leaseMs, 30_000);
  return Object.freeze({
    tenantId: o.tenantId ?? 'default',
    clock: o.clock ?? systemClock,
    workerId: o.workerId ?? defaultWorkerId,
    concurrency: Math.floor(positive('concurrency', o.concurrency, 10)),
    leaseMs,
    lookaheadMs: positive('lookaheadMs', o.lookaheadMs, 10_000),
    claimAheadMs: nonNegative('claimAheadMs', o.claimAheadMs, CLAIM_AHEAD_MS),
    misfireThresholdMs: positive('misfireThresholdMs', o.misfireThresholdMs, 5_000),
    notFiredGraceMs: positive('notFiredGraceMs', o.notFiredGraceMs, 60_000),
    reapIntervalMs: positive('reapIntervalMs', o.reapIntervalMs, 5_000),
    maxSleepMs: positive('maxSleepMs', o.maxSleepMs, 30_000),
    shutdownGraceMs: positive('shutdownGraceMs', o.shutdownGraceMs, 10_000),
    retention: Object.freeze({
      maxAgeMs: positive('retention.maxAgeMs', o.retention?.maxAgeMs, 30 * DAY),
      failedMaxAgeMs: positive('retention.failedMaxAgeMs', o.retention?.failedMaxAgeMs, 90 * DAY),
      keepPerSchedule: positive('retention.keepPerSchedule', o.retention?.keepPerSchedule, 1000),
    }),
    maxResultBytes: positive('maxResultBytes', o.maxResultBytes, 64 * 1024),
    roles: { materializer: o.roles?.materializer ?? true, worker: o.roles?.worker ?? true },
    random: o.random ?? Math.random,
    clockSync: Object.freeze({
      enabled: o.clockSync?.enabled ?? true,
      intervalMs: positive('clockSync.intervalMs', o.clockSync?.intervalMs, 60_000),
      warnAboveMs: positive('clockSync.warnAboveMs', o.clockSync?.warnAboveMs, 1_000),
    }),
    declared: resolveDeclared(o.declared),
  });
}

function resolveDeclared(d: SchedulerOptions['declared']): ResolvedOptions['declared'] {
  const orphans = d?.orphans ?? 'keep';
  if (!ORPHAN_POLICIES.includes(orphans)) {
    throw new PunctualError(
      'SCHEDULE_INVALID',
      `option declared.orphans must be one of ${ORPHAN_POLICIES.join(', ')}`,
      { field: 'declared.orphans' },
    );
  }
  if (d?.app === undefined && orphans !== 'keep') {
    // Another application sharing the tenant under the default name would lose its schedules.
    throw new PunctualError(
      'SCHEDULE_INVALID',
      `option declared.app must name the application when declared.orphans is ${orphans}`,
      { field: 'declared.app' },
    );
  }
  const app = d?.app === undefined ? DEFAULT_DECLARING_APP : checkAppName(d.app, 'declared.app');
  if (d?.adopt !== undefined && typeof d.adopt !== 'boolean') {
    throw new PunctualError('SCHEDULE_INVALID', 'option declared.adopt must be true or false', {
      field: 'declared.adopt',
    });
  }
  return Object.freeze({ app, orphans, adopt: d?.adopt ?? false, explicit: d?.app !== undefined });
}
