// The materializer: turns schedules into runs a short look-ahead before they are due. Each step claims due
// schedules, asks the domain which runs their next occurrences become (misfire rules included), and commits
// runs and the schedule's new position in one compare-and-set, so any number of instances materialise each
// occurrence exactly once. It applies the occurrences' overrides (skip, move, payload) as it writes their
// runs, and ends timed pauses whose `until` has come. It never delivers anything and never decides policy
// itself. A schedule with calendars has them read from the store at each step, so a calendar change applies
// to what comes next; one that rolls back to the previous working day is claimed and written
// ROLL_BACK_LEAD_MS further ahead, so its rolled runs are written before they are due. Its own timer wakes it
// at most once per `minStepMs` (a small part of the look-ahead), so schedules spread over the seconds are
// materialised in steps of many rather than one step (and its fixed statements) per schedule. When its
// claims pick up schedules late it is behind (materializer-backlog.ts) until a step ends caught up; a bulk
// load in this process gives way to it meanwhile.

import type { Clock } from '../clock.js';
import {
  calendarFate,
  type AppliedCalendars,
  type OccurrenceFate,
} from '../domain/calendar/apply-calendars.js';
import { planMaterialization } from '../domain/materialize-plan.js';
import { ROLL_BACK_LEAD_MS, rollsBack } from '../domain/calendar/calendar-rules.js';
import { appliedCalendarsOf } from '../schedule-upcoming.js';
import { overriddenRun, type OccurrenceOverride } from '../domain/occurrence-override.js';
import { PunctualError } from '../errors.js';
import { overriddenInsert } from '../run-insert-of.js';
import { expectByOf } from '../domain/schedule-expect.js';
import type { Schedule } from '../domain/schedule.js';
import type { EventBus } from '../events.js';
import type { Advance, AdvanceResult, RunInsert, Store } from '../store/store.js';
import { Loop } from './loop.js';
import { LowWaterMark } from './low-water-mark.js';
import { MaterializerBacklog } from './materializer-backlog.js';
import { nextTurn } from './next-turn.js';
import type { SpecCache } from './spec-cache.js';
import { resumeTimedPauses } from './timed-resume.js';

export interface MaterializerOptions {
  lookaheadMs: number;
  misfireThresholdMs: number;
  batchSize: number;
  /**
   * Claim-and-advance chains a step runs side by side at most. A step starts with one; each full batch a
   * chain claims starts one more, up to this, so a backlog (a load, a minute boundary of many schedules)
   * overlaps one chain's round trips with another's work, while a step with less than a batch due makes one
   * claim as before. The chains' claims are disjoint as two instances' are.
   */
  parallel: number;
  maxRunsPerStep: number;
  claimLeaseMs: number;
  maxSleepMs: number;
  /**
   * Least time from one step's start to the next step its own timer starts (a nudge, such as a schedule
   * changed, still runs at once). Keep it a small part of lookaheadMs: a run is then written at least
   * lookaheadMs - minStepMs before it is due.
   */
  minStepMs: number;
  /**
   * A claim that picks up a schedule more than this after its look-ahead instant marks the materializer
   * behind (materializer-backlog.ts) until a step ends caught up.
   */
  behindLagMs: number;
  /** Longest a bulk load's batch waits for the materializer to catch up. */
  giveWayMs: number;
  /** Longest time between two claims from schedules_due's first entry (low-water-mark.ts). */
  fullScanMs: number;
}

