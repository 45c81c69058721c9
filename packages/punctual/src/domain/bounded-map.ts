// A map of at most `capacity` entries whose oldest go first, for the in-memory caches (compiled specs,
// parsed schedules, memoized results). Pure: no I/O, no clock.
//
// The oldest entry is found by one iterator kept across evictions, not by a new `keys().next()` each time: a
// Map keeps a deleted entry's slot until it rehashes and a new iterator walks from the first slot, so with
// one eviction per insert each eviction walked every slot deleted before it (about 40 µs an insert at 50,000
// entries: 8 ms for a materializer batch of 200). A kept iterator passes each slot once. It always yields the
// oldest live entry: every slot behind it was either yielded (and deleted here) or already empty, and writes,
// including a hit moved to the newest place, land after it.

export interface BoundedMapOptions {
  /** A hit becomes the newest entry (least recently used goes first); otherwise the first written goes first. */
  refreshOnGet?: boolean;
}

export class BoundedMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #refresh: boolean;
  #oldest: Iterator<K> | undefined;

  constructor(
    readonly capacity: number,
    opts: BoundedMapOptions = {},
  ) {
    if (!Number.isInteger(capacity) || capacity < 0) {
      throw new RangeError(`capacity must be a whole number >= 0, got ${capacity}`);
    }
    this.#refresh = opts.refreshOnGet === true;
  }

  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined && this.#refresh) {
      // Map order is insertion order: a hit moved to the end leaves the least recently used first.
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  /** Keeps `value` as the newest entry under `key`, dropping the oldest beyond capacity. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.capacity) {
      let next = this.#oldest?.next();
      // A finished iterator stays finished whatever is added later: start a new one.
      if (next === undefined || next.done === true) {
        this.#oldest = this.#entries.keys();
        next = this.#oldest.next();
      }
      if (next.done === true) return;
      this.#entries.delete(next.value);
    }
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }
}
