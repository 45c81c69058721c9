// The store contract: every durable operation Punctual needs, written in domain terms. Each method is one
// atomic operation, takes `now` as a parameter (a store never reads a clock), and is scoped by tenant where
// it touches tenant data. Implementations: store/sqlite/, store/postgres/. The engine depends on this
// interface only; it branches on `capabilities`, never on which store it has. The requests and results of
// its operations live in sibling modules, one concept each, and are re-exported here so the contract is
// imported from one place; this module must never grow logic of its own.

import type { OccurrenceOverride } from '../domain/occurrence-override.js';
import type { Attempt, Run } from '../domain/run.js';
import type { Schedule, ScheduleState } from '../domain/schedule.js';
import type { RevisionNote, ScheduleRevision } from '../domain/schedule-revision.js';
import type { OverrideRemoval, OverrideWrite } from './override-write.js';
import type { ClaimRequest, ClaimResult } from './run-claim.js';
import type { RunInsert } from './run-insert.js';
import type { RerunRequest, RerunResult } from './rerun-request.js';
import type { Advance, AdvanceResult, ScheduleClaim } from './schedule-advance.js';
import type { PutScheduleRequest, PutScheduleResult } from './schedule-put.js';
import type { Settlement } from './settlement.js';
import type { Page, RevisionQuery, RunQuery, ScheduleQuery } from './store-queries.js';
import type { Transition } from './transition.js';

export type { OverrideRemoval, OverrideWrite } from './override-write.js';
export type { ClaimedRun, ClaimRequest, ClaimResult } from './run-claim.js';
export type { RunInsert } from './run-insert.js';
export type { RerunRefusal, RerunRequest, RerunResult } from './rerun-request.js';
export type { Advance, AdvanceResult, ScheduleClaim } from './schedule-advance.js';
export { sameAsStored, type PutScheduleRequest, type PutScheduleResult } from './schedule-put.js';
export { endedBeforeDelivery, settledStartedAt, type SettleOutcome, type Settlement } from './settlement.js';
export type { Page, RevisionQuery, RunQuery, ScheduleQuery } from './store-queries.js';
export type { Transition } from './transition.js';

export interface StoreCapabilities {
  /** Several processes may share this store (claims are safe across processes). */
  multiInstance: boolean;
  /** The store can wake idle workers when an earlier run is inserted by another process (`onWake`). */
  wakeups: boolean;
  /**
   * Calls made at once run their statements at once (a pool of connections), so the engine overlaps its
   * materializer's claim-and-advance chains; false where calls run one after another (one embedded
   * connection), where overlapping only interleaves them.
   */
  concurrentStatements: boolean;
}

/**
 * A hint one process gives every engine sharing its store, so they act at once rather than at their next
 * timer (a latency hint only: a lost signal delays, never loses). PostgreSQL sends them with NOTIFY; SQLite
 * calls the listeners of its own process.
 */
export type StoreSignal =
  /** A schedule was saved or resumed: materialise what falls due before `at`. */
  | { kind: 'schedules'; at: number }
  /** Running runs were cancelled (manual cancel, `cancelPrevious`): their workers abort the deliveries now. */
  | { kind: 'abort'; runIds: string[] }
  /** A schedule was paused: workers end its runs that wait in their buffer, not delivered yet. */
  | { kind: 'paused'; scheduleId: string; cancelPending: boolean };

export interface PruneRequest {
  now: number;
  /** Final runs finished before now - this are deleted (failures use failedRetentionMs). */
  retentionMs: number;
  failedRetentionMs: number;
  /** Keep at most this many final runs per schedule (newest kept). */
  keepPerSchedule: number;
  limit: number;
}

