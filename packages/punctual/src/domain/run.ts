// The run: the durable record of one occurrence being executed, and its state machine. This module owns the
// states, which transitions are legal, and which states are final. It must never perform I/O.
//
//            materialise              claim (lease)          deliver
//  schedule ────────────► scheduled ───────────────► running ────────► succeeded
//                            │  ▲                       │  │
//     expired (deadline) ◄───┘  │ retry / check again   │  └─► dead (attempts used up, `fail`, check limit)
//     skipped (overlap, misfire, paused)  └─────────────┘
//     cancelled (schedule deleted / updated / paused with cancel / cancelPrevious / by hand)
//  lease lapsed while running ──► scheduled again (the attempt counts) or dead when none remain

import type { Json } from './json.js';

export type RunState = 'scheduled' | 'running' | 'succeeded' | 'dead' | 'skipped' | 'expired' | 'cancelled';
export const FINAL_STATES: readonly RunState[] = ['succeeded', 'dead', 'skipped', 'expired', 'cancelled'];

/** Why a run exists: its spec yielded it, a user triggered it, or a backfill asked for it. */
export type RunKind = 'scheduled' | 'manual' | 'backfill';

/**
 * Why a run ended without running, or why it went back to `scheduled`. Kept on the run so a schedule's
 * history answers "why didn't it run at 03:00?" without logs.
 */
export type RunReason =
  | 'retry' // a failed attempt will be retried
  | 'checkAgain' // the target asked to be asked again later
  | 'released' // handed back without using an attempt: a graceful stop, or its target was saturated
  | 'leaseExpired' // the worker holding it vanished; reclaimed
  | 'overlap' // the overlap policy skipped or cancelled it
  | 'misfire' // missed while nothing ran, and the misfire policy did not run it
  | 'outsideCatchupWindow' // missed longer ago than the catch-up window
  | 'catchupCap' // missed beyond the hard cap of catch-up runs
  | 'paused' // the schedule was paused at its time
  | 'calendar' // its date is excluded by a calendar, or not a working day (details.calendar names it)
  | 'calendarChanged' // a calendar of its schedule changed: cancelled and materialised again
  | 'override' // a per-occurrence override skipped, moved or changed the payload of it (details.override)
  | 'deadline' // not started within the deadline
  | 'updated' // the schedule changed and this pending run belonged to the old version
  | 'deleted' // the schedule was deleted
  | 'pausedCancel' // the schedule was paused with cancelPending
  | 'rerun' // a final run asked to run again (new attempts of the same occurrence)
  | 'manual'; // cancelled by hand

export interface RunError {
  code?: string;
  message: string;
  stack?: string;
}

export interface Run {
  id: string;
  tenantId: string;
  scheduleId: string;
  scheduleKey: string;
  scheduleVersion: number;
  /** Stable idempotency key handed to targets: `<scheduleId>:<scheduledFor>` (manual runs: `<scheduleId>:manual:<runId>`). */
  occurrenceId: string;
  kind: RunKind;
  state: RunState;
  /** The nominal instant of the occurrence (UTC epoch ms). */
  scheduledFor: number;
  /** When the run may next be claimed: scheduledFor + jitter, or the retry / check-again time. */
  dueAt: number;
  /** A run not started by this instant becomes `expired` (deadline policy); null for none. */
  expiresAt: number | null;
  priority: number;
  /** Attempts made in the current check (a check-again starts a fresh count). */
  attempt: number;
  maxAttempts: number;
  /** Times the target asked to check again. */
  checks: number;
  /** Payload override (manual trigger); null means the schedule's payload. */
  payload: Json | null;
  reason: RunReason | null;
  error: RunError | null;
  result: Json | null;
  /** Extra facts about a run that did not run (e.g. how many occurrences a catch-up summary stands for). */
  details: Record<string, Json> | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
}

/** One try of a run, kept for history. */
export interface Attempt {
  runId: string;
  attempt: number;
  workerId: string;
  startedAt: number;
  finishedAt: number;
  outcome: 'succeeded' | 'failed' | 'retry' | 'checkAgain' | 'timeout' | 'leaseExpired' | 'released';
  error: RunError | null;
  result: Json | null;
}

export function isFinal(state: RunState): boolean {
  return FINAL_STATES.includes(state);
}

const LEGAL: Record<RunState, readonly RunState[]> = {
  scheduled: ['running', 'skipped', 'expired', 'cancelled'],
  running: ['succeeded', 'dead', 'scheduled', 'cancelled'],
  succeeded: [],
  dead: [],
  skipped: [],
  expired: [],
  cancelled: [],
};

export function canTransition(from: RunState, to: RunState): boolean {
  return LEGAL[from].includes(to);
}

/**
 * A spec occurrence's id: "<scheduleId>:<scheduledFor>", the text its run's occurrence key holds while it
 * blocks a duplicate (a manual run's id is its own: store/common/occurrence-id.ts).
 */
export function occurrenceIdOf(scheduleId: string | number, scheduledFor: string | number): string {
  return `${scheduleId}:${scheduledFor}`;
}
