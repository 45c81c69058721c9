// The occurrence override writes of the store contract: OverrideWrite (store or replace one, its run
// following it) and OverrideRemoval (remove one, its run going back to the plain occurrence). Types only:
// they must never hold logic; what a write does to the run is store/override-rules.ts.

import type { OccurrenceOverride } from '../domain/occurrence-override.js';
import type { RunInsert } from './run-insert.js';

/**
 * Stores (or replaces) the override of one occurrence and makes the occurrence's run follow it, in one
 * transaction. `run` is the occurrence's run as the override makes it (computed by the caller), with
 * `unique` true when it is to run. When a run holds the occurrence and is still `scheduled`, it is updated
 * conditionally (only while still scheduled); when it is running or final (a claim won), nothing is written
 * and OCCURRENCE_STARTED is thrown. When no run holds it and the schedule materialised past it, the run is
 * inserted only when the last record of the occurrence is a skip by override (undoing or changing a skip);
 * otherwise OCCURRENCE_STARTED. When it is not materialised yet, only the override is written.
 */
export interface OverrideWrite {
  override: OccurrenceOverride;
  run: RunInsert;
  now: number;
}

/** Removes an occurrence's override; its run, if still pending, goes back to `run` (the plain occurrence). */
export interface OverrideRemoval {
  tenantId: string;
  scheduleId: string;
  instant: number;
  run: RunInsert;
  now: number;
}
