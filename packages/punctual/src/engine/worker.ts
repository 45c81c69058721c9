// The worker: claims due runs with a lease, delivers them through their target, renews the lease while it
// holds them (engine/lease-heartbeat.ts), and settles each attempt. Claims and settlements are batched into
// shared store transactions. A worker whose lease is lost (reclaimed, cancelled) aborts the delivery and
// cannot settle: the store refuses its stale token. A deadline is checked again when a buffered or waiting
// run's delivery would start, and store signals end held runs at once (cancelled: abort; paused: end the
// buffered ones). A run whose target is saturated for it waits in memory (lease kept, no slot held, nothing
// written) and is admitted when the target has room (engine/waiting-runs.ts); it never loops through the
// store. It never decides policy itself: the domain maps outcomes to next states; one attempt's delivery
// against its timeout is engine/deliver-attempt.ts; the first look at the handlers' pace after a start, which
// may hand back what the buffer held on a guess, is engine/pace-probe.ts.

import type { Clock } from '../clock.js';
import type { Json } from '../domain/json.js';
import { boundedResult } from '../domain/json-limits.js';
import { attemptOutcome, nextStateFor, type NextState, type Outcome } from '../domain/outcome.js';
import type { Attempt, Run, RunReason } from '../domain/run.js';
import type { TargetKind } from '../domain/target.js';
import { targetKind } from '../domain/target.js';
import type { EventBus } from '../events.js';
import type { ClaimResult, SettleOutcome, Store } from '../store/store.js';
import type { Delivery, TargetDriver } from '../targets/target.js';
import { AttemptSpans, traceIds } from './attempt-spans.js';
import { deliverAttempt } from './deliver-attempt.js';
import { claimedFlight, firstStart, flightSettlement, type InFlight } from './in-flight.js';
import { PrefetchBuffer } from './prefetch-buffer.js';
import { claimMayLeaveDue, nextClaimAt } from './claim-rhythm.js';
import { LeaseHeartbeat } from './lease-heartbeat.js';
import { Loop } from './loop.js';
import { nextTurn } from './next-turn.js';
import { PaceProbe } from './pace-probe.js';
import { PrefetchSizer } from './prefetch-sizer.js';
import { SettlementPipeline } from './settlement-pipeline.js';
import { WaitingRuns } from './waiting-runs.js';
import type { WorkerOptions } from './worker-options.js';

export type { WorkerOptions } from './worker-options.js';

