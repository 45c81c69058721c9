// The worker's prefetch buffer: claimed runs waiting for a free slot or for their instant (claimed ahead:
// claimAheadMs), and the one timer that wakes the worker when a run held ahead comes due. Due runs leave by
// priority (highest first), then instant, then claim order: the order of one claim, kept across claims, so a
// run claimed later (its instant came into the claim window later, or it was written later) still starts
// before a due run of lower priority. It stays cheap when deep: a minute boundary claimed ahead holds
// thousands of runs and the worker takes the next due run and re-arms the timer after every delivery, so
// both are heaps (runs ahead by instant, due runs by start order). It never talks to the store or a target,
// and reads the clock only to set its timer.

import type { CancelTimer, Clock } from '../clock.js';
import type { Run } from '../domain/run.js';
import { BinaryHeap } from './binary-heap.js';
import type { InFlight } from './in-flight.js';

interface Held {
  f: InFlight;
  /** The run's, copied so that the heaps compare plain numbers. */
  dueAt: number;
  priority: number;
  /** Claim order. */
  seq: number;
}

/** Start order of due runs: priority, then instant, then claim order. */
function startsBefore(a: Held, b: Held): boolean {
  if (a.priority !== b.priority) return a.priority > b.priority;
  if (a.dueAt !== b.dueAt) return a.dueAt < b.dueAt;
  return a.seq < b.seq;
}

/** Order of runs held ahead: instant, then claim order. */
function dueBefore(a: Held, b: Held): boolean {
  return a.dueAt !== b.dueAt ? a.dueAt < b.dueAt : a.seq < b.seq;
}

export class PrefetchBuffer {
  /** Runs not due when last looked at, by instant. */
  readonly #ahead = new BinaryHeap<Held>(dueBefore);
  /** Runs due, in start order. */
  readonly #due = new BinaryHeap<Held>(startsBefore);
  #seq = 0;
  /** No run in the ahead heap is due after this (it may be later than the latest one left). */
  #aheadUntil = -Infinity;
  /** The timer for the earliest run held ahead of its instant, and that instant. */
  #timer: { at: number; cancel: CancelTimer } | undefined;

  /** `due`: called when a run held ahead of its instant comes due (armFor arms the timer). */
  constructor(
    private readonly clock: Clock,
    private readonly due: () => void,
  ) {}

  get length(): number {
    return this.#ahead.size + this.#due.size;
  }

  push(flight: InFlight): void {
    const { dueAt, priority } = flight.claimed.run;
    this.#ahead.push({ f: flight, dueAt, priority, seq: this.#seq++ });
    if (dueAt > this.#aheadUntil) this.#aheadUntil = dueAt;
  }

  /**
   * Removes and returns the first run in start order among those due by `now` (a run claimed ahead of its
   * instant stays until then), or undefined when none is.
   */
  shiftDue(now: number): InFlight | undefined {
    this.#reach(now);
    return this.#due.pop()?.f;
  }

  /** Keeps a timer for the earliest run held ahead of `now` (claimed ahead), which calls `due` then. */
  armFor(now: number): void {
    this.#reach(now);
    const at = this.#ahead.peek()?.dueAt ?? null;
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

  /** Empties the buffer, returning what it held in start order. */
  takeAll(): InFlight[] {
    const all = this.#inOrder();
    this.#keep([]);
    return all.map((h) => h.f);
  }

  /** Removes and returns the runs that match. */
  takeWhere(match: (f: InFlight) => boolean): InFlight[] {
    const held = [...this.#ahead.toArray(), ...this.#due.toArray()];
    const taken = held.filter((h) => match(h.f));
    if (taken.length > 0) this.#keep(held.filter((h) => !match(h.f)));
    return taken.sort((a, b) => a.seq - b.seq).map((h) => h.f);
  }

  /** Removes and returns the `n` runs that would start last (lowest priority, then latest instant). */
  takeNewest(n: number): InFlight[] {
    const held = this.#inOrder();
    const cut = Math.max(0, held.length - n);
    this.#keep(held.slice(0, cut));
    return held.slice(cut).map((h) => h.f);
  }

  /** The earliest dueAt among the runs not reported yet (null: none). */
  nextUnreportedDue(): number | null {
    let next: number | null = null;
    for (const f of this.#held())
      if (!f.reported && (next === null || f.claimed.run.dueAt < next)) next = f.claimed.run.dueAt;
    return next;
  }

  /** Runs not started `graceMs` after they were due, each returned once (schedule:notFired). */
  takeUnstarted(now: number, graceMs: number): Run[] {
    const late: Run[] = [];
    for (const f of this.#held()) {
      if (f.reported || f.claimed.run.dueAt + graceMs >= now) continue;
      f.reported = true;
      late.push(f.claimed.run);
    }
    return late;
  }

  /** Moves the runs whose instant `now` has reached from the ahead heap to the due one. */
  #reach(now: number): void {
    if (this.#ahead.size > 0 && this.#aheadUntil <= now) {
      // A boundary claimed ahead comes due at once: move the lot without taking them out one by one.
      for (const h of this.#ahead.toArray()) this.#due.push(h);
      this.#ahead.reset([]);
      this.#aheadUntil = -Infinity;
      return;
    }
    for (let h = this.#ahead.peek(); h !== undefined && h.dueAt <= now; h = this.#ahead.peek())
      this.#due.push(this.#ahead.pop()!);
  }

  /** The held runs, in no particular order. */
  #held(): InFlight[] {
    return [...this.#ahead.toArray(), ...this.#due.toArray()].map((h) => h.f);
  }

  /**
   * Everything held in start order (priority, then instant, then claim): what `takeNewest` gives back first
   * is what would start last, the lowest priority.
   */
  #inOrder(): Held[] {
    return [...this.#due.toArray(), ...this.#ahead.toArray()].sort((a, b) => (startsBefore(a, b) ? -1 : 1));
  }

  /** Keeps only these runs, all in the ahead heap: the next `#reach` moves the due ones again. */
  #keep(held: Held[]): void {
    this.#due.reset([]);
    this.#ahead.reset(held);
    this.#aheadUntil = held.reduce((m, h) => Math.max(m, h.dueAt), -Infinity);
  }
}
