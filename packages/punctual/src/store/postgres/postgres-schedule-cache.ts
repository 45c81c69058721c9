// Parsed schedules kept in memory by id, valid for one version: a claim hands out each run with its schedule,
// and parsing the same schedule row (its JSON target, payload and policies) for every run is most of a
// claim's client-side work. Bounded: the least recently used entry goes first. The bound must exceed the
// schedules that fire within the materializer's look-ahead plus the claim's lateness: the materializer fills
// the cache in due order, so a smaller cache evicts exactly the entries the next claims need. Pure: no I/O,
// no clock.

import type { Schedule } from '../../domain/schedule.js';

export class ScheduleCache {
  readonly #byId = new Map<string, Schedule>();

  constructor(readonly capacity = 50_000) {}

  /** The schedule at exactly this version, or undefined (a newer or older version is a miss). */
  get(id: string, version: number): Schedule | undefined {
    const s = this.#byId.get(id);
    if (s === undefined || s.version !== version) return undefined;
    // Map order is insertion order: moving a hit to the end makes eviction least-recently-used.
    this.#byId.delete(id);
    this.#byId.set(id, s);
    return s;
  }

  /** Keeps `s`, replacing any other version of it; evicts the oldest entry beyond capacity. */
  set(s: Schedule): void {
    this.#byId.delete(s.id);
    this.#byId.set(s.id, s);
    if (this.#byId.size > this.capacity) {
      const oldest = this.#byId.keys().next();
      if (oldest.done !== true) this.#byId.delete(oldest.value);
    }
  }

  get size(): number {
    return this.#byId.size;
  }
}
