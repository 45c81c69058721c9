// A schedule's expectation (`expect: { successWithin: "15m" }`): each of its occurrences must succeed within
// this long of its start. This module owns the input's validation (EXPECT_INVALID), the stored shape, the
// instant by which a run must succeed, and the alert an unmet or met occurrence raises or clears. Pure: it
// must never perform I/O or read a clock.

import { PunctualError } from '../errors.js';
import type { AlertClearance, AlertCondition } from './alert.js';
import { parseDuration } from './timing/duration.js';

/** The shortest and longest successWithin accepted. */
export const EXPECT_MIN_MS = 1000;
export const EXPECT_MAX_MS = 31 * 24 * 3_600_000;

/** What a user gives: successWithin as milliseconds or a duration string ("15m", "PT15M"). */
export interface ScheduleExpectInput {
  successWithin: number | string;
}

/** What a schedule keeps. */
export interface ScheduleExpect {
  successWithinMs: number;
}

function invalid(field: string, why: string): PunctualError {
  return new PunctualError('EXPECT_INVALID', `${field} ${why}`, { field });
}

/** Validates `expect`; null (or absent) means no expectation. */
export function parseExpect(v: unknown): ScheduleExpect | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v))
    throw invalid('expect', 'must be an object { successWithin }');
  const extra = Object.keys(v).find((k) => k !== 'successWithin');
  if (extra !== undefined) throw invalid(`expect.${extra}`, 'is not an expectation field');
  const w = (v as { successWithin?: unknown }).successWithin;
  let ms: number;
  if (typeof w === 'number') ms = w;
  else if (typeof w === 'string') {
    try {
      ms = parseDuration(w);
    } catch (e) {
      throw invalid('expect.successWithin', (e as Error).message);
    }
  } else throw invalid('expect.successWithin', 'must be a duration such as "15m" or milliseconds');
  if (!Number.isInteger(ms) || ms < EXPECT_MIN_MS || ms > EXPECT_MAX_MS)
    throw invalid('expect.successWithin', 'must be between 1s and 31 days');
  return { successWithinMs: ms };
}

/**
 * The instant by which the run of an occurrence must have succeeded: its start (the scheduled instant, or
 * the day a business-day rule rolled it to) plus successWithin; null when the schedule expects nothing or the
 * run will not execute (a skipped record).
 */
export function expectByOf(
  expect: ScheduleExpect | null | undefined,
  run: { scheduledFor: number; state: string; details?: unknown },
): number | null {
  if (expect == null || run.state !== 'scheduled') return null;
  const d = run.details as { rolledTo?: unknown } | null | undefined;
  const start = typeof d?.rolledTo === 'number' ? d.rolledTo : run.scheduledFor;
  return start + expect.successWithinMs;
}

/** A run whose expectation came due, as the store reads it when its window closes. */
export interface DueExpectation {
  tenantId: string;
  scheduleKey: string;
  runId: string;
  scheduledFor: number;
  expectBy: number;
  state: string;
  finishedAt: number | null;
}

/** States that say nothing about the schedule's health: a cancelled run (superseded, by hand) or a skip. */
const NOT_JUDGED = new Set(['cancelled', 'skipped']);

/**
 * What a closed window says: met (the run succeeded by expectBy: clears `expectation_breached`), missed
 * (opens it), or nothing (a run cancelled or skipped since it was written).
 */
export function expectationVerdict(
  e: DueExpectation,
): { open: AlertCondition } | { clear: AlertClearance } | null {
  if (NOT_JUDGED.has(e.state)) return null;
  if (e.state === 'succeeded' && e.finishedAt !== null && e.finishedAt <= e.expectBy) {
    return {
      clear: {
        tenantId: e.tenantId,
        subjectKind: 'schedule',
        subject: e.scheduleKey,
        kinds: ['expectation_breached'],
      },
    };
  }
  return {
    open: {
      tenantId: e.tenantId,
      kind: 'expectation_breached',
      subjectKind: 'schedule',
      subject: e.scheduleKey,
      summary: `schedule "${e.scheduleKey}": the occurrence of ${new Date(e.scheduledFor).toISOString()} had not succeeded by ${new Date(e.expectBy).toISOString()}`,
      details: {
        runId: e.runId,
        scheduledFor: new Date(e.scheduledFor).toISOString(),
        expectedBy: new Date(e.expectBy).toISOString(),
        state: e.state,
        finishedAt: e.finishedAt === null ? null : new Date(e.finishedAt).toISOString(),
      },
    },
  };
}

/**
 * The verdicts of a batch of closed windows, in order, without repeats: of consecutive verdicts about one
 * schedule that say the same (open, open, open), only the first is kept, since the others change nothing.
 */
export function expectationOps(
  dues: readonly DueExpectation[],
): ({ open: AlertCondition } | { clear: AlertClearance })[] {
  const last = new Map<string, 'open' | 'clear'>();
  const out: ({ open: AlertCondition } | { clear: AlertClearance })[] = [];
  for (const e of dues) {
    const v = expectationVerdict(e);
    if (v === null) continue;
    const key = `${e.tenantId}\u0000${e.scheduleKey}`;
    const tag = 'open' in v ? 'open' : 'clear';
    if (last.get(key) === tag) continue;
    last.set(key, tag);
    out.push(v);
  }
  return out;
}
