// How many claimed runs a worker may hold beyond its concurrency, waiting for a slot or for their instant.
// It owns the running average of delivery times and the guess made before the first delivery, nothing else:
// it never claims, delivers or reads a clock (durations and claims are reported to it). Fast handlers get a
// deep buffer, so one store transaction settles and claims many runs at once; slow handlers keep it
// shallow, so a run never waits long in one instance while another could start it.

export interface PrefetchOptions {
  concurrency: number;
  /** The buffer's floor, whatever the handlers' speed. */
  min: number;
  /** The buffer's ceiling. */
  max: number;
  /** About how long a buffered run may wait for a slot. */
  waitMs: number;
  /**
   * How long before its instant a run may be claimed (claimAheadMs): while claims find only runs ahead of
   * their instant, the buffer may hold what the slots get through in that long (at least `waitMs`).
   */
  aheadMs: number;
}

/** Weight of the newest delivery in the running average. */
const WEIGHT = 0.1;

export class PrefetchSizer {
  #averageMs: number | undefined;
  /** The last claim that took runs took only runs ahead of their instant. */
  #ahead = false;

  constructor(private readonly opts: PrefetchOptions) {}

  /** Whether a delivery has ended (or outlasted `waitMs`) since the worker started: the pace is known. */
  get observed(): boolean {
    return this.#averageMs !== undefined;
  }

  /**
   * Records how long a delivery took (engine-clock milliseconds). True when it is the first and took
   * `waitMs` or more: the handlers are slow, and the worker hands back what it claimed ahead on the guess
   * made before (see `limit`) beyond the depth now known (excess). A faster first delivery says too little
   * (the engine clock counts whole milliseconds) to hand anything back on.
   */
  observe(durationMs: number): boolean {
    const d = Math.max(0, durationMs);
    const first = this.#averageMs === undefined;
    this.#averageMs = first ? d : this.#averageMs! + (d - this.#averageMs!) * WEIGHT;
    if (!first || d < this.opts.waitMs) return false;
    // What the guess held is due now or soon, and handed back: until a claim says otherwise, none is ahead.
    this.#ahead = false;
    return true;
  }

  /**
   * A delivery is still running `elapsedMs` (at least `waitMs`) after it started and none has ended yet: its
   * time counts as that long, so slow handlers are known without waiting for one to end. True as `observe`.
   */
  stillRunning(elapsedMs: number): boolean {
    return this.#averageMs === undefined && this.observe(elapsedMs);
  }

  /** Reports a claim that took runs, and whether all of them were ahead of their instant. */
  claimed(allAhead: boolean): void {
    this.#ahead = allAhead;
  }

  /**
   * The buffer size now: the runs that `concurrency` slots get through in `waitMs` at the average delivery
   * time, or in `aheadMs` while claims find only runs ahead of their instant (they block nothing that is
   * due, and a minute boundary's runs all come due at once), between `min` and `max`. Before a delivery has
   * been seen: `max` while claims find only runs ahead of their instant, so a worker started before a
   * boundary claims it ahead as a warm one does, and `min` otherwise.
   */
  get limit(): number {
    if (this.#averageMs === undefined) return this.#ahead ? this.opts.max : this.opts.min;
    const { waitMs, aheadMs } = this.opts;
    return this.#fit(this.#ahead ? Math.max(waitMs, aheadMs) : waitMs);
  }

  /**
   * How many of `held` buffered runs to hand back once the handlers are known to be slow (observe): those
   * beyond what the slots get through in `waitMs` (the first delivery has started, so they are due or soon
   * will be).
   */
  excess(held: number): number {
    return Math.max(0, held - this.#fit(this.opts.waitMs));
  }

  /** The runs `concurrency` slots get through in `withinMs` at the average pace, between `min` and `max`. */
  #fit(withinMs: number): number {
    const { concurrency, min, max } = this.opts;
    const fit = Math.floor((concurrency * withinMs) / Math.max(this.#averageMs ?? 0, 0.001));
    return Math.max(min, Math.min(max, fit));
  }
}
