// RunInsert: a run as a store is asked to insert it (by the materializer's advance, an insert outside it, an
// override's write or removal, a resume's skipped records). A type only: it must never hold logic; which
// runs an occurrence becomes is decided by the domain and the callers, never here.

import type { Json } from '../domain/json.js';
import type { RunKind, RunReason } from '../domain/run.js';

/**
 * A run to insert. Unique by (scheduleId, scheduledFor) when `unique` is true: a duplicate is a no-op.
 * Records of occurrences that did not run (skipped) are not unique, so a backfill can still run the instant.
 * Every run that is not manual has occurrenceId `<scheduleId>:<scheduledFor>`.
 */
export interface RunInsert {
  tenantId: string;
  scheduleId: string;
  scheduleKey: string;
  scheduleVersion: number;
  kind: RunKind;
  /** Spec occurrences that will run are unique; manual runs and skipped records are not. */
  unique: boolean;
  scheduledFor: number;
  dueAt: number;
  expiresAt: number | null;
  /**
   * By when the run must have succeeded (its schedule's `expect`); null for none. The alert evaluator takes
   * due ones from an index, so only runs with an expectation are ever looked at.
   */
  expectBy?: number | null | undefined;
  priority: number;
  maxAttempts: number;
  overlap: string;
  payload: Json | null;
  /** Insert directly in a final state (skipped runs recording a missed occurrence). */
  state: 'scheduled' | 'skipped';
  reason: RunReason | null;
  details: Record<string, Json> | null;
}
