// Parsed schedules kept in memory by id, valid for one version: a claim hands out each run with its schedule,
// and parsing the same schedule row (its JSON target, payload and policies) for every run is most of a
// claim's client-side work. Bounded: the least recently used entry goes first (domain/bounded-map.ts). The
// bound must exceed the schedules that fire within the materializer's look-ahead plus the claim's lateness:
// the materializer fills the cache in due order, so a smaller cache evicts exactly the entries the next
// claims need. Pure: no I/O, no clock.

import { BoundedMap } from '../../domain/bounded-map.js';
import type { Schedule } from '../../domain/schedule.js';

export class ScheduleCache {
  readonly #byId: BoundedMap<string, Schedule>;

  constructor(readonly capacity = 50_000) {
    this.#byId = new BoundedMap(capacity, { refreshOnGet: true });
  }

  /** The schedule at exactly this version, or undefined (a newer or older version is a miss). */
  get(id: string, version: number): Schedule | undefined {
    const s = this.#byId.get(id);
    return s === undefined || s.version !== version ? undefined : s;
  }

  /** Keeps `s`, replacing any other version of it; evicts the oldest entry beyond capacity. */
  set(s: Schedule): void {
    this.#byId.set(s.id, s);
  }

  get size(): number {
    return this.#byId.size;
  }
}
