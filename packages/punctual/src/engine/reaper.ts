// The reaper: returns runs whose lease lapsed (a crashed or stalled worker) to the queue, counting the
// attempt, or ends them dead when no attempt remains. Safe to run on every instance at once: the store's
// update is conditional on the lease having lapsed.

import type { Clock } from '../clock.js';
import type { EventBus } from '../events.js';
import type { Store } from '../store/store.js';
import { Loop } from './loop.js';

export class Reaper {
  readonly loop: Loop;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly intervalMs: number,
    private readonly onReclaimed: () => void,
  ) {
    this.loop = new Loop('reaper', clock, bus, () => this.#reap(), {
      maxSleepMs: intervalMs,
      errorBackoffMs: 1000,
    });
  }

  async #reap(): Promise<number> {
    for (;;) {
      const transitions = await this.store.reclaimExpiredLeases(this.clock.now(), 500);
      for (const t of transitions) this.bus.emitTransition(t);
      if (transitions.length > 0) this.onReclaimed();
      if (transitions.length < 500) break;
    }
    return this.clock.now() + this.intervalMs;
  }
}
