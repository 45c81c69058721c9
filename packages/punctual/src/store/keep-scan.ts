// Where the prune of "more than keepPerSchedule final runs" looks next: a mark on the finished time. A
// schedule can only come to hold too many final runs when one of its runs finishes, so each prune reads the
// runs finished since the mark (a range of the finished-time index, in bounded batches) and trims only their
// schedules, instead of ranking the whole history. The mark stays a lag behind `now` so a settlement that
// commits late (its finished time a little in the past) is still seen. Shared by both stores; one per store
// instance (a fresh instance starts at the beginning and walks the history once, batch by batch). Pure: it
// must never perform I/O or read a clock.

/** How far behind `now` the mark stays: settlements commit well within this of their finished time. */
export const KEEP_SCAN_LAG_MS = 60_000;
/** Finished runs read per batch of the scan. */
export const KEEP_SCAN_BATCH = 5_000;
/** Finished runs one prune call reads at most (it goes on from there on the next call). */
export const KEEP_SCAN_BUDGET = 50_000;

export interface FinishedRef {
  scheduleId: string;
  finishedAt: number;
}

export class KeepScan {
  #from = 0;

  /** The finished time the next batch starts at (inclusive). */
  get from(): number {
    return this.#from;
  }

  /** Puts the mark back where it was (a transaction that moved it did not commit). */
  rewind(to: number): void {
    this.#from = to;
  }

  /**
   * The schedules of a batch to trim, once each, in the order they first appear, less those in `seen` (a
   * trim looks at all of a schedule's final runs, so one per prune call is enough); adds them to `seen`.
   */
  static schedules(batch: readonly FinishedRef[], seen: Set<string>): string[] {
    const out: string[] = [];
    for (const r of batch) {
      if (seen.has(r.scheduleId)) continue;
      seen.add(r.scheduleId);
      out.push(r.scheduleId);
    }
    return out;
  }

  /**
   * Moves the mark past a batch (read from `from`, in finished order, at most `limit` rows) whose schedules
   * were all trimmed; true when the scan has caught up with `now` less the lag.
   */
  advance(batch: readonly FinishedRef[], limit: number, now: number): boolean {
    const floor = now - KEEP_SCAN_LAG_MS;
    const last = batch[batch.length - 1]?.finishedAt;
    if (last === undefined) {
      this.#from = Math.max(this.#from, floor);
      return true;
    }
    if (batch.length < limit || last >= floor) {
      this.#from = Math.max(this.#from, Math.min(last + 1, floor));
      return true;
    }
    // A full batch: go on from its last finished time (its ties are read again), unless the whole batch is
    // one instant, which would never move (the rest of those ties are seen when their schedules run again).
    this.#from = batch[0]!.finishedAt === last ? last + 1 : last;
    return false;
  }
}