/** Store-wide counts for metrics and the service, read at one instant. */
export interface StoreStats {
  /** Scheduled runs with dueAt <= now (waiting for a worker). */
  dueRuns: number;
  /** Runs in state `running` (leased, lapsed or not). */
  runningRuns: number;
  /** Schedules per state; every state is present (0 when none). */
  schedulesByState: Record<ScheduleState, number>;
  /** Earliest dueAt among the due runs (dueAt <= now); null when none is due. */
  oldestDueAt: number | null;
}

/** The schema version of a store's database and the one this build of Punctual migrates it to. */
export interface SchemaVersion {
  /** Highest migration applied to the database (0: never migrated). */
  applied: number;
  /** Highest migration this build knows: what migrate() brings the database to. */
  expected: number;
  /**
   * The oldest build (by the highest migration it knows) that works with the database as it is, when the
   * store records it (PostgreSQL): applied > expected with required <= expected is a rolling deploy in
   * progress, which this build still runs on.
   */
  required?: number;
}

export interface Store {
  readonly capabilities: StoreCapabilities;

  /**
   * Applies pending migrations; throws SCHEMA_TOO_NEW on a database migrated by a newer version that does not
   * declare itself compatible with this one.
   */
  migrate(): Promise<void>;
  /**
   * The applied and the expected schema version, read without migrating or creating anything (applied is 0
   * when the migrations table does not exist). applied > expected: a newer Punctual migrated it.
   */
  schemaVersion(): Promise<SchemaVersion>;
  close(): Promise<void>;

  // ── schedules ────────────────────────────────────────────────────────────────────────────────────
  /**
   * Upsert by (tenant, key). On change: version+1, pending runs of older versions cancelled (`updated`), and
   * a revision (created, updated or rolledBack) written in the same transaction; an unchanged put writes none.
   */
  putSchedule(req: PutScheduleRequest): Promise<PutScheduleResult>;
  /** Several puts in one transaction: all of them are written, or none (bulk create). */
  putSchedules(reqs: PutScheduleRequest[]): Promise<PutScheduleResult[]>;
  getSchedule(tenantId: string, key: string): Promise<Schedule | undefined>;
  /**
   * The tenant's schedules with these keys, in one read (a bulk put looks up every input at once). Keys with
   * no schedule are left out; each schedule comes once, in the order of its key's first mention.
   */
  getSchedules(tenantId: string, keys: string[]): Promise<Schedule[]>;
  listSchedules(q: ScheduleQuery): Promise<Page<Schedule>>;
  /**
   * Deletes the schedule; its pending runs become `cancelled` (`deleted`); history is kept, and a `deleted`
   * revision is written.
   */
  deleteSchedule(
    tenantId: string,
    key: string,
    now: number,
    note?: RevisionNote,
  ): Promise<{ deleted: boolean; transitions: Transition[] }>;
  /**
   * Pauses; with cancelPending its scheduled runs become `cancelled` (`pausedCancel`). Pausing an active
   * schedule writes a `paused` revision.
   */
  pauseSchedule(
    tenantId: string,
    key: string,
    opts: {
      cancelPending: boolean;
      note: string | null;
      now: number;
      actor?: string | null | undefined;
      /** A timed pause: resumes by itself at this instant (null or absent: until resumed by hand). */
      until?: number | null | undefined;
    },
  ): Promise<{ schedule: Schedule; transitions: Transition[] } | undefined>;
  /**
   * Resumes a paused schedule at `nextFireAt`; `skipped` records the occurrences that fell in the pause
   * (state skipped, reason paused), and writes a `resumed` revision. With `dueBy`, only a timed pause whose
   * pausedUntil <= dueBy is resumed (the automatic resume: a schedule paused again meanwhile is left alone).
   */
  resumeSchedule(
    tenantId: string,
    key: string,
    opts: {
      nextFireAt: number | null;
      skipped: RunInsert[];
      now: number;
      actor?: string | null | undefined;
      dueBy?: number | undefined;
    },
  ): Promise<{ schedule: Schedule; transitions: Transition[] } | undefined>;
  /**
   * Schedules whose timed pause ended (paused with pausedUntil <= now), at most `limit`, earliest first; the
   * caller resumes each with resumeSchedule and `dueBy` so a schedule paused again meanwhile stays paused.
   */
  dueTimedPauses(now: number, limit: number): Promise<Schedule[]>;
  /** Earliest pausedUntil among paused schedules (null: none), for the materializer's timer. */
  nextTimedResumeAt(): Promise<number | null>;

