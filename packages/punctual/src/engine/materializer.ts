// The materializer: turns schedules into runs a short look-ahead before they are due. Each step claims due
// schedules, asks the domain which runs their next occurrences become (misfire rules included), and commits
// runs and the schedule's new position in one compare-and-set, so any number of instances materialise each
// occurrence exactly once. It never delivers anything and never decides policy itself. A schedule with
// calendars has them read from the store at each step, so a calendar change applies to what comes next.

import type { Clock } from '../clock.js';
import { applyCalendarRules, calendarFate, type OccurrenceFate } from '../domain/calendar/apply-calendars.js';
import type { CalendarDraft } from '../domain/calendar/calendar.js';
import { calendarNamesOf } from '../domain/calendar/calendar-rules.js';
import { planMaterialization } from '../domain/materialize-plan.js';
import { hasCalendars } from '../store/calendar-store.js';
import type { Schedule } from '../domain/schedule.js';
import type { EventBus } from '../events.js';
import type { Advance, AdvanceResult, RunInsert, Store } from '../store/store.js';
import { Loop } from './loop.js';
import type { SpecCache } from './spec-cache.js';

export interface MaterializerOptions {
  lookaheadMs: number;
  misfireThresholdMs: number;
  batchSize: number;
  maxRunsPerStep: number;
  claimLeaseMs: number;
  maxSleepMs: number;
}

export class Materializer {
  readonly loop: Loop;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly specs: SpecCache,
    private readonly opts: MaterializerOptions,
    /** Told the earliest dueAt of the runs a step inserted, so the worker can wake for it. */
    private readonly onRunsDue: (dueAt: number) => void,
  ) {
    this.loop = new Loop('materializer', clock, bus, () => this.#step(), {
      maxSleepMs: opts.maxSleepMs,
      errorBackoffMs: 250,
    });
  }

  async #step(): Promise<number | null> {
    for (;;) {
      const now = this.clock.now();
      const due = await this.store.claimDueSchedules({
        now,
        horizon: now + this.opts.lookaheadMs,
        limit: this.opts.batchSize,
        leaseMs: this.opts.claimLeaseMs,
      });
      await this.#advanceAll(due, now);
      if (due.length < this.opts.batchSize) break;
    }
    const next = await this.store.nextScheduleAt();
    return next === null ? null : next - this.opts.lookaheadMs;
  }

  /** Advances the claimed schedules, in one store transaction when the store can batch them. */
  async #advanceAll(due: Schedule[], now: number): Promise<void> {
    const calendars = await this.#calendarsOf(due);
    const steps = due.map((s) => this.#plan(s, now, calendars));
    const store = this.store;
    const results = store.advanceSchedules
      ? await store.advanceSchedules(steps.map((p) => p.advance))
      : await sequentially(steps, (p) => store.advanceSchedule(p.advance));
    steps.forEach((p, i) => this.#report(p.schedule, p.complete, results[i]!, now));
  }

  /** The calendars the claimed schedules use, by tenant and name (one read per calendar). */
  async #calendarsOf(due: Schedule[]): Promise<Map<string, CalendarDraft>> {
    const out = new Map<string, CalendarDraft>();
    const store = this.store;
    if (!hasCalendars(store)) return out;
    for (const s of due) {
      for (const name of calendarNamesOf(s.calendarRules ?? null)) {
        const k = `${s.tenantId}\u0000${name}`;
        if (out.has(k)) continue;
        const cal = await store.getCalendar(s.tenantId, name);
        // A calendar deleted under a schedule (deletion refuses while one names it): no dates, every day works.
        out.set(k, cal ?? { name, tz: 'UTC', dates: [], workingDays: null, description: null });
      }
    }
    return out;
  }

  #plan(
    s: Schedule,
    now: number,
    calendars: Map<string, CalendarDraft>,
  ): { schedule: Schedule; complete: boolean; advance: Advance } {
    const spec = this.specs.get(s, now);
    let fate: ((t: number) => OccurrenceFate) | undefined;
    if (s.calendarRules != null) {
      const applied = applyCalendarRules(s.calendarRules, (n) => calendars.get(`${s.tenantId}\u0000${n}`));
      fate = (t) => calendarFate(t, applied, spec.tz);
    }
    const plan = planMaterialization(s, (t) => spec.nextAfter(t), {
      now,
      horizon: now + this.opts.lookaheadMs,
      misfireThresholdMs: this.opts.misfireThresholdMs,
      maxRunsPerStep: this.opts.maxRunsPerStep,
      fate,
    });
    const runs: RunInsert[] = plan.runs.map((r) => ({
      tenantId: s.tenantId,
      scheduleId: s.id,
      scheduleKey: s.key,
      scheduleVersion: s.version,
      kind: 'scheduled',
      unique: r.state === 'scheduled',
      scheduledFor: r.scheduledFor,
      dueAt: r.dueAt,
      expiresAt: r.expiresAt,
      priority: s.policies.priority,
      maxAttempts: s.policies.retry.maxAttempts,
      overlap: s.policies.overlap,
      payload: null,
      state: r.state,
      reason: r.reason,
      details: r.details,
    }));
    const advance: Advance = {
      tenantId: s.tenantId,
      scheduleId: s.id,
      version: s.version,
      expectedNextFireAt: s.nextFireAt,
      nextFireAt: plan.nextFireAt,
      fired: plan.fired,
      complete: plan.complete,
      runs,
      now,
    };
    return { schedule: s, complete: plan.complete, advance };
  }

  #report(s: Schedule, complete: boolean, result: AdvanceResult, now: number): void {
    if (result.status === 'conflict') return;
    let earliest = Infinity;
    for (const t of result.transitions) {
      this.bus.emitTransition(t);
      if (t.to === 'scheduled' && t.run.dueAt < earliest) earliest = t.run.dueAt;
    }
    this.bus.emit('materializer:advanced', {
      scheduleId: s.id,
      runs: result.transitions.length,
      // How long after its look-ahead instant the schedule was picked up.
      lagMs: s.nextFireAt === null ? 0 : Math.max(0, now - (s.nextFireAt - this.opts.lookaheadMs)),
    });
    if (complete) this.bus.emit('schedule:completed', { tenantId: s.tenantId, scheduleId: s.id });
    if (earliest !== Infinity) this.onRunsDue(earliest);
  }
}

/** Runs `fn` on each item in turn (for a store without advanceSchedules). */
async function sequentially<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) out.push(await fn(item));
  return out;
}
