// What to do with a due run at claim time: the deadline and overlap policies as one pure decision. Both
// stores call this inside their claim transaction so they behave the same. It must never perform I/O.
//
// Overlap (a schedule whose previous run is still running):
//   allow           claim it anyway
//   skip            the new run is skipped (reason overlap)
//   bufferOne       it waits; when it is claimed, other due runs of the schedule are skipped (only one buffered)
//   bufferAll       it waits; runs go one at a time, in order
//   cancelPrevious  the running run is cancelled (its worker loses the lease and aborts), this one is claimed
// Stores leave waiting (buffer*) runs out of the claim query while their schedule has a running run, so they
// never hold up other work.

import type { OverlapPolicy } from './policies.js';

export type ClaimDecision = 'claim' | 'expire' | 'skip' | 'wait' | 'cancelRunningThenClaim';

export interface ClaimCandidate {
  expiresAt: number | null;
  overlap: string;
}

export interface ClaimContext {
  now: number;
  /** Another run of the same schedule is `running` in the store. */
  running: boolean;
  /** A run of the same schedule was already claimed in this batch. */
  claimedInBatch: boolean;
}

export function decideClaim(c: ClaimCandidate, ctx: ClaimContext): ClaimDecision {
  if (c.expiresAt !== null && ctx.now > c.expiresAt) return 'expire';
  const overlap = c.overlap as OverlapPolicy;
  if (overlap === 'allow') return 'claim';
  if (ctx.claimedInBatch) return overlap === 'skip' ? 'skip' : 'wait';
  if (!ctx.running) return 'claim';
  switch (overlap) {
    case 'skip':
      return 'skip';
    case 'cancelPrevious':
      return 'cancelRunningThenClaim';
    default:
      return 'wait';
  }
}

/** Overlap policies whose waiting runs stay out of the claim query while the schedule runs. */
export const WAITING_OVERLAPS: readonly string[] = ['bufferOne', 'bufferAll'];

/**
 * Whether claiming a run of this overlap policy ends the schedule's other due runs (skipped, reason
 * overlap): bufferOne keeps one buffered run, the one just claimed.
 */
export function claimSkipsOtherDue(overlap: string): boolean {
  return overlap === 'bufferOne';
}
