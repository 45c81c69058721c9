// When the worker claims next: after a claim, from the earliest scheduled run the store holds, and whether
// the claim may have left runs due. Pure: it takes the instants and the claim's result as arguments, never
// reads a clock and never talks to the store.

import type { ClaimResult } from '../store/store.js';

/**
 * Whether a claim of `limit` runs may have left runs due behind it: it took its limit, or it ended runs on
 * its way (expired, skipped), which count against what it examines. While one may have, the worker's
 * settlements claim too; once a claim takes every run due, they only settle.
 */
export function claimMayLeaveDue(res: ClaimResult, limit: number): boolean {
  return res.claimed.length >= limit || res.transitions.some((t) => t.to !== 'running');
}

/**
 * The instant of the worker's next claim after one made at `claimedAt` that took every run it could, given
 * the earliest scheduled run left (`next`, null: none) and the claim-ahead window; null: no timer (a
 * settlement, a wake-up or the backstop sleep prompts the next claim).
 *
 * - A run due at the claim and still scheduled was held back by its overlap policy: a settlement wakes the
 *   worker for it (or the backstop, for runs settled by another process).
 * - A run inside the window that the claim left (another overlap policy, or held by another process) is
 *   claimed at its instant.
 * - A later run is claimed up to `aheadMs` before its instant, but no sooner than half the window after this
 *   claim: otherwise, with runs a few milliseconds apart, each claim would take only the one run that came
 *   into the window since the last. Every run is still claimed at least half the window ahead.
 */
export function nextClaimAt(next: number | null, claimedAt: number, aheadMs: number): number | null {
  if (next === null || next <= claimedAt) return null;
  if (next <= claimedAt + aheadMs) return next;
  return Math.max(next - aheadMs, claimedAt + aheadMs / 2);
}
