// The worker's lease heartbeat: every third of the lease it extends, in one store call, the lease of every run
// the worker holds (delivering, buffered, waiting for its target, or settled but not written yet), and hands
// back to the worker, to drop, each run whose lease lapsed without renewal or that the store says is no
// longer the worker's (reclaimed, cancelled). It never delivers, settles or ends a run itself.

import type { Clock } from '../clock.js';
import type { EventBus } from '../events.js';
import type { Store } from '../store/store.js';
import type { InFlight } from './in-flight.js';
import { Loop } from './loop.js';

/** What the heartbeat needs from the worker whose runs it keeps. */
export interface HeldRuns {
  /** Every run the worker holds now. */
  held(): Iterable<InFlight>;
  /** The worker no longer holds `flight` (its delivery is aborted; its settlement would be refused). */
  drop(flight: InFlight, why: string): void;
  /** A renewal ended (the worker may have drained, and may claim again). */
  renewed(): void;
}

export class LeaseHeartbeat {
  readonly #loop: Loop;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    bus: EventBus,
    private readonly leaseMs: number,
    private readonly runs: HeldRuns,
  ) {
    this.#loop = new Loop('heartbeat', clock, bus, () => this.#renew(), {
      maxSleepMs: Math.max(1, Math.floor(leaseMs / 3)),
      errorBackoffMs: 250,
    });
  }

  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  async #renew(): Promise<number | null> {
    const now = this.clock.now();
    // A lease that lapsed without renewal (store unreachable, stalled loop) is someone else's now.
    for (const f of this.runs.held())
      if (!f.settled && f.leaseUntil <= now) this.runs.drop(f, 'lease lapsed');
    // Every run held, including those whose settlement waits for its write (a slow or unreachable store): a
    // lease that lapsed there would let the reaper hand the run out again, and the delivery that already
    // happened would be repeated.
    const live = [...this.runs.held()];
    if (live.length > 0) {
      const held = new Set(
        await this.store.extendLeases(
          live.map((f) => ({ runId: f.claimed.run.id, token: f.claimed.token })),
          now + this.leaseMs,
          now,
        ),
      );
      for (const f of live) {
        if (held.has(f.claimed.run.id)) f.leaseUntil = now + this.leaseMs;
        // Reclaimed or cancelled elsewhere: stop the delivery; its settlement would be refused anyway. A run
        // whose settlement is on its way is left to it: written meanwhile, or refused by its fencing token.
        else if (!f.settled) this.runs.drop(f, 'lease lost');
      }
      this.runs.renewed();
    }
    return this.clock.now() + Math.floor(this.leaseMs / 3);
  }
}
