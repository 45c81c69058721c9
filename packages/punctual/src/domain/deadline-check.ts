// Deadline checks: "a run of schedule X must succeed by 09:15 Europe/Paris on working days", as a spec (cron or
// RRULE, read in a zone) whose every instant opens a window of `within`; when a window closes without a
// successful run of the schedule in it, `deadline_missed` opens, and a later window met resolves it. This
// module owns the validation of such a check (CHECK_INVALID, CHECK_DEADLINE_UNMEETABLE), the windows, and the
// alert a closed window raises or clears. Pure: it must never perform I/O or read a clock.

import { PunctualError } from '../errors.js';
import type { AlertClearance, AlertCondition } from './alert.js';
import { compileSpec } from './timing/compile-spec.js';
import type { CompiledSpec } from './timing/compiled-spec.js';
import { parseDuration } from './timing/duration.js';

/** What a deadline check keeps beside its name. */
export interface DeadlineSpec {
  /** The key of the schedule whose runs must succeed (it need not exist yet). */
  schedule: string;
  /** The normalised spec (cron or RRULE) whose instants open the windows. */
  spec: string;
  tz: string;
  /** How long each window stays open (ms). */
  withinMs: number;
}

/** How many upcoming windows the gap between windows is measured over when a check is saved. */
export const DEADLINE_GAP_WINDOWS = 400;

const SCHEDULE_KEY_RE = /^[A-Za-z0-9_][A-Za-z0-9._:@-]{0,199}$/;

function invalid(field: string, message: string): PunctualError {
  return new PunctualError('CHECK_INVALID', `check ${field}: ${message}`, { field });
}

function unmeetable(field: string, message: string, extra: Record<string, unknown> = {}): PunctualError {
  return new PunctualError('CHECK_DEADLINE_UNMEETABLE', `deadline check ${field}: ${message}`, {
    field,
    ...extra,
  });
}

/** Compiles a deadline's spec (validate: whether "never fires" is judged, as at saving). */
export function compileDeadline(
  d: Pick<DeadlineSpec, 'spec' | 'tz'>,
  now: number,
  validate = false,
): CompiledSpec {
  return compileSpec(d.spec, { tz: d.tz, now, anchor: now, validate });
}

/**
 * Validates the deadline fields of a check body at `now`: the schedule key, a cron or RRULE spec that opens
 * windows from now on, and a window length above zero and at most the shortest gap between the next
 * DEADLINE_GAP_WINDOWS windows (longer, a window would still be open when the next one opens: it could
 * never be judged on its own). Spec and zone errors keep their own codes (SPEC_INVALID, TIME_ZONE_UNKNOWN).
 */
export function parseDeadline(
  input: { schedule?: unknown; spec?: unknown; tz?: unknown; within?: unknown },
  now: number,
): DeadlineSpec {
  const { schedule, spec, tz, within } = input;
  if (typeof schedule !== 'string' || !SCHEDULE_KEY_RE.test(schedule)) {
    throw invalid('schedule', 'must be a schedule key (1-200 letters, digits and . _ : @ -)');
  }
  if (typeof spec !== 'string' || spec.trim() === '' || spec.length > 4096) {
    throw invalid('spec', 'must be a cron line or an RRULE of at most 4096 characters');
  }
  if (tz !== undefined && typeof tz !== 'string') throw invalid('tz', 'must be an IANA zone name');
  if (typeof within !== 'string') throw invalid('within', 'must be a duration such as "15m"');
  let withinMs: number;
  try {
    withinMs = parseDuration(within);
  } catch (e) {
    if (within.trim().startsWith('-') || (e as Error).message.includes('greater than zero')) {
      throw unmeetable('within', 'must be longer than zero: a window of no time can never be met');
    }
    throw invalid('within', (e as Error).message);
  }
  let compiled: CompiledSpec;
  try {
    compiled = compileSpec(spec, { tz: tz ?? 'UTC', now, anchor: now });
  } catch (e) {
    if (e instanceof PunctualError && e.code === 'SPEC_NEVER_FIRES') {
      throw unmeetable('spec', 'never opens a window from now on');
    }
    throw e;
  }
  if (compiled.kind !== 'cron' && compiled.kind !== 'rrule') {
    throw invalid(
      'spec',
      'must be a cron line or an RRULE (windows open at times of day, not @every or @at)',
    );
  }
  const gap = shortestGap(compiled, now);
  if (gap !== null && withinMs > gap) {
    throw unmeetable('within', `is longer than the ${Math.round(gap / 1000)}s between two windows`, {
      gapMs: gap,
    });
  }
  return { schedule, spec: compiled.source, tz: compiled.tz, withinMs };
}

/** The shortest gap between consecutive upcoming windows, or null when fewer than two remain. */
function shortestGap(c: CompiledSpec, now: number): number | null {
  let prev = c.nextAfter(now);
  let gap: number | null = null;
  for (let i = 0; prev !== null && i < DEADLINE_GAP_WINDOWS; i++) {
    const t = c.nextAfter(prev);
    if (t === null) break;
    gap = gap === null ? t - prev : Math.min(gap, t - prev);
    prev = t;
  }
  return gap;
}

/**
 * The first window still open or to come at `now` after `after` (a window counts while its close is ahead):
 * its start, or null when the spec opens none. A check saved mid-window watches that window.
 */
export function nextWindowStart(
  d: Pick<DeadlineSpec, 'spec' | 'tz' | 'withinMs'>,
  after: number,
  now: number,
): number | null {
  try {
    return compileDeadline(d, now).nextAfter(Math.max(after, now - d.withinMs));
  } catch {
    // A spec that compiled when saved and no longer does (a zone gone from this runtime): no more windows.
    return null;
  }
}

/** A closed window: `deadline_missed` opens when no run succeeded in it, resolves when one did. */
export function deadlineVerdict(
  c: { tenantId: string; name: string; deadline: DeadlineSpec },
  windowStart: number,
  met: boolean,
): { open: AlertCondition } | { clear: AlertClearance } {
  if (met) {
    return {
      clear: { tenantId: c.tenantId, subjectKind: 'check', subject: c.name, kinds: ['deadline_missed'] },
    };
  }
  const close = windowStart + c.deadline.withinMs;
  return {
    open: {
      tenantId: c.tenantId,
      kind: 'deadline_missed',
      subjectKind: 'check',
      subject: c.name,
      summary: `check "${c.name}": no run of schedule "${c.deadline.schedule}" succeeded between ${new Date(windowStart).toISOString()} and ${new Date(close).toISOString()}`,
      details: {
        schedule: c.deadline.schedule,
        windowStart: new Date(windowStart).toISOString(),
        windowEnd: new Date(close).toISOString(),
      },
    },
  };
}

/** How far before a window opens a run that succeeds in it may have been scheduled (a retried run). */
export const DEADLINE_RUN_LOOKBACK_MS = 24 * 3_600_000;

/** The alert kinds a check raises (resolved when it is deleted). */
export const CHECK_ALERT_KINDS = ['heartbeat_missed', 'deadline_missed'] as const;

/** The alert kind a check of this kind raises. */
export function missedKindOf(kind: string): 'heartbeat_missed' | 'deadline_missed' {
  return kind === 'deadline' ? 'deadline_missed' : 'heartbeat_missed';
}