export class Materializer {
  readonly loop: Loop;
  readonly backlog: MaterializerBacklog;
  readonly #low: LowWaterMark;

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
    this.#low = new LowWaterMark(opts.fullScanMs);
    this.backlog = new MaterializerBacklog(clock, bus, {
      behindLagMs: opts.behindLagMs,
      maxWaitMs: opts.giveWayMs,
    });
  }

  async #step(): Promise<number | null> {
    const startedAt = this.clock.now();
    // Timed pauses first, so a schedule resumed now is materialised in this same step (more than a batch
    // of them: the wake-up below is then due at once).
    const resumed = await resumeTimedPauses(
      this.store,
      this.clock,
      this.bus,
      this.specs,
      this.opts.batchSize,
    );
    const from = this.#low.begin(startedAt, resumed > 0);
    const chains: Promise<void>[] = [];
    // A step ends once nothing is due, or cut short: when the scheduler stops, and after fullScanMs (the
    // next step then starts at once), so that a backlog that lasts neither holds up a stop nor the full scan.
    let cut = false;
    // The lowest instant a chain claimed from when the step was cut (low-water-mark.ts).
    let reached: number | undefined = Infinity;
    const chain = async (): Promise<void> => {
      let since = from;
      let seen = 0;
      for (;;) {
        // A schedule put (or resumed) during the step, below where this chain got to, is claimed now.
        ({ since, seen } = this.#low.since(since, seen));
        const now = this.clock.now();
        const horizon = now + this.opts.lookaheadMs;
        this.#low.horizon(horizon);
        const due = await this.store.claimDueSchedules({
          now,
          horizon,
          limit: this.opts.batchSize,
          leaseMs: this.opts.claimLeaseMs,
          rollBackLeadMs: ROLL_BACK_LEAD_MS,
          from: since,
        });
        // The next claim of this chain starts at this one's earliest (what lies below is the other chain's).
        const earliest = Math.min(...due.map((s) => s.nextFireAt ?? Infinity));
        if (earliest !== Infinity) since = Math.max(since ?? -Infinity, earliest);
        this.backlog.claimed(Math.max(0, ...due.map((s) => this.#lag(s, now))), now);
        const full = due.length >= this.opts.batchSize;
        if (full && chains.length < this.opts.parallel) chains.push(chain());
        await this.#advanceAll(due, now);
        if (!full) return;
        if (this.loop.stopping || this.clock.now() - startedAt >= this.opts.fullScanMs) {
          cut = true;
          reached = since === undefined || reached === undefined ? undefined : Math.min(reached, since);
          return;
        }
        // A full batch is followed by another: let this process's timers and I/O in between (next-turn.ts).
        await nextTurn();
      }
    };
    chains.push(chain());
    // Every chain is awaited (the list grows while the first ones run) before a failure is reported.
    let failure: { error: unknown } | undefined;
    for (let i = 0; i < chains.length; i++) {
      try {
        await chains[i];
      } catch (error) {
        failure ??= { error };
      }
    }
    this.backlog.stepEnded(this.clock.now(), failure === undefined && !cut);
    this.#low.end(failure !== undefined ? 'failed' : cut ? 'cut' : 'caughtUp', reached);
    if (failure) throw failure.error;
    const next = await this.#nextScheduleAt(startedAt);
    const rolling = await this.store.nextRollingBackAt();
    const resumeAt = await this.store.nextTimedResumeAt();
    const claimAt = [next, rolling === null ? null : rolling - ROLL_BACK_LEAD_MS].filter(
      (t): t is number => t !== null,
    );
    // Without the floor, schedules spread over the seconds wake a step for each one (three statements of
    // look-up each besides its claim and advance); with it a step takes every schedule due in minStepMs.
    const wake =
      claimAt.length === 0
        ? null
        : Math.max(Math.min(...claimAt) - this.opts.lookaheadMs, startedAt + this.opts.minStepMs);
    if (resumeAt === null) return wake;
    return wake === null ? resumeAt : Math.min(wake, resumeAt);
  }

  /** A schedule may have come due at `at` (put, resumed, its calendar changed, here or elsewhere). */
  scheduleChanged(at: number): void {
    this.#low.lower(at);
  }

  /**
   * The earliest next occurrence, from the low-water mark; from the first entry when sleeping until the
   * bounded one would pass the next full scan (a claim lapsed below the mark is then seen as due).
   */
  async #nextScheduleAt(startedAt: number): Promise<number | null> {
    const floor = this.#low.floor;
    const bounded = floor === undefined ? null : await this.store.nextScheduleAt(floor);
    const wake = bounded === null ? Infinity : Math.max(bounded - this.opts.lookaheadMs, startedAt);
    if (floor !== undefined && wake <= this.#low.fullScanAt) return bounded;
    return this.store.nextScheduleAt();
  }

  /**
   * How long the schedule waited to be picked up: from its look-ahead instant, or from its last change when
   * that came later (a schedule put with its first occurrence inside the look-ahead is not late).
   */
  #lag(s: Schedule, now: number): number {
    if (s.nextFireAt === null) return 0;
    return Math.max(0, now - Math.max(s.nextFireAt - this.opts.lookaheadMs, s.updatedAt));
  }

  /** Advances the claimed schedules, in one store transaction when the store can batch them. */
  async #advanceAll(due: Schedule[], now: number): Promise<void> {
    const calendars = await appliedCalendarsOf(this.store, due);
    const read = await this.#overrides(due, now);
    const steps = due.map((s) => this.#plan(s, now, calendars, read));
    for (const p of steps) if (p.advance.nextFireAt !== null) this.#low.advanced(p.advance.nextFireAt);
    const results = await this.store.advanceSchedules(steps.map((p) => p.advance));
    steps.forEach((p, i) => this.#report(p.schedule, p.complete, p.exhausted, results[i]!, now));
    if (read !== null) await this.#lateOverrides(due, now, read);
  }

  /** The batch's overrides of the occurrences this step may write, by `<scheduleId>:<instant>`. */
  async #overrides(due: Schedule[], now: number): Promise<Map<string, OccurrenceOverride> | null> {
    const from = Math.min(...due.map((s) => s.nextFireAt ?? Infinity));
    if (from === Infinity) return null;
    const list = await this.store.overridesDue(
      due.map((s) => s.id),
      from,
      Math.max(...due.map((s) => this.#horizon(s, now))),
    );
    return new Map(list.map((o) => [`${o.scheduleId}:${o.instant}`, o]));
  }

  /**
   * An override written after this step read them, for an occurrence the step has just written, missed its
   * run: it is applied now, by the same conditional write as any override (a run already claimed keeps it).
   */
  async #lateOverrides(due: Schedule[], now: number, read: Map<string, OccurrenceOverride>): Promise<void> {
    const again = await this.#overrides(due, now);
    const byId = new Map(due.map((s) => [s.id, s]));
    for (const [key, o] of again ?? []) {
      const seen = read.get(key);
      if (seen !== undefined && seen.createdAt === o.createdAt) continue;
      const s = byId.get(o.scheduleId)!;
      try {
        const r = await this.store.putOccurrenceOverride({ override: o, run: overriddenInsert(s, o), now });
        if (r.transition) this.bus.emitTransition(r.transition);
      } catch (e) {
        if (!(e instanceof PunctualError && e.code === 'OCCURRENCE_STARTED')) throw e;
      }
    }
  }

  /**
   * How far ahead the schedule's runs are written: the look-ahead, and for one that rolls back
   * ROLL_BACK_LEAD_MS more, so a run rolled back to an earlier day is written before it is due.
   */
  #horizon(s: Schedule, now: number): number {
    return now + this.opts.lookaheadMs + (rollsBack(s.calendarRules) ? ROLL_BACK_LEAD_MS : 0);
  }

  #plan(
    s: Schedule,
    now: number,
    calendars: Map<string, AppliedCalendars | null>,
    overrides: Map<string, OccurrenceOverride> | null,
  ): { schedule: Schedule; complete: boolean; exhausted: boolean; advance: Advance } {
    const spec = this.specs.get(s, now);
    let fate: ((t: number) => OccurrenceFate) | undefined;
    const applied = calendars.get(s.id) ?? null;
    if (applied !== null) fate = (t) => calendarFate(t, applied, spec.tz);
    const plan = planMaterialization(s, (t) => spec.nextAfter(t), {
      now,
      horizon: this.#horizon(s, now),
      misfireThresholdMs: this.opts.misfireThresholdMs,
      maxRunsPerStep: this.opts.maxRunsPerStep,
      fate,
    });
    const runs: RunInsert[] = plan.runs.map((planned) => {
      const o = planned.state === 'scheduled' ? overrides?.get(`${s.id}:${planned.scheduledFor}`) : undefined;
      const r =
        o === undefined
          ? { ...planned, payload: null }
          : { ...planned, ...overriddenRun({ ...planned, payload: null }, o) };
      return {
        tenantId: s.tenantId,
        scheduleId: s.id,
        scheduleKey: s.key,
        scheduleVersion: s.version,
        kind: 'scheduled',
        unique: r.state === 'scheduled',
        scheduledFor: r.scheduledFor,
        dueAt: r.dueAt,
        expiresAt: r.expiresAt,
        expectBy: expectByOf(s.expect, r),
        priority: s.policies.priority,
        maxAttempts: s.policies.retry.maxAttempts,
        overlap: s.policies.overlap,
        payload: r.payload,
        state: r.state,
        reason: r.reason,
        details: r.details,
      };
    });
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
    return { schedule: s, complete: plan.complete, exhausted: plan.exhausted, advance };
  }

  #report(s: Schedule, complete: boolean, exhausted: boolean, result: AdvanceResult, now: number): void {
    if (result.status === 'conflict') return;
    let earliest = Infinity;
    for (const t of result.transitions) {
      this.bus.emitTransition(t);
      if (t.to === 'scheduled' && t.run.dueAt < earliest) earliest = t.run.dueAt;
    }
    this.bus.emit('materializer:advanced', {
      scheduleId: s.id,
      runs: result.transitions.length,
      lagMs: this.#lag(s, now),
    });
    if (complete) this.bus.emit('schedule:completed', { tenantId: s.tenantId, scheduleId: s.id });
    if (exhausted) {
      this.bus.emit('schedule:exhausted', {
        tenantId: s.tenantId,
        scheduleId: s.id,
        scheduleKey: s.key,
        spec: s.spec,
      });
    }
    if (earliest !== Infinity) this.onRunsDue(earliest);
  }
}
