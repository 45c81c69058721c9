// Keeps the engine's clock on a shared store's time: measures the offset to the store's server before the
// scheduler writes or claims anything, then again every `intervalMs` in a loop of its own, keeps it rounded
// to the millisecond for the scheduler's clock (offsetClock adds it), and announces each measurement
// (`clock:offset`, `skewed` above `warnAboveMs`). It reads only the clock it is given, uncorrected, and never
// decides what is due.

import type { Clock } from '../clock.js';
import type { EventBus } from '../events.js';
import { Loop } from './loop.js';

export interface ClockSyncOptions {
  enabled: boolean;
  intervalMs: number;
  warnAboveMs: number;
}

/** The store's measurement: its server's clock minus `localNow()`, in ms (Store.measureClockOffset). */
export type MeasureOffset = (localNow: () => number) => Promise<number>;

export class ClockSync {
  #offsetMs = 0;
  /** Set when there is a clock to follow: the store measures one and sync is on. */
  readonly #measure: MeasureOffset | undefined;
  readonly #loop: Loop | undefined;

  /** `measure` undefined (a store on this machine only) or sync disabled: the offset stays 0. */
  constructor(
    private readonly clock: Clock,
    private readonly bus: EventBus,
    measure: MeasureOffset | undefined,
    private readonly opts: ClockSyncOptions,
  ) {
    if (measure === undefined || !opts.enabled) return;
    this.#measure = measure;
    this.#loop = new Loop(
      'clock sync',
      clock,
      bus,
      async () => {
        await this.measureNow();
        return clock.now() + opts.intervalMs;
      },
      { maxSleepMs: opts.intervalMs, errorBackoffMs: 5_000 },
    );
  }

  /** The last measured offset, rounded to the millisecond (0 before the first). */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Measures once, now (the scheduler's start, before anything is written or claimed; then each round). */
  async measureNow(): Promise<void> {
    if (this.#measure === undefined) return;
    const ms = await this.#measure(() => this.clock.now());
    this.#offsetMs = Math.round(ms);
    this.bus.emit('clock:offset', { offsetMs: this.#offsetMs, skewed: Math.abs(ms) > this.opts.warnAboveMs });
  }

  /** Keeps measuring in the background, the first time `intervalMs` from now. */
  start(): void {
    this.#loop?.start(this.clock.now() + this.opts.intervalMs);
  }

  async stop(): Promise<void> {
    await this.#loop?.stop();
  }
}
