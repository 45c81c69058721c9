// Whether the materializer is behind, and the wait a bulk load makes while it is. A claim that picks up a
// schedule more than `behindLagMs` after its look-ahead instant (its runs written with less of the look-ahead
// to spare than they should be) marks the materializer behind, until one of its steps ends with nothing left
// due; meanwhile `caughtUp()` holds its caller (a bulk put's next batch) until then, or for `maxWaitMs` at
// most, so that on this instance the runs falling due come before a load's writes. It must never hold a
// caller longer than `maxWaitMs`, and it decides nothing about what is materialised.

import type { Clock } from '../clock.js';
import type { EventBus } from '../events.js';

export interface MaterializerBacklogOptions {
  /** Lag beyond its look-ahead instant at which a schedule picked up marks the materializer behind. */
  behindLagMs: number;
  /** Longest a caller of caughtUp() waits. */
  maxWaitMs: number;
}

export class MaterializerBacklog {
  #behindSince: number | null = null;
  readonly #waiters = new Set<() => void>();

  constructor(
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly opts: MaterializerBacklogOptions,
  ) {}

  /** True from a late claim until a step ends caught up. */
  get behind(): boolean {
    return this.#behindSince !== null;
  }

  /** A claim picked up schedules `lagMs` (the largest) after their look-ahead instants. */
  claimed(lagMs: number, now: number): void {
    if (lagMs <= this.opts.behindLagMs || this.#behindSince !== null) return;
    this.#behindSince = now;
    this.bus.emit('materializer:behind', { lagMs });
  }

  /**
   * A step ended: the waiters go on. With nothing due left to claim (`caughtUp`) the materializer is no
   * longer behind; after a failed step it stays behind, and the next caller waits again.
   */
  stepEnded(now: number, caughtUp: boolean): void {
    if (caughtUp && this.#behindSince !== null) {
      const behindMs = now - this.#behindSince;
      this.#behindSince = null;
      this.bus.emit('materializer:caughtUp', { behindMs });
    }
    for (const go of [...this.#waiters]) go();
  }

  /** Resolves at once when not behind; otherwise once a step ends caught up, or after maxWaitMs. */
  caughtUp(): Promise<void> {
    if (this.#behindSince === null) return Promise.resolve();
    return new Promise((resolve) => {
      const cancel = this.clock.setTimer(this.clock.now() + this.opts.maxWaitMs, () => go());
      const go = (): void => {
        this.#waiters.delete(go);
        cancel();
        resolve();
      };
      this.#waiters.add(go);
    });
  }
}
