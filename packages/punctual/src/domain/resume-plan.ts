// What resuming a paused schedule at `now` does: the occurrences that fell in the pause become skipped
// records (reason paused; at most maxCatchup one by one, the rest as one record), and the schedule goes on
// from its first occurrence at or after now. One rule for a resume by hand and the automatic end of a timed
// pause. Pure: no I/O, never reads a clock.

import type { Json } from './json.js';
import type { Schedule } from './schedule.js';

export interface ResumeSkip {
  scheduledFor: number;
  details: Record<string, Json> | null;
}

export function planResume(
  s: Pick<Schedule, 'nextFireAt' | 'policies'>,
  nextAfter: (after: number) => number | null,
  now: number,
): { skipped: ResumeSkip[]; nextFireAt: number | null } {
  const skipped: ResumeSkip[] = [];
  let t = s.nextFireAt;
  while (t !== null && t < now && skipped.length < s.policies.maxCatchup) {
    skipped.push({ scheduledFor: t, details: null });
    t = nextAfter(t);
  }
  if (t !== null && t < now) skipped.push({ scheduledFor: t, details: { from: t, until: now } });
  return { skipped, nextFireAt: nextAfter(now - 1) };
}
