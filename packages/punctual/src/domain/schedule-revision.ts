// A schedule revision: one kept change of a schedule (created, updated, paused, resumed, deleted,
// rolledBack) with who made it, when, the field diff against the version before and the full normalised
// content of the version it leaves, so a rollback can restore it exactly. Pure types and constants: it must
// never perform I/O or read a clock.

import type { ScheduleDiff } from './schedule-diff.js';
import type { ScheduleDraft, ScheduleState } from './schedule.js';

/** Every kind of change a revision records. */
export const REVISION_CHANGES = ['created', 'updated', 'paused', 'resumed', 'deleted', 'rolledBack'] as const;
export type RevisionChange = (typeof REVISION_CHANGES)[number];

/** A store keeps at most this many revisions per schedule key (the newest); older ones are dropped. */
export const REVISIONS_KEPT = 100;

/** What a revision records about the change, besides the schedule it belongs to. */
export interface RevisionNote {
  /** Who made the change: an API key (`key:<id>`), `library`, `declared`... null when unknown. */
  actor?: string | null | undefined;
  /** The version a rollback restored (the change is then `rolledBack`). */
  fromVersion?: number | undefined;
}

export interface ScheduleRevision {
  /** Orders the revisions of a key (higher is newer). */
  seq: number;
  scheduleId: string;
  tenantId: string;
  key: string;
  /** The schedule's version after the change (pause, resume and delete keep the version). */
  version: number;
  at: number;
  actor: string | null;
  change: RevisionChange;
  /** The version a rollback restored; null for other changes. */
  fromVersion: number | null;
  /** The schedule's state after the change (`deleted` for a delete). */
  state: ScheduleState | 'deleted';
  /** Field -> {from, to} against the schedule before the change (every field from null on create). */
  diff: ScheduleDiff;
  /** The full normalised content of the version. */
  content: ScheduleDraft;
}
