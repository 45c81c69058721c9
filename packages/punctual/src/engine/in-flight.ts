// A run the worker holds (claimed, not settled yet), and the prefetch buffer of those waiting for a free
// slot or for their instant (claimed ahead, started by the buffer's timer). It keeps the facts about one held
// run that the worker's decisions read: when it was claimed, whether its delivery started, whether it was
// reported late. It never talks to the store or a target.

import type { CancelTimer, Clock } from '../clock.js';
import type { Run } from '../domain/run.js';
import type { AttemptSpan } from '../run-tracer.js';
import type { ClaimedRun } from '../store/store.js';

export interface InFlight {
  claimed: ClaimedRun;
  abort: AbortController;
  /** The instant of the claim that leased it. */
  claimedAt: number;
  /** When the delivery started (claim time while it waits in the prefetch buffer). */
  startedAt: number;
  /** Waiting in the prefetch buffer, not delivering yet. */
  buffered: boolean;
  /** Waiting for its saturated target to have room (not delivering, holds no slot). */
  waiting: boolean;
  /** Its delivery started (its target was called). */
  delivered: boolean;
  /** Reported as not started within the grace (schedule:notFired), once. */
  reported: boolean;
  /** The delivery ended (finished or dropped): its slot is free. */
  done: boolean;
  settled: boolean;
  cancelTimeout: CancelTimer;
  /** When the lease lapses unless renewed (engine clock). */
  leaseUntil: number;
  /** The span of the attempt being delivered, while it is open (only with a tracer). */
  span?: AttemptSpan;
}

/**
 * What the run's startedAt is after this attempt: when its first delivery started. The claim recorded its
 * own instant; a run that was not delivered in this attempt keeps what it had before the claim.
 */
export function firstStart(flight: InFlight): number | null {
  const recorded = flight.claimed.run.startedAt;
  if (recorded !== flight.claimedAt) return recorded; // an earlier attempt started it
  return flight.delivered ? flight.startedAt : null;
}

/**
 * Claimed runs waiting for a free slot or for their instant (claimed ahead: claimAheadMs), oldest claim
 * first.
 */
export class PrefetchBuffer {
  #items: InFlight[] = [];
  /** The timer for the earliest run held ahead of its instant, and that instant. */
  #timer: { at: number; cancel: CancelTimer } | undefined;

  /** `due`: called when a run held ahead of its instant comes due (armFor arms the timer). */
  constructor(
    private readonly clock: Clock,
    private readonly due: () => void,
  ) {}

  get length(): number {
    return this.#items.length;
  }

  push(flight: InFlight): void {
    this.#items.push(flight);
  }

  /**
   * Removes and returns the oldest run due by `now` (a run claimed ahead of its instant stays until then), or
   * undefined when none is.
   */
  shiftDue(now: number): InFlight | undefined {
    const i = this.#items.findIndex((f) => f.claimed.run.dueAt <= now);
    return i < 0 ? undefined : this.#items.splice(i, 1)[0];
  }

  /** Keeps a timer for the earliest run held ahead of `now` (claimed ahead), which calls `due` then. */
  armFor(now: number): void {
    let at: number | null = null;
    for (const f of this.#items) {
      const dueAt = f.claimed.run.dueAt;
      if (dueAt > now && (at === null || dueAt < at)) at = dueAt;
    }
    if (this.#timer?.at === at) return;
    this.disarm();
    if (at === null) return;
    const cancel = this.clock.setTimer(at, () => {
      this.#timer = undefined;
      this.due();
    });
    this.#timer = { at, cancel };
  }

  /** Cancels the timer (the worker stops). */
  disarm(): void {
    this.#timer?.cancel();
    this.#timer = undefined;
  }

  /** Empties the buffer, returning what it held. */
  takeAll(): InFlight[] {
    return this.#items.splice(0);
  }

  /** Removes and returns the runs that match. */
  takeWhere(match: (f: InFlight) => boolean): InFlight[] {
    const taken = this.#items.filter(match);
    if (taken.length > 0) this.#items = this.#items.filter((f) => !taken.includes(f));
    return taken;
  }

  /** The earliest dueAt among the runs not reported yet (null: none). */
  nextUnreportedDue(): number | null {
    let next: number | null = null;
    for (const f of this.#items)
      if (!f.reported && (next === null || f.claimed.run.dueAt < next)) next = f.claimed.run.dueAt;
    return next;
  }

  /** Runs not started `graceMs` after they were due, each returned once (schedule:notFired). */
  takeUnstarted(now: number, graceMs: number): Run[] {
    const late: Run[] = [];
    for (const f of this.#items) {
      if (f.reported || f.claimed.run.dueAt + graceMs >= now) continue;
      f.reported = true;
      late.push(f.claimed.run);
    }
    return late;
  }
}
