// Background upkeep that no run waits on: reports runs that were due but never started within their grace
// ("schedule not fired": runs still scheduled, and runs claimed into this worker's buffer that never started
// delivery), and prunes old history by the retention settings. Every instance may run it; each report is
// made once (the store marks what it returned; a buffered run is known to its worker only).

import type { Clock } from '../clock.js';
import type { Run } from '../domain/run.js';
import type { EventBus } from '../events.js';
import type { Store } from '../store/store.js';
import { Loop } from './loop.js';

export interface Retention {
  /** Final runs older than this are pruned. */
  maxAgeMs: number;
  /** Dead and expired runs are kept this long instead. */
  failedMaxAgeMs: number;
  /** At most this many final runs per schedule are kept (newest first). */
  keepPerSchedule: number;
}

export interface HousekeeperOptions {
  notFiredGraceMs: number;
  intervalMs: number;
  retention: Retention;
  /** This process's claimed runs that waited past the grace without starting, each returned once. */
  unstarted?: (now: number, graceMs: number) => Run[];
}

export class Housekeeper {
  readonly loop: Loop;
  #lastPrune = -Infinity;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly opts: HousekeeperOptions,
  ) {
    this.loop = new Loop('housekeeper', clock, bus, () => this.#round(), {
      maxSleepMs: opts.intervalMs,
      errorBackoffMs: 1000,
    });
  }

  async #round(): Promise<number> {
    const now = this.clock.now();
    const late = await this.store.takeNotFired(now, this.opts.notFiredGraceMs, 1000);
    for (const run of late) this.bus.emit('schedule:notFired', { run });
    for (const run of this.opts.unstarted?.(now, this.opts.notFiredGraceMs) ?? [])
      this.bus.emit('schedule:notFired', { run });
    if (now - this.#lastPrune >= 60_000) {
      this.#lastPrune = now;
      const r = this.opts.retention;
      for (;;) {
        const n = await this.store.pruneHistory({
          now,
          retentionMs: r.maxAgeMs,
          failedRetentionMs: r.failedMaxAgeMs,
          keepPerSchedule: r.keepPerSchedule,
          limit: 5000,
        });
        if (n < 5000) break;
      }
    }
    return this.clock.now() + this.opts.intervalMs;
  }
}
