// Pausing and resuming one tenant's schedule: a pause (optionally timed, optionally cancelling pending runs)
// and a resume from now on, with the occurrences that fell in the pause recorded as skipped, never run late.
// Every instant comes from the API's clock once per call; it must never run a missed occurrence.

import { actorOf, type ActorOption } from './actor-option.js';
import { writeFromOf } from './domain/calendar/calendar-rules.js';
import { planResume } from './domain/resume-plan.js';
import { compileStored, parseInstant, type Schedule } from './domain/schedule.js';
import { PunctualError } from './errors.js';
import { pausedRecord } from './run-insert-of.js';
import type { TenantApi } from './tenant-api.js';
import type { TenantEngine } from './tenant-engine.js';

/** What TenantApi.pause takes beside the key. */
export type PauseOptions = ActorOption & {
  cancelPending?: boolean | undefined;
  note?: string | undefined;
  /** A timed pause: the schedule resumes by itself at this instant (in the future). */
  until?: string | number | Date | null | undefined;
};

/** Pauses the schedule (TenantApi.pause); SCHEDULE_NOT_FOUND for an unknown key. */
export async function pauseSchedule(
  api: TenantApi,
  engine: TenantEngine,
  key: string,
  opts: PauseOptions,
): Promise<Schedule> {
  const now = api.clock.now();
  const until = pauseUntil(opts.until, now);
  const res = await api.store.pauseSchedule(api.tenantId, key, {
    cancelPending: opts.cancelPending ?? false,
    note: opts.note ?? null,
    now,
    actor: actorOf(opts),
    until,
  });
  if (!res) throw new PunctualError('SCHEDULE_NOT_FOUND', `no schedule "${key}"`, { key });
  for (const t of res.transitions) engine.bus.emitTransition(t);
  engine.bus.emit('schedule:paused', { schedule: res.schedule });
  // The materializer's timer wakes for the end of a timed pause.
  if (until !== null) engine.hooks.scheduleChanged(until);
  return res.schedule;
}

/** Resumes a paused schedule from now on (TenantApi.resume); one not paused is returned as it is. */
export async function resumeSchedule(
  api: TenantApi,
  engine: TenantEngine,
  key: string,
  opts: ActorOption,
): Promise<Schedule> {
  const s = await api.require(key);
  if (s.state !== 'paused') return s;
  const now = api.clock.now();
  const spec = compileStored(s, now);
  const plan = planResume(s, (t) => spec.nextAfter(t), now);
  const res = await api.store.resumeSchedule(api.tenantId, key, {
    nextFireAt: plan.nextFireAt,
    skipped: plan.skipped.map((k) => pausedRecord(s, k.scheduledFor, k.details)),
    now,
    actor: actorOf(opts),
  });
  if (!res) throw new PunctualError('SCHEDULE_NOT_FOUND', `no schedule "${key}"`, { key });
  for (const tr of res.transitions) engine.bus.emitTransition(tr);
  engine.bus.emit('schedule:resumed', { schedule: res.schedule });
  engine.hooks.scheduleChanged(writeFromOf(res.schedule.nextFireAt, res.schedule.calendarRules));
  return res.schedule;
}

/** A timed pause's end: null for none; PAUSE_UNTIL_INVALID when malformed or not after now. */
function pauseUntil(v: string | number | Date | null | undefined, now: number): number | null {
  let until: number | null;
  try {
    until = parseInstant(v, 'until');
  } catch {
    throw new PunctualError(
      'PAUSE_UNTIL_INVALID',
      'until must be an ISO-8601 instant or epoch milliseconds',
      {
        field: 'until',
        value: String(v),
      },
    );
  }
  if (until !== null && until <= now) {
    throw new PunctualError('PAUSE_UNTIL_INVALID', 'until must be in the future', {
      field: 'until',
      value: new Date(until).toISOString(),
    });
  }
  return until;
}
