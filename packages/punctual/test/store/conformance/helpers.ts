// Shared helpers of the store conformance suite. They speak only the Store contract (never SQL), so every
// store runs the same assertions. Instants are fixed numbers; nothing here reads a clock.

import { expect } from 'vitest';
import type { Attempt, Run } from '../../../src/domain/run.js';
import type { Schedule, ScheduleDraft } from '../../../src/domain/schedule.js';
import type {
  ClaimedRun,
  ClaimResult,
  RunInsert,
  SettleOutcome,
  Settlement,
  Store,
} from '../../../src/store/store.js';
import { draft, runInsert, T0 } from '../../support/fixtures.js';

/** What each group's tests reach: the store opened for the current test. */
export interface Ctx {
  readonly store: Store;
}

export const LEASE_MS = 30_000;

/** Creates a schedule (default draft, first occurrence at T0). */
export async function create(
  store: Store,
  overrides: Partial<ScheduleDraft> = {},
  opts: { nextFireAt?: number | null; now?: number } = {},
): Promise<Schedule> {
  const res = await store.putSchedule({
    draft: draft(overrides),
    nextFireAt: opts.nextFireAt === undefined ? T0 : opts.nextFireAt,
    now: opts.now ?? T0,
  });
  return res.schedule;
}

/** Completes a schedule at version 1 due at T0, as the materializer does when it has no occurrence left. */
export async function complete(store: Store, schedule: Schedule): Promise<void> {
  await store.advanceSchedule({
    tenantId: schedule.tenantId,
    scheduleId: schedule.id,
    version: 1,
    expectedNextFireAt: T0,
    nextFireAt: null,
    fired: 1,
    complete: true,
    runs: [],
    now: T0,
  });
}

/** Inserts one unique scheduled run per instant for a schedule; returns the inserted runs. */
export async function addRuns(
  store: Store,
  schedule: Schedule,
  times: number[],
  overrides: Partial<RunInsert> = {},
  now: number = T0,
): Promise<Run[]> {
  const ts = await store.insertRuns(
    times.map((t) => runInsert({ schedule, scheduledFor: t, dueAt: t, ...overrides })),
    now,
  );
  return ts.map((t) => t.run);
}

export async function claim(
  store: Store,
  now: number,
  limit = 10,
  workerId = 'worker-1',
  leaseMs = LEASE_MS,
): Promise<ClaimResult> {
  return store.claimRuns({ workerId, now, limit, leaseMs });
}

/** Claims exactly one run and returns it. */
export async function claimOne(store: Store, now: number, workerId = 'worker-1'): Promise<ClaimedRun> {
  const { claimed } = await claim(store, now, 1, workerId);
  expect(claimed).toHaveLength(1);
  return claimed[0]!;
}

const ATTEMPT_OUTCOME: Record<string, Attempt['outcome']> = {
  succeeded: 'succeeded',
  dead: 'failed',
  cancelled: 'failed',
  retry: 'retry',
  checkAgain: 'checkAgain',
  released: 'released',
};

/** A settlement for a claimed run, with the matching attempt record. */
export function settlement(c: ClaimedRun, outcome: SettleOutcome, now: number, token = c.token): Settlement {
  const kind = outcome.state === 'scheduled' ? outcome.reason : outcome.state;
  return {
    runId: c.run.id,
    token,
    outcome,
    attempt: {
      runId: c.run.id,
      attempt: c.run.attempt,
      workerId: c.run.leaseOwner ?? 'worker-1',
      startedAt: c.run.startedAt ?? now,
      finishedAt: now,
      outcome: ATTEMPT_OUTCOME[kind] ?? 'failed',
      error: outcome.state === 'dead' ? outcome.error : outcome.state === 'scheduled' ? outcome.error : null,
      result: outcome.state === 'succeeded' ? outcome.result : null,
    },
    run: c.run,
  };
}

export async function succeed(store: Store, c: ClaimedRun, now: number): Promise<void> {
  const [t] = await store.settleRuns([settlement(c, { state: 'succeeded', result: null }, now)], now);
  expect(t?.to).toBe('succeeded');
}

export async function runOf(store: Store, run: { id: string; tenantId: string }): Promise<Run> {
  const got = await store.getRun(run.tenantId, run.id);
  expect(got).toBeDefined();
  return got!.run;
}

export function ids(items: { id: string }[]): string[] {
  return items.map((i) => i.id);
}

/** Asserts a promise rejects with a PunctualError of this code; returns its details. */
export async function rejectsWithCode(p: Promise<unknown>, code: string): Promise<Record<string, unknown>> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, `expected a rejection with ${code}`).toBeDefined();
  expect((err as { code?: unknown }).code).toBe(code);
  return ((err as { details?: Record<string, unknown> }).details ?? {}) as Record<string, unknown>;
}
