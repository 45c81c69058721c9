// Compiled specs by schedule content, so the materializer does not re-parse a cron or RRULE on every step.
// A bounded map: the oldest entries are dropped first.

import type { Schedule } from '../domain/schedule.js';
import type { CompiledSpec } from '../domain/spec/compiled-spec.js';
import { compileSpec } from '../domain/spec/compile-spec.js';
import { isPunctualError } from '../errors.js';

const NEVER: CompiledSpec = { kind: 'at', source: '', tz: 'UTC', description: '', nextAfter: () => null };

export class SpecCache {
  readonly #entries = new Map<string, CompiledSpec>();

  constructor(private readonly capacity = 10_000) {}

  /** The compiled spec of a stored schedule; a spec with no occurrence left compiles to "never". */
  get(s: Schedule, now: number): CompiledSpec {
    const key = `${s.spec}\u0000${s.tz}\u0000${s.startAt}\u0000${s.endAt}\u0000${s.createdAt}`;
    const cached = this.#entries.get(key);
    if (cached) return cached;
    let c: CompiledSpec;
    try {
      c = compileSpec(s.spec, {
        tz: s.tz,
        now,
        anchor: s.startAt ?? s.createdAt,
        startAt: s.startAt,
        endAt: s.endAt,
      });
    } catch (e) {
      if (!isPunctualError(e, 'SPEC_NEVER_FIRES')) throw e;
      c = NEVER;
    }
    if (this.#entries.size >= this.capacity) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, c);
    return c;
  }
}
