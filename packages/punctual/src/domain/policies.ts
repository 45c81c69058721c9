// Per-schedule policies: their shape, their documented defaults, their validation, and the pure functions
// that apply them (retry delay, deterministic jitter). It must never read a clock or a random source: callers
// pass `now` and any random number in.

import { PunctualError } from '../errors.js';

export type OverlapPolicy = 'allow' | 'skip' | 'bufferOne' | 'bufferAll' | 'cancelPrevious';
export type MisfirePolicy = 'skip' | 'runOnce' | 'runAll';

export interface RetryPolicy {
  /** Attempts per run (per check), including the first. 1 means no retry. */
  maxAttempts: number;
  backoff: 'fixed' | 'exponential';
  /** First retry delay (fixed: every delay). */
  delayMs: number;
  /** Cap for exponential backoff. */
  maxDelayMs: number;
  /** Full jitter: the delay is drawn uniformly from [0, computed delay]. */
  jitter: boolean;
}

export interface Policies {
  retry: RetryPolicy;
  /** Per attempt: the delivery's AbortSignal fires after this; a target that ignores it loses its lease. */
  timeoutMs: number;
  overlap: OverlapPolicy;
  misfire: MisfirePolicy;
  /** Missed occurrences older than this are never run (recorded as skipped). */
  catchupWindowMs: number;
  /** Hard cap on runs created by one catch-up (runAll) or one backfill. */
  maxCatchup: number;
  /** A run not started within this of its scheduledFor becomes `expired`; null: no deadline. */
  deadlineMs: number | null;
  /** Among runs due at the same moment, higher is claimed first. */
  priority: number;
  /** Guards for check-again: at most this many checks, none later than scheduledFor + horizonMs. */
  maxChecks: number;
  checkHorizonMs: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export const DEFAULT_POLICIES: Policies = Object.freeze({
  retry: Object.freeze({
    maxAttempts: 3,
    backoff: 'exponential',
    delayMs: 1_000,
    maxDelayMs: HOUR,
    jitter: true,
  }),
  timeoutMs: 60_000,
  overlap: 'allow',
  misfire: 'runOnce',
  catchupWindowMs: DAY,
  maxCatchup: 1_000,
  deadlineMs: null,
  priority: 0,
  maxChecks: 10,
  checkHorizonMs: 30 * DAY,
}) as Policies;

const OVERLAPS: readonly OverlapPolicy[] = ['allow', 'skip', 'bufferOne', 'bufferAll', 'cancelPrevious'];
const MISFIRES: readonly MisfirePolicy[] = ['skip', 'runOnce', 'runAll'];

function invalid(field: string, why: string): PunctualError {
  return new PunctualError('SCHEDULE_INVALID', `policies.${field} ${why}`, { field: `policies.${field}` });
}

function int(v: unknown, field: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw invalid(field, `must be an integer between ${min} and ${max}`);
  }
  return v;
}

function oneOf<T extends string>(v: unknown, field: string, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !allowed.includes(v as T))
    throw invalid(field, `must be one of ${allowed.join(', ')}`);
  return v as T;
}

/** Merges user input over the defaults and validates every field. Throws SCHEDULE_INVALID naming the field. */
export function resolvePolicies(input: unknown): Policies {
  if (input === undefined || input === null) return DEFAULT_POLICIES;
  if (typeof input !== 'object' || Array.isArray(input)) throw invalid('', 'must be an object');
  const p = input as Record<string, unknown>;
  // Nothing set (a stored row's compact form, most often): the defaults themselves, frozen, in the same order.
  if (Object.keys(p).length === 0) return DEFAULT_POLICIES;
  const known = new Set(Object.keys(DEFAULT_POLICIES));
  for (const k of Object.keys(p)) if (!known.has(k)) throw invalid(k, 'is not a known policy');
  const d = DEFAULT_POLICIES;
  const r = (p.retry ?? {}) as Record<string, unknown>;
  if (typeof r !== 'object' || Array.isArray(r)) throw invalid('retry', 'must be an object');
  const retryKnown = new Set(Object.keys(d.retry));
  for (const k of Object.keys(r))
    if (!retryKnown.has(k)) throw invalid(`retry.${k}`, 'is not a known retry setting');
  const retry: RetryPolicy = {
    maxAttempts:
      r.maxAttempts === undefined ? d.retry.maxAttempts : int(r.maxAttempts, 'retry.maxAttempts', 1, 1000),
    backoff:
      r.backoff === undefined ? d.retry.backoff : oneOf(r.backoff, 'retry.backoff', ['fixed', 'exponential']),
    delayMs: r.delayMs === undefined ? d.retry.delayMs : int(r.delayMs, 'retry.delayMs', 0, 30 * DAY),
    maxDelayMs:
      r.maxDelayMs === undefined ? d.retry.maxDelayMs : int(r.maxDelayMs, 'retry.maxDelayMs', 0, 30 * DAY),
    jitter:
      r.jitter === undefined
        ? d.retry.jitter
        : typeof r.jitter === 'boolean'
          ? r.jitter
          : bad('retry.jitter'),
  };
  const deadline =
    p.deadlineMs === undefined
      ? d.deadlineMs
      : p.deadlineMs === null
        ? null
        : int(p.deadlineMs, 'deadlineMs', 1, 365 * DAY);
  return Object.freeze({
    retry: Object.freeze(retry),
    timeoutMs: p.timeoutMs === undefined ? d.timeoutMs : int(p.timeoutMs, 'timeoutMs', 1, DAY),
    overlap: p.overlap === undefined ? d.overlap : oneOf(p.overlap, 'overlap', OVERLAPS),
    misfire: p.misfire === undefined ? d.misfire : oneOf(p.misfire, 'misfire', MISFIRES),
    catchupWindowMs:
      p.catchupWindowMs === undefined
        ? d.catchupWindowMs
        : int(p.catchupWindowMs, 'catchupWindowMs', 0, 365 * DAY),
    maxCatchup: p.maxCatchup === undefined ? d.maxCatchup : int(p.maxCatchup, 'maxCatchup', 1, 100_000),
    deadlineMs: deadline,
    priority: p.priority === undefined ? d.priority : int(p.priority, 'priority', -1000, 1000),
    maxChecks: p.maxChecks === undefined ? d.maxChecks : int(p.maxChecks, 'maxChecks', 0, 10_000),
    checkHorizonMs:
      p.checkHorizonMs === undefined
        ? d.checkHorizonMs
        : int(p.checkHorizonMs, 'checkHorizonMs', 0, 3650 * DAY),
  });
}

function bad(field: string): never {
  throw invalid(field, 'has the wrong type');
}

/**
 * Delay before retry number `attempt` (the attempt that just failed, 1-based).
 * `random` is a number in [0, 1) supplied by the caller (used only when jitter is on).
 */
export function retryDelay(policy: RetryPolicy, attempt: number, random: number): number {
  const base =
    policy.backoff === 'fixed'
      ? policy.delayMs
      : Math.min(policy.maxDelayMs, policy.delayMs * 2 ** Math.min(Math.max(attempt - 1, 0), 40));
  return policy.jitter ? Math.floor(base * random) : base;
}

/**
 * Deterministic per-occurrence offset in [0, jitterMs): a hash of the schedule key and the instant, so a
 * restart or a second instance computes the same offset.
 */
export function jitterOffset(key: string, scheduledFor: number, jitterMs: number): number {
  if (jitterMs <= 0) return 0;
  // FNV-1a over the key and the instant's decimal digits.
  let h = 0x811c9dc5;
  const s = `${key}\u0000${scheduledFor}`;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % jitterMs;
}
