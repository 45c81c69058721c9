// Compiled specs by schedule content, so the materializer does not re-parse a cron or RRULE on every step.
// A bounded map: the first written entries are dropped first (domain/bounded-map.ts).

import { BoundedMap } from '../domain/bounded-map.js';
import type { Schedule } from '../domain/schedule.js';
import type { CompiledSpec } from '../domain/timing/compiled-spec.js';
import { compileStored } from '../domain/schedule.js';

export class SpecCache {
  readonly #entries: BoundedMap<string, CompiledSpec>;

  constructor(capacity = 10_000) {
    this.#entries = new BoundedMap(capacity);
  }

  /** The compiled spec of a stored schedule (validated when it was saved, so not again). */
  get(s: Schedule, now: number): CompiledSpec {
    const dst = s.dst === null ? '' : `${s.dst.gap}/${s.dst.repeat}`;
    const key = `${s.spec}\u0000${s.tz}\u0000${s.startAt}\u0000${s.endAt}\u0000${s.createdAt}\u0000${dst}`;
    const cached = this.#entries.get(key);
    if (cached) return cached;
    const c = compileStored(s, now);
    this.#entries.set(key, c);
    return c;
  }
}
