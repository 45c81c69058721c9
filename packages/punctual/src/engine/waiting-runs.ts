// The worker's runs waiting for a saturated target: claimed (their lease kept by the heartbeat), holding no
// delivery slot, oldest first, at most `max` of them. Whenever the worker has a free slot it offers each to
// its target in order, so a target that admits tenants in turn takes another tenant's run ahead of a flooding
// tenant's older ones. While runs wait, a timer offers them again every `recheckMs` (a target may gain room
// without a delivery of this worker ending). It holds no policy and never writes to the store.

import type { CancelTimer, Clock } from '../clock.js';

export interface WaitingRunsOptions {
  max: number;
  recheckMs: number;
  /** Called by the timer while runs wait. */
  recheck: () => void;
}

export class WaitingRuns<T> {
  #runs: T[] = [];
  #timer: CancelTimer | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly opts: WaitingRunsOptions,
  ) {}

  get size(): number {
    return this.#runs.length;
  }

  /** Adds a run at the back; false (not added) when `max` runs already wait. */
  add(run: T): boolean {
    if (this.#runs.length >= this.opts.max) return false;
    this.#runs.push(run);
    this.#arm();
    return true;
  }

  remove(run: T): void {
    this.#runs = this.#runs.filter((r) => r !== run);
    if (this.#runs.length === 0) this.#disarm();
  }

  /**
   * Takes out, oldest first, the runs `admits` accepts while `room()` holds; the caller starts each one it
   * is given before the next is asked about (so a target's answer sees the runs just admitted).
   */
  *admit(room: () => boolean, admits: (run: T) => boolean): Generator<T> {
    if (this.#runs.length === 0) return;
    const runs = this.#runs;
    this.#runs = [];
    let i = 0;
    try {
      while (i < runs.length && room()) {
        const run = runs[i++]!;
        if (admits(run)) yield run;
        else this.#runs.push(run);
      }
    } finally {
      // Runs not looked at (no room left, or the caller stopped) keep their place.
      this.#runs.push(...runs.slice(i));
      if (this.#runs.length === 0) this.#disarm();
    }
  }

  /** Removes and returns the runs that match (a paused schedule's runs). */
  takeWhere(match: (run: T) => boolean): T[] {
    const taken = this.#runs.filter(match);
    if (taken.length > 0) this.#runs = this.#runs.filter((r) => !taken.includes(r));
    if (this.#runs.length === 0) this.#disarm();
    return taken;
  }

  /** Empties the list (a graceful stop hands them back) and stops the timer. */
  takeAll(): T[] {
    this.#disarm();
    return this.#runs.splice(0);
  }

  #arm(): void {
    if (this.#timer) return;
    this.#timer = this.clock.setTimer(this.clock.now() + this.opts.recheckMs, () => {
      this.#timer = undefined;
      this.opts.recheck();
      if (this.#runs.length > 0) this.#arm();
    });
  }

  #disarm(): void {
    this.#timer?.();
    this.#timer = undefined;
  }
}
