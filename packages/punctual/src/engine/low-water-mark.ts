// The materializer's low-water mark: the earliest next occurrence its claims need to look at. On PostgreSQL
// each advance leaves the schedule's old entry in schedules_due, below the live ones, until no snapshot can
// see it; a claim whose range starts at the index's first entry walks every such entry (at ten million
// schedules, 11,000 buffers for a claim of 200, and the materializer fell behind). After a step that ends
// caught up, every active schedule due by the step's first horizon has been advanced past it (or to an
// instant this module was shown), so the next steps claim from there. Within a step each chain claims from
// the earliest schedule of its previous claim (claims come in order; what lies below is the other chain's,
// advanced within the step), and a step cut short leaves the mark where its chains got to. A schedule can still come due below
// the mark: one put, resumed or whose calendar changed (announced by `lower`, from this process or as a
// signal from another), one a claim skipped while the not-fired report held its row (announced by the
// housekeeper), one whose timed pause ended, or one whose claim by a crashed instance lapsed. The first ones
// lower the mark; for the others, and for whatever else no one announced, a step claims from the
// index's first entry at least every `fullScanMs`. It decides nothing about which runs are written, and it
// must never raise the mark past an instant it was not shown to be drained.

export class LowWaterMark {
  /** The mark; null: the next step claims from the first entry. */
  #mark: number | null = null;
  /** The earliest instant announced since the current step began. */
  #lowered = Infinity;
  /** The instants announced since the current step began, in order (its chains lower their claims to them). */
  #announced: number[] = [];
  /** The current step's first horizon. */
  #horizon = Infinity;
  /** The earliest next occurrence the current step's advances wrote. */
  #next = Infinity;
  #fullScanAt = -Infinity;

  constructor(private readonly fullScanMs: number) {}

  /**
   * A step begins at `now`: where its claims start (undefined: from the index's first entry). `unbounded`:
   * this step must look at every schedule (it resumed timed pauses).
   */
  begin(now: number, unbounded = false): number | undefined {
    const lowered = this.#lowered;
    this.#lowered = Infinity;
    this.#announced = [];
    this.#horizon = Infinity;
    this.#next = Infinity;
    if (this.#mark === null || unbounded || now >= this.#fullScanAt) {
      this.#fullScanAt = now + this.fullScanMs;
      return undefined;
    }
    return Math.min(this.#mark, lowered);
  }

  /** A claim of the step reached up to `t`. */
  horizon(t: number): void {
    if (t < this.#horizon) this.#horizon = t;
  }

  /** An advance of the step moved a schedule to `t`. */
  advanced(t: number): void {
    if (t < this.#next) this.#next = t;
  }

  /**
   * The step ended: `caughtUp`, its chains drained every schedule due by their horizons (the mark rises to
   * the first horizon, or an earlier instant an advance wrote); `cut`, it stopped with schedules still due,
   * its chains having claimed from `reached` at the lowest (undefined: from the first entry); `failed`, the
   * next step claims from the first entry.
   */
  end(outcome: 'caughtUp' | 'cut' | 'failed', reached?: number): void {
    if (outcome === 'caughtUp' && this.#horizon !== Infinity)
      this.#mark = Math.min(this.#horizon, this.#next);
    else if (outcome === 'cut' && reached !== undefined) this.#mark = Math.min(reached, this.#next);
    else this.#mark = null;
  }

  /** Where claims would start now (undefined: from the first entry). */
  get floor(): number | undefined {
    return this.#mark === null ? undefined : Math.min(this.#mark, this.#lowered);
  }

  /** When a step next claims from the first entry, whatever the mark. */
  get fullScanAt(): number {
    return this.#fullScanAt;
  }

  /** A schedule may have come due at `at` (put, resumed, its calendar changed): the next step claims from there. */
  lower(at: number): void {
    if (at < this.#lowered) this.#lowered = at;
    this.#announced.push(at);
  }

  /**
   * Where a chain of the current step claims from next: `since`, lowered to any instant announced after
   * the chain's `seen` first announcements (a schedule put during a long step is claimed in that step).
   */
  since(since: number | undefined, seen: number): { since: number | undefined; seen: number } {
    let from = since;
    for (let i = seen; i < this.#announced.length; i++) {
      if (from !== undefined && this.#announced[i]! < from) from = this.#announced[i];
    }
    return { since: from, seen: this.#announced.length };
  }
}
