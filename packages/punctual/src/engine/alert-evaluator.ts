// The alert evaluator: turns what the engine sees into alerts. Run transitions and "not fired" reports (each
// announced by exactly one instance) become conditions and clearances queued in memory and written in
// batches; due checks (heartbeats, deadline windows) and due expectations (runs that had to succeed by now) are taken from the
// store's indexes, each by one instance; schedules whose runs settled have their failure rate read again
// (failure-rate-watch.ts). The store opens an alert insert-if-absent, so however many instances report a
// breach, it opens once. It must never scan every schedule or check per round, and never write an alert
// outside the store's transition.

import type { Clock } from '../clock.js';
import type { Alert, AlertClearance, AlertCondition } from '../domain/alert.js';
import type { FailureRatePolicy } from '../domain/failure-rate.js';
import type { EventBus } from '../events.js';
import type { AlertStore } from '../store/alert-store.js';
import {
  notFiredCondition,
  runDeadCondition,
  scheduleChangedClearance,
  scheduleDeletedClearance,
  specExhaustedCondition,
  successClearance,
} from './alert-conditions.js';
import { FailureRateWatch } from './failure-rate-watch.js';
import { Loop } from './loop.js';

export { notFiredCondition, runDeadCondition, successClearance } from './alert-conditions.js';

export interface AlertEvaluatorOptions {
  /** Longest sleep between rounds when no check is due sooner. */
  maxSleepMs: number;
  /** Most checks one round evaluates per store transaction. */
  batch: number;
  /** Called after a round opened or resolved alerts (so their deliveries go out at once). */
  transitioned?: () => void;
  /** When a schedule's failure rate opens `failure_rate`; absent or null: the rate is not watched. */
  failureRate?: FailureRatePolicy | null;
}

type Op = { open: AlertCondition } | { clear: AlertClearance };

/** Longest wait of a queued clearance for the round that writes it. */
export const CLEARANCE_DELAY_MS = 100;

const subjectOf = (tenantId: string, key: string): string => `${tenantId}\u0000${key}`;

/** What the last queued op about a subject was: `open`, or `clear:` and the kinds it clears. */
const opTag = (op: Op): string => ('open' in op ? 'open' : `clear:${op.clear.kinds.join(',')}`);

export class AlertEvaluator {
  readonly loop: Loop;
  #ops: Op[] = [];
  /** The last queued op per subject: a clearance after the same clearance adds nothing. */
  readonly #last = new Map<string, string>();
  #unsubscribe: (() => void)[] = [];
  readonly #rates: FailureRateWatch | null;

