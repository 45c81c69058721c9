// A single-flight wake loop: runs `body` when its timer fires or when nudged, never twice at once, and
// arms its timer for the instant the body asks for (or an earlier one a nudge asked for while it ran).
// Errors are reported and retried with backoff. This is what lets workers sleep exactly until the next due
// run instead of polling. The first round that succeeds after errors is announced (`loop:recovered`),
// which is how the engine knows its database is back.

import type { CancelTimer, Clock } from '../clock.js';
import type { EventBus } from '../events.js';

export interface LoopOptions {
  /** Longest sleep when the body has no next instant (a backstop, not what decides precision). */
  maxSleepMs: number;
  /** First retry delay after an error (doubles up to maxSleepMs). */
  errorBackoffMs: number;
}

/** Body: does one round of work and returns the next instant it wants to run at (null: maxSleep). */
export type LoopBody = () => Promise<number | null>;

export class Loop {
  #running = false;
  #again = false;
  #stopped = true;
  #timer: CancelTimer | undefined;
  #armedAt = Infinity;
  /** The earliest later instant a nudge asked for while the body ran: the timer is armed for it after. */
  #wantedAt = Infinity;
  #errors = 0;
  #idle: Promise<void> = Promise.resolve();

  constructor(
    private readonly name: string,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly body: LoopBody,
    private readonly opts: LoopOptions,
  ) {}

  /** Starts the loop: runs the body now, or first at `at`. */
  start(at?: number): void {
    this.#stopped = false;
    if (at === undefined) this.nudge();
    else this.#arm(at);
  }

  /** True from stop() until the next start(): a long round should end early. */
  get stopping(): boolean {
    return this.#stopped;
  }

  /** Stops arming timers and resolves when the current round (if any) has finished. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#disarm();
    await this.#idle;
  }

  /** Runs the body now (at <= now or omitted) or re-arms the timer earlier than it was. */
  nudge(at?: number): void {
    if (this.#stopped) return;
    const now = this.clock.now();
    if (at === undefined || at <= now) {
      if (this.#running) {
        this.#again = true;
        return;
      }
      this.#disarm();
      this.#idle = this.#run();
      return;
    }
    if (this.#running) this.#wantedAt = Math.min(this.#wantedAt, at);
    else if (at < this.#armedAt) this.#arm(at);
  }

  async #run(): Promise<void> {
    this.#running = true;
    let next: number | null;
    try {
      do {
        this.#again = false;
        next = await this.body();
        if (this.#errors > 0) this.bus.emit('loop:recovered', { where: this.name });
        this.#errors = 0;
      } while (this.#again && !this.#stopped);
    } catch (error) {
      this.#errors++;
      this.bus.emit('error', { error, where: this.name });
      next =
        this.clock.now() + Math.min(this.opts.maxSleepMs, this.opts.errorBackoffMs * 2 ** (this.#errors - 1));
    } finally {
      this.#running = false;
    }
    if (this.#stopped) return;
    const now = this.clock.now();
    const at = Math.min(next ?? Infinity, this.#wantedAt, now + this.opts.maxSleepMs);
    this.#wantedAt = Infinity;
    if (this.#again || at <= now) {
      // Work arrived while the body ran, or the body asked to run again at once: yield to I/O first.
      this.#arm(now);
    } else {
      this.#arm(at);
    }
  }

  #arm(at: number): void {
    this.#disarm();
    this.#armedAt = at;
    this.#timer = this.clock.setTimer(at, () => {
      this.#timer = undefined;
      this.#armedAt = Infinity;
      this.nudge();
    });
  }

  #disarm(): void {
    this.#timer?.();
    this.#timer = undefined;
    this.#armedAt = Infinity;
  }
}
