// The worker's first look at its handlers' pace after a start. Before any delivery has ended the prefetch
// sizer (prefetch-sizer.ts) guesses: a worker whose claims find only runs ahead of their instant may hold a
// whole minute boundary. A first delivery that takes `waitMs` or more, or is still running `waitMs` after it
// began, shows the handlers are slow and the guess wrong: the probe then gives back the buffered runs beyond
// what the slots get through in `waitMs`, those that would start last, through `handBack` (the worker settles
// them `released`, due at their own instant, where another instance may start them). It owns the one timer
// for that and nothing else: it never claims, delivers or settles.

import type { CancelTimer, Clock } from '../clock.js';
import type { InFlight } from './in-flight.js';
import type { PrefetchBuffer } from './prefetch-buffer.js';
import type { PrefetchSizer } from './prefetch-sizer.js';

export interface PaceProbeHooks {
  /** Whether the worker is stopping: its buffer is being handed back already. */
  stopping: () => boolean;
  /** Gives a buffered run back to the store, due again at its instant (or at `now` if that passed). */
  handBack: (f: InFlight, now: number) => void;
}

export class PaceProbe {
  /** Armed from the first delivery's start until a delivery ends or the timer fires. */
  #timer: CancelTimer | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly sizer: PrefetchSizer,
    private readonly buffer: PrefetchBuffer,
    private readonly waitMs: number,
    private readonly hooks: PaceProbeHooks,
  ) {}

  /** A delivery started at `startedAt`: the first after a start arms the timer. */
  started(startedAt: number): void {
    if (this.sizer.observed || this.#timer !== undefined) return;
    this.#timer = this.clock.setTimer(startedAt + this.waitMs, () => {
      this.#timer = undefined;
      if (!this.hooks.stopping() && this.sizer.stillRunning(this.waitMs)) this.#slow(this.clock.now());
    });
  }

  /** A delivery ended after `durationMs`: the pace is known from now on, and the first may prove it slow. */
  ended(durationMs: number, now: number): void {
    const slow = this.sizer.observe(durationMs);
    this.cancel();
    if (slow) this.#slow(now);
  }

  /** Disarms the timer (the worker stops; a restarted worker knows its pace already). */
  cancel(): void {
    this.#timer?.();
    this.#timer = undefined;
  }

  #slow(now: number): void {
    const excess = this.sizer.excess(this.buffer.length);
    if (excess === 0) return;
    for (const f of this.buffer.takeNewest(excess)) this.hooks.handBack(f, now);
    this.buffer.armFor(now);
  }
}
