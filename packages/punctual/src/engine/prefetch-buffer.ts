// The worker's prefetch buffer: claimed runs waiting for a free slot or for their instant (claimed ahead:
// claimAheadMs), oldest claim first, and the one timer that wakes the worker when a run held ahead comes due.
// It stays cheap when deep: a minute boundary claimed ahead holds thousands of runs, and the worker asks for
// the next due run and re-arms the timer after every delivery, so neither may walk the whole buffer each time
// (taking from the front is O(1); the earliest instant ahead is remembered until it passes or leaves). It
// never talks to the store or a target, and reads the clock only to set its timer.

import type { CancelTimer, Clock } from '../clock.js';
import type { Run } from '../domain/run.js';
import type { InFlight } from './in-flight.js';

/** Taken slots at the front kept before the array is compacted. */
const COMPACT_AFTER = 1024;

export class PrefetchBuffer {
  /** Held runs in claim order from #head on; the slots before #head were taken. */
  #items: (InFlight | undefined)[] = [];
  #head = 0;
  /** The timer for the earliest run held ahead of its instant, and that instant. */
  #timer: { at: number; cancel: CancelTimer } | undefined;
  /**
   * The earliest dueAt among the held runs due after `above` (null: none), or undefined when it must be found
   * again (the run at that instant left, or time reached it).
   */
  #ahead: { above: number; at: number | null } | undefined;

  /** `due`: called when a run held ahead of its instant comes due (armFor arms the timer). */
  constructor(
    private readonly clock: Clock,
    private readonly due: () => void,
  ) {}

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(flight: InFlight): void {
    this.#items.push(flight);
    const a = this.#ahead;
    const dueAt = flight.claimed.run.dueAt;
    if (a !== undefined && dueAt > a.above && (a.at === null || dueAt < a.at)) a.at = dueAt;
  }

  /**
   * Removes and returns the oldest run due by `now` (a run claimed ahead of its instant stays until then), or
   * undefined when none is.
   */
  shiftDue(now: number): InFlight | undefined {
    const first = this.#items[this.#head];
    if (first === undefined) return undefined;
    if (first.claimed.run.dueAt <= now) {
      this.#items[this.#head++] = undefined;
      this.#left(first);
      this.#compact();
      return first;
    }
    for (let i = this.#head + 1; i < this.#items.length; i++) {
      const f = this.#items[i]!;
      if (f.claimed.run.dueAt > now) continue;
      this.#items.splice(i, 1);
      this.#left(f);
      return f;
    }
    return undefined;
  }

  /** Keeps a timer for the earliest run held ahead of `now` (claimed ahead), which calls `due` then. */
  armFor(now: number): void {
    const at = this.#earliestAfter(now);
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
    const all = this.#held();
    this.#items = [];
    this.#head = 0;
    this.#ahead = undefined;
    return all;
  }

  /** Removes and returns the runs that match. */
  takeWhere(match: (f: InFlight) => boolean): InFlight[] {
    const held = this.#held();
    const taken = held.filter(match);
    if (taken.length === 0) return taken;
    const gone = new Set(taken);
    this.#items = held.filter((f) => !gone.has(f));
    this.#head = 0;
    this.#ahead = undefined;
    return taken;
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

  /** The held runs, in claim order. */
  #held(): InFlight[] {
    return this.#items.slice(this.#head) as InFlight[];
  }

  /** The earliest dueAt after `now` among the held runs: remembered, walked again only when stale. */
  #earliestAfter(now: number): number | null {
    const a = this.#ahead;
    if (a !== undefined && a.above <= now && (a.at === null || a.at > now)) return a.at;
    let at: number | null = null;
    for (let i = this.#head; i < this.#items.length; i++) {
      const dueAt = this.#items[i]!.claimed.run.dueAt;
      if (dueAt > now && (at === null || dueAt < at)) at = dueAt;
    }
    this.#ahead = { above: now, at };
    return at;
  }

  /** A run left: the remembered earliest instant ahead is stale if it was that run's. */
  #left(f: InFlight): void {
    if (this.#ahead !== undefined && this.#ahead.at === f.claimed.run.dueAt) this.#ahead = undefined;
  }

  #compact(): void {
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head >= COMPACT_AFTER && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
  }
}