  // ── occurrence overrides (docs/overrides.md) ─────────────────────────────────────────────────────
  /** See OverrideWrite. Returns the run's transition when one was changed or inserted. */
  putOccurrenceOverride(w: OverrideWrite): Promise<{ transition: Transition | null }>;
  /** See OverrideRemoval; `removed` false when no override was stored (nothing else is done). */
  deleteOccurrenceOverride(r: OverrideRemoval): Promise<{ removed: boolean; transition: Transition | null }>;
  /** The schedule's overrides with instant >= from, by instant, at most `limit`. */
  listOccurrenceOverrides(
    tenantId: string,
    scheduleId: string,
    opts: { from: number; limit: number },
  ): Promise<OccurrenceOverride[]>;
  /** The materializer's read: overrides of these schedules with instant in [from, until], in one read. */
  overridesDue(scheduleIds: readonly string[], from: number, until: number): Promise<OccurrenceOverride[]>;
  /**
   * The housekeeper's prune: deletes at most `limit` overrides whose occurrence the materializer has passed
   * (instant before the schedule's nextFireAt, or the schedule has none left) and whose instant and moveTo
   * are both before `before`; returns how many were deleted.
   */
  pruneOverrides(req: { before: number; limit: number }): Promise<number>;

  /** The key's revisions, newest first, including those of a deleted schedule with this key. */
  listScheduleRevisions(q: RevisionQuery): Promise<Page<ScheduleRevision>>;
  /** The newest revision of this key with this version (undefined when none is kept). */
  getScheduleRevision(tenantId: string, key: string, version: number): Promise<ScheduleRevision | undefined>;

  // ── materializer ─────────────────────────────────────────────────────────────────────────────────
  /**
   * Active schedules whose nextFireAt <= horizon, claimed for leaseMs so concurrent materializers share the
   * work (a claim only spreads work; correctness comes from advanceSchedule's compare-and-set). Those whose
   * business-day rule rolls back (`roll: "previous"`) are claimed up to `rollBackLeadMs` earlier (nextFireAt
   * <= horizon + rollBackLeadMs), at most `limit` more of them. With `from`, only those whose nextFireAt >=
   * from are claimed (the materializer's low-water mark: the index range then starts past the entries its
   * earlier advances left behind, which PostgreSQL keeps until a vacuum); the roll-back range is not bounded.
   */
  claimDueSchedules(req: ScheduleClaim): Promise<Schedule[]>;
  advanceSchedule(a: Advance): Promise<AdvanceResult>;
  /**
   * Several advances (of distinct schedules) in one transaction, one commit: the same rules as
   * advanceSchedule for each, each its own compare-and-set. Results in input order.
   */
  advanceSchedules(advances: Advance[]): Promise<AdvanceResult[]>;
  /** Earliest nextFireAt among active schedules, at or after `from` when given (the materializer's timer). */
  nextScheduleAt(from?: number): Promise<number | null>;
  /** The earliest nextFireAt among active schedules whose business-day rule rolls back (`roll: "previous"`). */
  nextRollingBackAt(): Promise<number | null>;

