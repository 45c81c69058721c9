// The listing queries of the store contract (ScheduleQuery, RunQuery, RevisionQuery) and the Page they
// answer with, continued by an opaque cursor. Types only: they must never hold logic
// (store/common/page-cursor.ts writes and reads the cursors).

import type { RunState } from '../domain/run.js';
import type { ScheduleState } from '../domain/schedule.js';

export interface ScheduleQuery {
  tenantId: string;
  state?: ScheduleState | undefined;
  targetKind?: string | undefined;
  keyPrefix?: string | undefined;
  /** Every one of these labels (key, value) must be on the schedule. */
  labels?: readonly (readonly [string, string])[] | undefined;
  /** Opaque cursor from a previous page. */
  cursor?: string | undefined;
  limit: number;
}

export interface RunQuery {
  tenantId: string;
  scheduleKey?: string | undefined;
  state?: RunState | undefined;
  /** scheduledFor in [from, to). */
  from?: number | undefined;
  to?: number | undefined;
  cursor?: string | undefined;
  limit: number;
}

/** A key's revisions, newest first (they outlive a deleted schedule, up to REVISIONS_KEPT of them). */
export interface RevisionQuery {
  tenantId: string;
  key: string;
  cursor?: string | undefined;
  limit: number;
}

export interface Page<T> {
  items: T[];
  /** Present when more items follow. */
  nextCursor?: string | undefined;
}