  constructor(
    private readonly store: AlertStore,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly opts: AlertEvaluatorOptions,
  ) {
    this.#rates = opts.failureRate ? new FailureRateWatch(store, opts.failureRate) : null;
    this.loop = new Loop('alert evaluator', clock, bus, () => this.#round(), {
      maxSleepMs: opts.maxSleepMs,
      errorBackoffMs: 1000,
    });
  }

  start(): void {
    this.#unsubscribe = [
      this.bus.on('run:dead', ({ run }) => {
        this.#rates?.settled(run);
        this.#queue({ open: runDeadCondition(run) });
      }),
      this.bus.on('run:succeeded', ({ run }) => {
        this.#rates?.settled(run);
        this.#queue({ clear: successClearance(run) });
      }),
      this.bus.on('schedule:notFired', (e) => this.#queue({ open: notFiredCondition(e) })),
      this.bus.on('schedule:exhausted', (e) => this.#queue({ open: specExhaustedCondition(e) })),
      // A changed schedule (a new one has no alert: deleting it resolved them all).
      this.bus.on('schedule:put', ({ schedule: s, created }) => {
        if (!created) this.#queue({ clear: scheduleChangedClearance(s.tenantId, s.key) });
      }),
      this.bus.on('schedule:deleted', (e) =>
        this.#queue({ clear: scheduleDeletedClearance(e.tenantId, e.key) }),
      ),
    ];
    this.loop.start();
  }

  async stop(): Promise<void> {
    for (const u of this.#unsubscribe) u();
    this.#unsubscribe = [];
    await this.loop.stop();
    // A last flush: what this instance saw before stopping still opens (or resolves) its alerts.
    await this.#flush().catch((error: unknown) =>
      this.bus.emit('error', { error, where: 'alert evaluator' }),
    );
  }

  #queue(op: Op): void {
    const c = 'open' in op ? op.open : op.clear;
    const key = subjectOf(c.tenantId, c.subject);
    const tag = opTag(op);
    if (tag !== 'open' && this.#last.get(key) === tag) return;
    this.#last.set(key, tag);
    this.#ops.push(op);
    // An alert opens at once; clearances (one per settled success) wait up to CLEARANCE_DELAY_MS and are
    // written together, instead of a round of statements for each run that succeeds.
    this.loop.nudge('open' in op ? undefined : this.clock.now() + CLEARANCE_DELAY_MS);
  }

  /** Writes the queued ops in order: runs of opens, then runs of clearances, as they came. */
  async #flush(): Promise<boolean> {
    const ops = this.#ops;
    this.#ops = [];
    this.#last.clear();
    let changed = false;
    let done = 0;
    try {
      while (done < ops.length) {
        const isOpen = 'open' in ops[done]!;
        let end = done;
        while (end < ops.length && 'open' in ops[end]! === isOpen) end++;
        const slice = ops.slice(done, end);
        const now = this.clock.now();
        const alerts = isOpen
          ? await this.store.openAlerts(
              slice.map((o) => (o as { open: AlertCondition }).open),
              now,
            )
          : await this.store.resolveAlerts(
              slice.map((o) => (o as { clear: AlertClearance }).clear),
              now,
            );
        this.#announce(isOpen ? 'alert:opened' : 'alert:resolved', alerts);
        changed ||= alerts.length > 0;
        done = end;
      }
    } catch (e) {
      // Put back what was not written: it is tried again next round (opening twice still opens once).
      this.#ops = [...ops.slice(done), ...this.#ops];
      throw e;
    }
    return changed;
  }

  #announce(event: 'alert:opened' | 'alert:resolved', alerts: Alert[]): void {
    for (const alert of alerts) this.bus.emit(event, { alert });
  }

  /** Announces transitions of either kind, each by its state. */
  #announceEach(alerts: Alert[]): void {
    for (const alert of alerts)
      this.bus.emit(alert.state === 'open' ? 'alert:opened' : 'alert:resolved', { alert });
  }

  async #round(): Promise<number> {
    if (this.#rates?.pending) for (const op of await this.#rates.verdicts()) this.#queue(op);
    let changed = await this.#flush();
    // Each kind is probed on its index first (a read), and evaluated (a write transaction) only when due.
    let nextCheck = await this.store.nextCheckAt();
    if (nextCheck !== null && nextCheck <= this.clock.now()) {
      for (;;) {
        const moved = await this.store.evaluateDueChecks(this.clock.now(), this.opts.batch);
        this.#announceEach(moved);
        changed ||= moved.length > 0;
        if (moved.length < this.opts.batch) break;
      }
      nextCheck = await this.store.nextCheckAt();
    }
    let nextExpect = await this.store.nextExpectationAt();
    if (nextExpect !== null && nextExpect <= this.clock.now()) {
      for (;;) {
        const { judged, alerts } = await this.store.evaluateDueExpectations(
          this.clock.now(),
          this.opts.batch,
        );
        this.#announceEach(alerts);
        changed ||= alerts.length > 0;
        if (judged < this.opts.batch) break;
      }
      nextExpect = await this.store.nextExpectationAt();
    }
    if (changed) this.opts.transitioned?.();
    const now = this.clock.now();
    return Math.min(nextCheck ?? Infinity, nextExpect ?? Infinity, now + this.opts.maxSleepMs);
  }
}
