// A clock the test moves by hand. Timers fire in instant order as `advance` or `set` passes them; a timer
// armed for an instant already reached fires on the next turn of the event loop. With it the engine runs
// months of schedule in milliseconds, and tests never sleep.

import type { CancelTimer, Clock } from '../../src/clock.js';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

export class TestClock implements Clock {
  #now: number;
  #seq = 0;
  #timers: Timer[] = [];

  constructor(start: number | string) {
    this.#now = typeof start === 'number' ? start : Date.parse(start);
  }

  now(): number {
    return this.#now;
  }

  setTimer(at: number, fn: () => void): CancelTimer {
    if (at <= this.#now) {
      let cancelled = false;
      setImmediate(() => {
        if (!cancelled) fn();
      });
      return () => {
        cancelled = true;
      };
    }
    const t: Timer = { at, seq: this.#seq++, fn };
    this.#timers.push(t);
    return () => {
      this.#timers = this.#timers.filter((x) => x !== t);
    };
  }

  /** Moves time forward by `ms`, firing every timer passed, in order, letting the engine react to each. */
  async advance(ms: number): Promise<void> {
    await this.set(this.#now + ms);
  }

  async set(target: number | string): Promise<void> {
    const to = typeof target === 'number' ? target : Date.parse(target);
    for (;;) {
      this.#timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.#timers[0];
      if (!next || next.at > to) break;
      this.#timers.shift();
      this.#now = Math.max(this.#now, next.at);
      next.fn();
      await settle();
    }
    this.#now = Math.max(this.#now, to);
    await settle();
  }

  /** Number of armed timers (for diagnostics). */
  get pending(): number {
    return this.#timers.length;
  }
}

/** Lets pending promise callbacks and immediates run. */
export async function settle(turns = 3): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((r) => setImmediate(r));
}
