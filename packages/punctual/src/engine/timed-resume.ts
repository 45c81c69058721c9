// The end of timed pauses: schedules paused `until` an instant that has come are resumed, their occurrences
// in the pause recorded as skipped (reason paused), exactly as a resume by hand would. Any number of
// instances may run it at once: the store's resume is conditional (still paused, and until <= now), so each
// schedule is resumed once and a schedule paused again meanwhile stays paused. It never delivers anything.

import type { Clock } from '../clock.js';
import { planResume } from '../domain/resume-plan.js';
import type { EventBus } from '../events.js';
import { pausedRecord } from '../run-insert-of.js';
import type { Store } from '../store/store.js';
import type { SpecCache } from './spec-cache.js';

/** Resumes up to `limit` schedules whose timed pause ended by now; returns how many were looked at. */
export async function resumeTimedPauses(
  store: Store,
  clock: Clock,
  bus: EventBus,
  specs: SpecCache,
  limit: number,
): Promise<number> {
  const now = clock.now();
  const due = await store.dueTimedPauses(now, limit);
  for (const s of due) {
    const spec = specs.get(s, now);
    const plan = planResume(s, (t) => spec.nextAfter(t), now);
    const res = await store.resumeSchedule(s.tenantId, s.key, {
      nextFireAt: plan.nextFireAt,
      skipped: plan.skipped.map((k) => pausedRecord(s, k.scheduledFor, k.details)),
      now,
      actor: 'pause-until',
      dueBy: now,
    });
    // Left paused (paused again with a later until) or resumed by another instance first (it announced it).
    if (res === undefined || res.schedule.state === 'paused' || res.schedule.updatedAt !== now) continue;
    for (const t of res.transitions) bus.emitTransition(t);
    bus.emit('schedule:resumed', { schedule: res.schedule });
  }
  return due.length;
}