export class Worker {
  readonly loop: Loop;
  readonly #heartbeat: LeaseHeartbeat;
  readonly #inFlight = new Map<string, InFlight>();
  #stopping = false;
  #drained: (() => void) | undefined;
  /** Slots promised to a claim that has not returned yet (so two claims never overfill the worker). */
  #reserved = 0;
  /**
   * Runs may be due that no claim took: the last claim took its limit or ended runs on its way, or found no
   * room. Settlements claim (settleAndClaim) only while it holds; otherwise the worker's own claims, timed
   * by the next due run and woken by new runs, take them (claim-rhythm.ts).
   */
  #backlog = true;
  /** The worker's own claim found no room and returned without arming its timer: a settlement reruns it. */
  #claimDeferred = false;
  /** Deliveries running now (at most `concurrency`). */
  #executing = 0;
  readonly #buffer: PrefetchBuffer;
  readonly #prefetch: PrefetchSizer;
  readonly #pace: PaceProbe;
  readonly #settlements: SettlementPipeline;
  readonly #waiting: WaitingRuns<InFlight>;
  readonly #spans: AttemptSpans | undefined;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly targets: ReadonlyMap<TargetKind, TargetDriver>,
    private readonly opts: WorkerOptions,
  ) {
    this.#buffer = new PrefetchBuffer(clock, () => {
      if (!this.#stopping) this.#startBuffered();
    });
    this.#prefetch = new PrefetchSizer({
      concurrency: opts.concurrency,
      aheadMs: opts.claimAheadMs,
      ...opts.prefetch,
    });
    this.#pace = new PaceProbe(clock, this.#prefetch, this.#buffer, opts.prefetch.waitMs, {
      stopping: () => this.#stopping,
      handBack: (f, now) => this.#handBack(f, now),
    });
    this.#spans = opts.tracer ? new AttemptSpans(opts.tracer, bus) : undefined;
    this.#waiting = new WaitingRuns<InFlight>(clock, {
      max: opts.maxWaiting,
      recheckMs: opts.deferMs,
      recheck: () => {
        if (!this.#stopping) this.#startBuffered();
      },
    });
    this.#settlements = new SettlementPipeline(
      store,
      clock,
      bus,
      {
        workerId: opts.workerId,
        leaseMs: opts.leaseMs,
        claimAheadMs: opts.claimAheadMs,
        batch: opts.settleBatch,
        parallel: opts.settleParallel,
        retryMs: 500,
      },
      {
        room: () => (this.#stopping || !this.#backlog ? 0 : this.#free()),
        backlog: () => this.#backlog,
        reserve: (n) => (this.#reserved += n),
        claimed: (res, now, more) => {
          this.#backlog = more;
          this.#started(res, now);
        },
        settled: (runId) => this.#inFlight.delete(runId),
        ended: (again) => {
          if (this.#executing === 0) this.#drained?.();
          if (this.#stopping) return;
          if (this.#claimDeferred) {
            this.#claimDeferred = false;
            this.loop.nudge();
          } else if (again !== null) this.wake(again);
        },
        giveUp: () => this.#stopping && this.#drained === undefined,
      },
    );
    this.loop = new Loop('worker', clock, bus, () => this.#claim(), {
      maxSleepMs: opts.maxSleepMs,
      errorBackoffMs: 250,
    });
    this.#heartbeat = new LeaseHeartbeat(store, clock, bus, opts.leaseMs, {
      held: () => this.#inFlight.values(),
      drop: (f, why) => this.#drop(f, why),
      renewed: () => {
        if (this.#executing === 0) this.#drained?.();
        this.loop.nudge();
      },
    });
  }

  /** Runs claimed by this worker and not settled yet (delivering, prefetched, or awaiting their write). */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Of those, the runs claimed ahead of their instant and waiting for it in the buffer (claimAheadMs). */
  get heldAhead(): number {
    const now = this.clock.now();
    let n = 0;
    for (const f of this.#inFlight.values()) if (f.buffered && f.claimed.run.dueAt > now) n++;
    return n;
  }

  start(): void {
    this.#stopping = false;
    this.#settlements.reset();
    this.loop.start();
    this.#heartbeat.start();
  }

  /** Wakes the worker for a run due at `dueAt` (or now): its claim may take it claimAheadMs early. */
  wake(dueAt?: number): void {
    this.loop.nudge(dueAt === undefined ? undefined : dueAt - this.opts.claimAheadMs);
  }

  /**
   * Graceful stop: claims nothing more, waits for in-flight runs until `graceMs` passes, then aborts the rest
   * and hands them back (released: the attempt does not count).
   */
  async stop(graceMs: number): Promise<void> {
    this.#stopping = true;
    await this.loop.stop();
    this.#buffer.disarm();
    this.#pace.cancel();
    // Runs that never started go back at once (those claimed ahead of their instant too).
    for (const f of [...this.#buffer.takeAll(), ...this.#waiting.takeAll()]) {
      f.waiting = false;
      this.#handBack(f, this.clock.now());
    }
    if (this.#executing > 0) {
      await new Promise<void>((resolve) => {
        const cancel = this.clock.setTimer(this.clock.now() + graceMs, () => resolve());
        this.#drained = () => {
          cancel();
          resolve();
        };
      });
      this.#drained = undefined;
      for (const f of this.#inFlight.values()) {
        if (f.settled) continue;
        f.abort.abort(new Error('the scheduler is stopping'));
        this.#handBack(f, this.clock.now());
      }
    }
    await this.#settlements.flush();
    await this.#heartbeat.stop();
  }

  async #claim(): Promise<number | null> {
    this.#claimDeferred = false;
    let claimedAt = this.clock.now();
    while (!this.#stopping) {
      const limit = this.#free();
      if (limit <= 0) {
        // A settlement frees room and claims; the next one to end runs this loop again, which re-arms its
        // timer for the runs due later.
        this.#backlog = true;
        this.#claimDeferred = true;
        return null;
      }
      claimedAt = this.clock.now();
      this.#reserved += limit;
      let res: ClaimResult;
      try {
        res = await this.store.claimRuns({
          workerId: this.opts.workerId,
          now: claimedAt,
          limit,
          leaseMs: this.opts.leaseMs,
          dueBy: claimedAt + this.opts.claimAheadMs,
        });
      } finally {
        this.#reserved -= limit;
      }
      this.#backlog = claimMayLeaveDue(res, limit);
      const allAhead = this.#started(res, claimedAt);
      if (!this.#backlog) break;
      // More to claim ahead of their instant (a boundary is many claims): there is time to let this
      // process's timers and I/O in first (next-turn.ts). Runs due now are claimed without a pause.
      if (allAhead) await nextTurn();
    }
    if (this.#stopping) return null;
    const next = await this.store.nextRunDueAt();
    // Runs due that the claim left (held back by their overlap policy): settlements claim until one takes them.
    if (next !== null && next <= claimedAt) this.#backlog = true;
    return nextClaimAt(next, claimedAt, this.opts.claimAheadMs);
  }

  /** How many more runs a claim may take now. */
  #free(): number {
    const room =
      this.opts.concurrency + this.#prefetch.limit - this.#executing - this.#buffer.length - this.#reserved;
    return Math.min(room, this.opts.claimBatch);
  }

  /** Holds the runs a claim at `now` took; returns whether every one of them is ahead of its instant. */
  #started(res: ClaimResult, now: number): boolean {
    // A claimed run is `run:started` when its delivery starts (#deliver), not while it waits in the buffer.
    for (const t of res.transitions) if (t.to !== 'running') this.bus.emitTransition(t);
    for (const claimed of res.claimed) {
      const flight = claimedFlight(claimed, now, this.opts.leaseMs);
      this.#inFlight.set(claimed.run.id, flight);
      // A claim that rode on a settlement sent before stop() began comes back while the worker stops: its runs
      // go back at once, like the buffered ones stop() hands back (the store closes after the drain).
      if (this.#stopping) this.#handBack(flight, now);
      else this.#buffer.push(flight);
    }
    const allAhead = res.claimed.every((c) => c.run.dueAt > now);
    if (res.claimed.length > 0) this.#prefetch.claimed(allAhead);
    if (!this.#stopping) this.#startBuffered();
    return allAhead;
  }

  #startBuffered(): void {
    // Runs waiting for room first (they were claimed earlier), each when its target admits it.
    for (const flight of this.#waiting.admit(
      () => this.#executing < this.opts.concurrency,
      (f) => !this.#saturated(f),
    )) {
      flight.waiting = false;
      if (!this.#pastDeadline(flight)) this.#deliver(flight);
    }
    const now = this.clock.now();
    while (this.#executing < this.opts.concurrency) {
      const flight = this.#buffer.shiftDue(now);
      if (flight === undefined) break;
      // The deadline holds at delivery start: a run that waited in the buffer past it is not delivered late.
      if (this.#pastDeadline(flight)) continue;
      if (this.#saturated(flight)) this.#wait(flight);
      else this.#deliver(flight);
    }
    // A run claimed ahead of its instant starts on the buffer's timer.
    this.#buffer.armFor(now);
  }

  /** Ends the run as `expired` when its deadline passed before its delivery could start. */
  #pastDeadline(flight: InFlight): boolean {
    const expiresAt = flight.claimed.run.expiresAt;
    if (expiresAt === null || this.clock.now() <= expiresAt) return false;
    this.#endUnstarted(flight, { state: 'expired', reason: 'deadline' });
    return true;
  }

  /** Whether the run's target cannot take this run now (per run: a target may admit tenants in turn). */
  #saturated(flight: InFlight): boolean {
    const driver = this.targets.get(targetKind(flight.claimed.schedule.target));
    return driver?.saturated?.(flight.claimed.run) ?? false;
  }

  /**
   * A run whose target is saturated waits in memory, holding no slot that another target's runs could use,
   * until the target admits it. Only when too many already wait is it handed back to the store for a
   * moment (no attempt used).
   */
  #wait(flight: InFlight): void {
    flight.buffered = false;
    if (this.#waiting.add(flight)) {
      flight.waiting = true;
      return;
    }
    flight.done = true;
    this.#handBack(flight, this.clock.now() + this.opts.deferMs);
  }

  /**
   * Settles a run as `released`, due again at `dueAt` or at its own instant when that is later (a run claimed
   * ahead of it must not start early elsewhere): the store hands back the attempt it counted.
   */
  #handBack(flight: InFlight, dueAt: number): void {
    const now = this.clock.now();
    const again = Math.max(dueAt, flight.claimed.run.dueAt);
    this.#enqueue(
      flight,
      { state: 'scheduled', reason: 'released', dueAt: again, error: null },
      'released',
      now,
      null,
    );
  }

  #deliver(flight: InFlight): void {
    const { claimed, abort } = flight;
    const { run, schedule } = claimed;
    const startedAt = this.clock.now();
    flight.startedAt = startedAt;
    flight.buffered = false;
    flight.delivered = true;
    this.#executing++;
    this.#pace.started(startedAt);
    const started = { ...run, startedAt: firstStart(flight) };
    if (this.#spans) flight.span = this.#spans.start(run, schedule, startedAt);
    const trace = flight.span?.context;
    this.bus.emit('run:started', trace ? { run: started, trace: traceIds(trace) } : { run: started });
    const delivery: Delivery = {
      run,
      schedule,
      payload: run.payload ?? schedule.payload,
      signal: abort.signal,
      startedAt,
      ...(trace && { trace }),
    };
    const driver = this.targets.get(targetKind(schedule.target));
    void deliverAttempt(
      this.clock,
      driver,
      abort,
      delivery,
      (cancel) => (flight.cancelTimeout = cancel),
    ).then((outcome) => this.#finish(flight, outcome));
  }

  #finish(flight: InFlight, outcome: Outcome): void {
    flight.cancelTimeout();
    if (flight.done) return; // dropped after losing its lease
    this.#release(flight);
    const now = this.clock.now();
    this.#pace.ended(now - flight.startedAt, now);
    if (flight.settled || !this.#inFlight.has(flight.claimed.run.id)) return; // lost the lease meanwhile
    const run = flight.claimed.run;
    if (outcome.type === 'ok' && outcome.result !== undefined)
      outcome = { ...outcome, result: this.#capResult(outcome.result) };
    const next = nextStateFor(run, outcome, flight.claimed.schedule.policies, now, this.opts.random());
    this.#enqueue(
      flight,
      next,
      attemptOutcome(outcome, next),
      now,
      outcome.type === 'ok' ? (outcome.result ?? null) : null,
    );
  }

  #capResult(result: Json): Json {
    return boundedResult(result, this.opts.maxResultBytes);
  }

  #enqueue(
    flight: InFlight,
    next: NextState | SettleOutcome,
    outcome: Attempt['outcome'],
    now: number,
    result: Json | null,
  ): void {
    flight.settled = true;
    const settlement = flightSettlement(flight, next, outcome, now, result, this.opts.workerId);
    const span = flight.span;
    if (span !== undefined) {
      flight.span = undefined;
      this.#spans!.end(span, { outcome, error: settlement.attempt.error, endedAt: now });
    }
    this.#settlements.push(
      span === undefined ? settlement : { ...settlement, trace: traceIds(span.context) },
    );
  }

  /** Ends a buffered run without delivering it (past its deadline, or its schedule paused). */
  #endUnstarted(
    flight: InFlight,
    outcome: { state: 'cancelled' | 'skipped' | 'expired'; reason: RunReason },
  ): void {
    flight.buffered = false;
    flight.waiting = false;
    flight.done = true;
    // No attempt is recorded for it: the store hands back the attempt the claim counted.
    this.#enqueue(flight, outcome, 'released', this.clock.now(), null);
  }

  /**
   * Aborts the deliveries of these runs at once, or drops them from the buffer: they were cancelled in the
   * store (manual cancel, cancelPrevious), so this worker no longer holds them.
   */
  abortRuns(runIds: readonly string[], why: string): void {
    for (const id of runIds) {
      const f = this.#inFlight.get(id);
      if (f && !f.settled) this.#drop(f, why);
    }
  }

  /**
   * A schedule was paused: its occurrences waiting in the buffer end without delivery (`skipped`, reason
   * `paused`); runs made by hand (trigger, backfill) stay unless cancelPending (`cancelled`, `pausedCancel`).
   */
  schedulePaused(scheduleId: string, cancelPending: boolean): void {
    const match = (f: InFlight): boolean =>
      f.claimed.run.scheduleId === scheduleId && (cancelPending || f.claimed.run.kind === 'scheduled');
    const ended = [...this.#buffer.takeWhere(match), ...this.#waiting.takeWhere(match)];
    for (const f of ended)
      this.#endUnstarted(
        f,
        cancelPending
          ? { state: 'cancelled', reason: 'pausedCancel' }
          : { state: 'skipped', reason: 'paused' },
      );
  }

  /** Buffered runs not started `graceMs` after they were due, each returned once (schedule:notFired). */
  takeUnstarted(now: number, graceMs: number): Run[] {
    return this.#buffer.takeUnstarted(now, graceMs);
  }

  /** The earliest dueAt among buffered runs not reported yet (for the not-fired check's timer). */
  nextUnstartedDue(): number | null {
    return this.#buffer.nextUnreportedDue();
  }

  /** Frees the slot of a delivery that ended; the slot goes to a prefetched run at once. */
  #release(f: InFlight): void {
    f.done = true;
    this.#executing--;
    if (!this.#stopping) this.#startBuffered();
  }

  #drop(f: InFlight, why: string): void {
    f.abort.abort(new Error(why));
    if (f.span) {
      this.#spans!.end(f.span, {
        outcome: 'lost',
        error: { code: 'LEASE_LOST', message: why },
        endedAt: this.clock.now(),
      });
      f.span = undefined;
    }
    f.cancelTimeout();
    if (f.buffered) this.#buffer.takeWhere((b) => b === f);
    else if (f.waiting) {
      this.#waiting.remove(f);
      f.waiting = false;
      f.done = true;
    } else if (!f.done) this.#release(f);
    this.#inFlight.delete(f.claimed.run.id);
    this.bus.emit('lease:lost', { runId: f.claimed.run.id });
  }
}
