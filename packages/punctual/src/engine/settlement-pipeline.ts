// The worker's settlement writes: queues settled attempts, sends them in batches (settlements that finish in
// the same turn share a transaction), keeps up to `parallel` transactions in flight so the store commits one
// batch while the worker delivers the next, refills freed slots in the same transaction when the store can
// (settleAndClaim), and keeps settlements the store refused to take until it is back. It never delivers a
// run or decides a run's next state: the worker gives it finished settlements and takes the claimed runs.

import type { Clock } from '../clock.js';
import type { EventBus } from '../events.js';
import type { TraceIds } from '../run-tracer.js';
import type { ClaimResult, Settlement, Store } from '../store/store.js';
import { claimMayLeaveDue } from './claim-rhythm.js';

export interface SettlementPipelineOptions {
  workerId: string;
  leaseMs: number;
  /** Runs of overlap `allow` due this far ahead are claimed too (WorkerOptions.claimAheadMs). */
  claimAheadMs: number;
  /** Most settlements in one transaction. */
  batch: number;
  /** Most transactions in flight at once. */
  parallel: number;
  /** Wait after the store failed a settlement, before trying again. */
  retryMs: number;
}

/** What the pipeline asks of its worker. */
export interface SettlementHooks {
  /**
   * How many runs a transaction may claim now (0: claim nothing: the worker is full or stopping, or its last
   * claim took every run due).
   */
  room(): number;
  /** Whether runs may be due that no claim took (the last claim was full, or found no room). */
  backlog(): boolean;
  /** Slots promised to (n > 0) or released by (n < 0) a claim in flight. */
  reserve(n: number): void;
  /** Runs claimed by a settlement transaction, at `now`; `more`: it may have left runs due (claimMayLeaveDue). */
  claimed(res: ClaimResult, now: number, more: boolean): void;
  /** A run's settlement was written (`written`) or refused because its lease was lost. */
  settled(runId: string, written: boolean): void;
  /**
   * A transaction ended (written or failed). `again`: when the worker should claim again: now (the worker
   * had a backlog when it was sent, or it failed), the earliest instant one of its settlements scheduled a
   * run again at (a retry), or null.
   */
  ended(again: number | null): void;
  /** After a failure: give up on what is queued (the worker is stopping and its grace is over). */
  giveUp(): boolean;
}

/** A settlement and, when the attempt was traced, its span's ids (for the event it ends in). */
export type QueuedSettlement = Settlement & { trace?: TraceIds };

export class SettlementPipeline {
  #queue: QueuedSettlement[] = [];
  #inFlight = 0;
  #scheduled = false;
  #backingOff = false;
  /** The last send failed: the next that succeeds announces the recovery. */
  #failed = false;
  #abandoned = false;
  #ended: (() => void)[] = [];

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly opts: SettlementPipelineOptions,
    private readonly hooks: SettlementHooks,
  ) {}

  /** Queues a settlement; it is sent on the next turn with every other one queued by then. */
  push(settlement: QueuedSettlement): void {
    this.#queue.push(settlement);
    this.#pumpNextTurn();
  }

  /**
   * Sends what is queued on the next turn of the event loop: the settlements of one turn share a transaction,
   * and a store that works synchronously inside (SQLite) does not chain one batch after another without
   * letting this process's timers and I/O in (next-turn.ts).
   */
  #pumpNextTurn(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#pump();
    });
  }

  /** Sends again after a stop that gave up. */
  reset(): void {
    this.#abandoned = false;
  }

  /** Waits until every queued settlement is written, or given up on (hooks.giveUp). */
  async flush(): Promise<void> {
    this.#pump();
    while (this.#inFlight > 0) {
      await new Promise<void>((r) => this.#ended.push(r));
      this.#pump();
    }
  }

  #pump(): void {
    while (
      this.#queue.length > 0 &&
      this.#inFlight < this.opts.parallel &&
      !this.#backingOff &&
      !this.#abandoned
    ) {
      const batch = this.#queue.splice(0, this.opts.batch);
      this.#inFlight++;
      let again: number | null = this.clock.now();
      void this.#send(batch)
        .then((at) => (again = at))
        .finally(() => {
          this.#inFlight--;
          for (const wake of this.#ended.splice(0)) wake();
          if (this.#queue.length > 0) this.#pumpNextTurn();
          this.hooks.ended(again);
        });
    }
  }

  /**
   * One transaction: the batch's settlements, and a claim for the slots they free when the store can.
   * Returns when the worker should claim again (SettlementHooks.ended).
   */
  async #send(batch: QueuedSettlement[]): Promise<number | null> {
    let again: number | null = null;
    let results: Awaited<ReturnType<Store['settleRuns']>>;
    let claimed: { res: ClaimResult; now: number; more: boolean } | undefined;
    try {
      const now = this.clock.now();
      // Runs known due that no claim took (a full claim, or runs held back by their overlap policy until a
      // run of theirs ends, maybe one of these): the worker claims again once this is written.
      if (this.hooks.backlog()) again = now;
      const limit = this.hooks.room();
      if (limit > 0) {
        this.hooks.reserve(limit);
        try {
          const both = await this.store.settleAndClaim(batch, {
            workerId: this.opts.workerId,
            now,
            limit,
            leaseMs: this.opts.leaseMs,
            dueBy: now + this.opts.claimAheadMs,
          });
          results = both.settled;
          claimed = { res: both.claim, now, more: claimMayLeaveDue(both.claim, limit) };
        } finally {
          this.hooks.reserve(-limit);
        }
      } else {
        results = await this.store.settleRuns(batch, now);
      }
    } catch (error) {
      // The store is unreachable: keep the settlements and try again shortly; the leases are still renewed.
      this.bus.emit('error', { error, where: 'settle' });
      this.#queue.unshift(...batch);
      this.#failed = true;
      this.#backingOff = true;
      await new Promise<void>((r) => this.clock.setTimer(this.clock.now() + this.opts.retryMs, r));
      this.#backingOff = false;
      if (this.hooks.giveUp()) this.#abandoned = true;
      return this.clock.now();
    }
    if (this.#failed) {
      this.#failed = false;
      this.bus.emit('loop:recovered', { where: 'settle' });
    }
    batch.forEach((s, i) => {
      const t = results[i];
      this.hooks.settled(s.runId, t !== undefined && t !== null);
      if (t) this.bus.emitTransition(t, s.trace);
      else this.bus.emit('lease:lost', { runId: s.runId });
    });
    if (claimed) this.hooks.claimed(claimed.res, claimed.now, claimed.more);
    for (const [i, s] of batch.entries()) {
      if (results[i] && s.outcome.state === 'scheduled') again = Math.min(again ?? Infinity, s.outcome.dueAt);
    }
    return again;
  }
}
