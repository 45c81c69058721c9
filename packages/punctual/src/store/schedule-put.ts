// The schedule put of the store contract: PutScheduleRequest (what putSchedule and putSchedules take, with
// their compare-and-set and hints), PutScheduleResult, and sameAsStored (whether the stored draft is the one
// put, taking the caller's verdict when it compared that version). Pure: no I/O, no clock; it must never
// decide what a put writes (the stores do, through store/common/put-rules.ts).

import type { RevisionNote } from '../domain/schedule-revision.js';
import type { Schedule, ScheduleDraft } from '../domain/schedule.js';
import type { Transition } from './transition.js';

export interface PutScheduleRequest {
  draft: ScheduleDraft;
  /** Nominal instant of the first occurrence to materialise (null: none). */
  nextFireAt: number | null;
  /** Refuse with VERSION_CONFLICT unless the stored version equals this (undefined: no check). */
  expectedVersion?: number | undefined;
  /**
   * Refuse with VERSION_CONFLICT (`expected: null`) when a schedule with this key exists: a create that must
   * not turn into an update (the declared schedules' compare-and-set, when another instance created it first).
   */
  expectAbsent?: boolean | undefined;
  /**
   * A hint: the caller found no schedule with this key just before. A store may then try a plain insert
   * first and take its update path only when the key exists after all. The result is the same either way.
   */
  expectNew?: boolean | undefined;
  /** A created schedule starts in this state (default active; paused: pausedAt = now). An update ignores it. */
  initialState?: 'active' | 'paused' | undefined;
  /** Who made the change (and the version a rollback restores), kept in the revision the put writes. */
  revision?: RevisionNote | undefined;
  /** Instants whose overrides the change drops (their occurrences are gone), deleted in the same transaction. */
  dropOverrides?: readonly number[] | undefined;
  /**
   * A hint: the caller already compared the draft with this version of the schedule (`same`: sameDraft's
   * verdict). A schedule's draft changes only with its version, so when the locked row is still this id at
   * this version the store may take the verdict instead of comparing again. The result is the same either way.
   */
  comparedWith?: { scheduleId: string; version: number; same: boolean } | undefined;
  now: number;
}

/** sameDraft(stored, req.draft), or the caller's verdict when it compared the same version (comparedWith). */
export function sameAsStored(
  req: PutScheduleRequest,
  stored: { id: string; version: number },
  compare: () => boolean,
): boolean {
  const c = req.comparedWith;
  return c !== undefined && c.scheduleId === stored.id && c.version === stored.version ? c.same : compare();
}

export interface PutScheduleResult {
  schedule: Schedule;
  created: boolean;
  /** False when the draft equalled the stored one: nothing changed, version kept. */
  changed: boolean;
  /** Pending runs of the previous version, now `cancelled` with reason `updated`. */
  transitions: Transition[];
}
