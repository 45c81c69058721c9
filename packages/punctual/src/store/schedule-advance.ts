// The materializer's requests to the store (ScheduleClaim: the due schedules it takes; Advance: one
// schedule's new position and the runs its occurrences became, a compare-and-set) and its result
// (AdvanceResult). Types only: they must never hold logic; the
// plan comes from domain/materialize-plan.ts, the write from each store.

import type { RunInsert } from './run-insert.js';
import type { Transition } from './transition.js';

/** The materializer's claim of due schedules (Store.claimDueSchedules says what each field means). */
export interface ScheduleClaim {
  now: number;
  horizon: number;
  limit: number;
  leaseMs: number;
  rollBackLeadMs?: number | undefined;
  from?: number | undefined;
}

/** The materializer's request to advance one schedule. Compare-and-set on (version, nextFireAt). */
export interface Advance {
  tenantId: string;
  scheduleId: string;
  version: number;
  expectedNextFireAt: number | null;
  nextFireAt: number | null;
  /** Added to materializedCount. */
  fired: number;
  /** Marks the schedule completed (no occurrence remains). */
  complete: boolean;
  runs: RunInsert[];
  now: number;
}

export interface AdvanceResult {
  /** `conflict`: the schedule changed or another instance advanced it first; nothing was written. */
  status: 'advanced' | 'conflict';
  /** Runs actually inserted (duplicates of existing occurrences are left out). */
  transitions: Transition[];
}
