// Background upkeep that no run waits on: reports runs that were due but never started within their grace
// ("schedule not fired": runs still scheduled, runs claimed into this worker's buffer that never started
// delivery, and schedules whose next occurrence nothing materialised), and prunes old history by the retention
// settings: final runs, and the overrides of occurrences written long ago. Every instance may run it; each report is
// made once (the store marks what it returned; a buffered run is known to its worker only).

import type { Clock } from '../clock.js';
import type { Run } from '../domain/run.js';
import type { EventBus, PunctualEvents } from '../events.js';
import type { Store } from '../store/store.js';
import { Loop } from './loop.js';

/** Overrides deleted per store statement when pruning. */
export const OVERRIDE_PRUNE_BATCH = 1000;

export interface Retention {
  /** Final runs older than this are pruned. */
  maxAgeMs: number;
  /** Dead and expired runs are kept this long instead. */
  failedMaxAgeMs: number;
  /** At most this many final runs per schedule are kept (newest first). */
  keepPerSchedule: number;
}

export interface HousekeeperOptions {
  notFiredGraceMs: number;
  /** Longest sleep between two rounds (pruning runs at most once a minute). */
  intervalMs: number;
  /** Sleep between rounds while something is overdue already (the next one may come due any moment). */
  overdueIntervalMs: number;
  retention: Retention;
  /** This process's claimed runs that waited past the grace without starting, each returned once. */
  unstarted?: (now: number, graceMs: number) => Run[];
  /** The earliest dueAt among this process's claimed runs not started and not reported yet. */
  nextUnstartedDue?: () => number | null;
  /**
   * Called after the report marked overdue runs: marking them held their rows for a moment, and a claim in
   * that moment skipped them (a claim skips locked rows), so the worker must look again now rather than at
   * its backstop.
   */
  reported?: () => void;
  /**
   * Called after the report marked overdue schedules, with the earliest of their occurrences: marking them
   * held their rows, and a materializer claim in that moment skipped them and may have raised its low-water
   * mark past them (low-water-mark.ts), so the materializer must look from there now rather than at its next
   * full scan.
   */
  schedulesReported?: (earliest: number) => void;
}

export class Housekeeper {
  readonly loop: Loop;
  #lastPrune = -Infinity;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly opts: HousekeeperOptions,
  ) {
    this.loop = new Loop('housekeeper', clock, bus, () => this.#round(), {
      maxSleepMs: opts.intervalMs,
      errorBackoffMs: 1000,
    });
  }

  async #round(): Promise<number> {
    const now = this.clock.now();
    const late = await this.store.takeNotFired(now, this.opts.notFiredGraceMs, 1000);
    const grace = this.opts.notFiredGraceMs;
    const stuck = this.opts.unstarted?.(now, grace) ?? [];
    for (const run of [...late, ...stuck]) this.bus.emit('schedule:notFired', notFired(run));
    if (late.length > 0) this.opts.reported?.();
    const overdue = await this.store.takeOverdueSchedules(now, grace, 1000);
    if (overdue.length > 0) this.opts.schedulesReported?.(Math.min(...overdue.map((s) => s.nextFireAt!)));
    for (const s of overdue) {
      this.bus.emit('schedule:notFired', {
        tenantId: s.tenantId,
        scheduleId: s.id,
        scheduleKey: s.key,
        scheduledFor: s.nextFireAt!,
        run: null,
      });
    }
    if (now - this.#lastPrune >= 60_000) {
      this.#lastPrune = now;
      const r = this.opts.retention;
      for (;;) {
        const n = await this.store.pruneHistory({
          now,
          retentionMs: r.maxAgeMs,
          failedRetentionMs: r.failedMaxAgeMs,
          keepPerSchedule: r.keepPerSchedule,
          limit: 5000,
        });
        if (n < 5000) break;
      }
      // Overrides of occurrences long written and as old as the history they explain (docs/operations.md).
      for (;;) {
        const n = await this.store.pruneOverrides({ before: now - r.maxAgeMs, limit: OVERRIDE_PRUNE_BATCH });
        if (n < OVERRIDE_PRUNE_BATCH) break;
      }
    }
    return this.#nextRound(now, grace);
  }

  /**
   * The check is driven by the wake timer: the next round is when the earliest pending occurrence (a
   * scheduled run, a buffered run, a schedule's next instant) would pass its grace, or sooner while something
   * is overdue already, or at the backstop interval.
   */
  async #nextRound(now: number, grace: number): Promise<number> {
    const pending = [
      await this.store.nextRunDueAt(),
      await this.store.nextScheduleAt(),
      this.opts.nextUnstartedDue?.() ?? null,
    ];
    let next = this.clock.now() + this.opts.intervalMs;
    for (const dueAt of pending) {
      if (dueAt === null) continue;
      const overdueAt = dueAt + grace + 1;
      next = Math.min(next, overdueAt > now ? overdueAt : now + this.opts.overdueIntervalMs);
    }
    return next;
  }
}

function notFired(run: Run): PunctualEvents['schedule:notFired'] {
  return {
    tenantId: run.tenantId,
    scheduleId: run.scheduleId,
    scheduleKey: run.scheduleKey,
    scheduledFor: run.scheduledFor,
    run,
  };
}
