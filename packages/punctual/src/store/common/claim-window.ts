// The window a claim takes runs from: up to `now` for every run, up to `dueBy` for runs of overlap `allow`
// (their lease decides nothing, so a worker may hold them a moment before their instant and start each on
// its own timer). Shared by both stores; it never reads a clock.

import type { ClaimRequest } from '../run-claim.js';

/** The instant up to which a claim takes runs of overlap `allow` (never before `now`). */
export function claimDueBy(req: ClaimRequest): number {
  return req.dueBy === undefined ? req.now : Math.max(req.now, req.dueBy);
}