  // ── runs ─────────────────────────────────────────────────────────────────────────────────────────
  /** Inserts runs outside the materializer (trigger now, backfill). Unique occurrences already present are skipped. */
  insertRuns(runs: RunInsert[], now: number): Promise<Transition[]>;
  /**
   * Claims due runs (dueAt <= now), by priority then dueAt, applying deadlines and overlap policies
   * atomically. Each claimed run is `running` with attempt+1 and a lease until now+leaseMs.
   */
  claimRuns(req: ClaimRequest): Promise<ClaimResult>;
  /** Renews leases; returns the ids whose lease is still held (others were lost). */
  extendLeases(leases: { runId: string; token: string }[], until: number, now: number): Promise<string[]>;
  /** Settles runs in one transaction. A settlement with a stale token is refused: its slot is null. */
  settleRuns(settlements: Settlement[], now: number): Promise<(Transition | null)[]>;
  /**
   * Settles, then claims in the same transaction (one commit instead of two per worker cycle). Same rules as
   * settleRuns followed by claimRuns.
   */
  settleAndClaim(
    settlements: Settlement[],
    claim: ClaimRequest,
  ): Promise<{ settled: (Transition | null)[]; claim: ClaimResult }>;
  /** Running runs whose lease lapsed: back to scheduled (the attempt counts) or dead when none remain. */
  reclaimExpiredLeases(now: number, limit: number): Promise<Transition[]>;
  /**
   * Makes final runs `scheduled` again, due at `now`, in one transaction: reason `rerun`, no deadline, the
   * schedule's current version, `attempts` more attempts; the attempts and the occurrence id are kept. A run
   * without its occurrence key (skipped, cancelled) takes it back, unless another run holds it (refused).
   */
  rerunRuns(req: RerunRequest): Promise<RerunResult>;
  /** Cancels a run that is not final yet (a running one loses its lease). */
  cancelRun(tenantId: string, runId: string, now: number): Promise<Transition | undefined>;
  getRun(tenantId: string, runId: string): Promise<{ run: Run; attempts: Attempt[] } | undefined>;
  listRuns(q: RunQuery): Promise<Page<Run>>;
  /** Earliest dueAt among scheduled runs (the worker's timer). */
  nextRunDueAt(): Promise<number | null>;
  /**
   * The earliest dueAt of each of these schedules' `scheduled` runs (pending, not started), in one read
   * whatever the number of schedules (a page of a list). Schedules with no such run are left out; ids of
   * another tenant's schedules find nothing.
   */
  pendingDueAt(tenantId: string, scheduleIds: readonly string[]): Promise<Map<string, number>>;
  /**
   * Scheduled runs whose dueAt + graceMs < now and that were not reported yet: marks them reported and
   * returns them ("schedule not fired" detection).
   */
  takeNotFired(now: number, graceMs: number, limit: number): Promise<Run[]>;
  /**
   * Active schedules whose next occurrence (nextFireAt) + graceMs < now, i.e. that nothing
   * materialised (no instance materialising, or its materializer stuck), and that were not reported for that
   * occurrence yet: marks them reported and returns them ("schedule not fired" detection, once per
   * occurrence whatever the number of instances).
   */
  takeOverdueSchedules(now: number, graceMs: number, limit: number): Promise<Schedule[]>;
  /** Deletes old final runs and their attempts; returns how many runs were deleted. */
  pruneHistory(req: PruneRequest): Promise<number>;

  /**
   * Optional, shared stores only: the store server's clock minus `localNow()`, in ms, measured with
   * round-trip compensation. The engine adds it to its clock so instances with skewed clocks agree on what is
   * due. Optional because an embedded store has no server clock: it shares the process's clock, whose offset
   * is zero by definition.
   */
  measureClockOffset?(localNow: () => number): Promise<number>;

  /** Counts for metrics, every one answered from an index (never a scan of runs). */
  stats(now: number): Promise<StoreStats>;

  /** Calls `listener` with every StoreSignal a store operation of any process sharing it sent. */
  onSignal(listener: (signal: StoreSignal) => void): () => void;

  /**
   * Only when capabilities.wakeups: called when another process inserted a run due at `dueAt`. Optional
   * because a store without other processes (capabilities.wakeups false) has nobody to hear from.
   */
  onWake?(listener: (dueAt: number) => void): () => void;
}
