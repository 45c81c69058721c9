// How many claimed runs a worker may hold beyond its concurrency, waiting for a slot. It owns the running
// average of delivery times and nothing else: it never claims, delivers or reads a clock (durations come
// in). Fast handlers get a deep buffer, so one store transaction settles and claims many runs at once;
// slow handlers keep it shallow, so a run never waits long in one instance while another could start it.

export interface PrefetchOptions {
  concurrency: number;
  /** The buffer's floor, whatever the handlers' speed. */
  min: number;
  /** The buffer's ceiling. */
  max: number;
  /** About how long a buffered run may wait for a slot. */
  waitMs: number;
}

/** Weight of the newest delivery in the running average. */
const WEIGHT = 0.1;

export class PrefetchSizer {
  #averageMs: number | undefined;

  constructor(private readonly opts: PrefetchOptions) {}

  /** Records how long a delivery took (engine-clock milliseconds). */
  observe(durationMs: number): void {
    const d = Math.max(0, durationMs);
    this.#averageMs = this.#averageMs === undefined ? d : this.#averageMs + (d - this.#averageMs) * WEIGHT;
  }

  /**
   * The buffer size now: the runs that `concurrency` slots get through in `waitMs` at the average delivery
   * time, between `min` and `max`; `min` until a delivery has been seen.
   */
  get limit(): number {
    const { concurrency, min, max, waitMs } = this.opts;
    if (this.#averageMs === undefined) return min;
    const fit = Math.floor((concurrency * waitMs) / Math.max(this.#averageMs, 0.001));
    return Math.max(min, Math.min(max, fit));
  }
}
