// The alert evaluator: turns what the engine sees into alerts. Run transitions and "not fired" reports (each
// announced by exactly one instance) become conditions and clearances queued in memory and written in
// batches; due checks (heartbeats) are taken from the store's next-check index, each by one instance. The
// store opens an alert insert-if-absent, so however many instances report a breach, it opens once. It must
// never scan every schedule or check per round, and never write an alert outside the store's transition.

import type { Clock } from '../clock.js';
import { CLEARED_BY_SUCCESS, type Alert, type AlertClearance, type AlertCondition } from '../domain/alert.js';
import type { Run } from '../domain/run.js';
import type { EventBus } from '../events.js';
import type { AlertStore } from '../store/alert-store.js';
import { Loop } from './loop.js';

export interface AlertEvaluatorOptions {
  /** Longest sleep between rounds when no check is due sooner. */
  maxSleepMs: number;
  /** Most checks one round evaluates per store transaction. */
  batch: number;
  /** Called after a round opened or resolved alerts (so their deliveries go out at once). */
  transitioned?: () => void;
}

type Op = { open: AlertCondition } | { clear: AlertClearance };

const subjectOf = (tenantId: string, key: string): string => `${tenantId}\u0000${key}`;

/** A dead run opens `run_dead` about its schedule. */
export function runDeadCondition(run: Run): AlertCondition {
  const why = run.error?.message ? `: ${run.error.message.slice(0, 200)}` : '';
  return {
    tenantId: run.tenantId,
    kind: 'run_dead',
    subjectKind: 'schedule',
    subject: run.scheduleKey,
    summary: `schedule "${run.scheduleKey}": run ${run.id} is dead after ${run.attempt} attempt(s)${why}`,
    details: {
      runId: run.id,
      scheduledFor: new Date(run.scheduledFor).toISOString(),
      attempts: run.attempt,
      error: run.error ? { code: run.error.code ?? null, message: run.error.message } : null,
    },
  };
}

/** An occurrence that was not fired within the grace opens `schedule_not_fired` about its schedule. */
export function notFiredCondition(e: {
  tenantId: string;
  scheduleKey: string;
  scheduledFor: number;
  run: Run | null;
}): AlertCondition {
  return {
    tenantId: e.tenantId,
    kind: 'schedule_not_fired',
    subjectKind: 'schedule',
    subject: e.scheduleKey,
    summary: `schedule "${e.scheduleKey}": the occurrence of ${new Date(e.scheduledFor).toISOString()} was not fired`,
    details: { scheduledFor: new Date(e.scheduledFor).toISOString(), runId: e.run?.id ?? null },
  };
}

/** A successful run clears what a success clears about its schedule. */
export function successClearance(run: Run): AlertClearance {
  return {
    tenantId: run.tenantId,
    subjectKind: 'schedule',
    subject: run.scheduleKey,
    kinds: CLEARED_BY_SUCCESS,
  };
}

export class AlertEvaluator {
  readonly loop: Loop;
  #ops: Op[] = [];
  /** The last queued op per schedule: a success after a success adds nothing. */
  readonly #last = new Map<string, 'open' | 'clear'>();
  #unsubscribe: (() => void)[] = [];

  constructor(
    private readonly store: AlertStore,
    private readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly opts: AlertEvaluatorOptions,
  ) {
    this.loop = new Loop('alert evaluator', clock, bus, () => this.#round(), {
      maxSleepMs: opts.maxSleepMs,
      errorBackoffMs: 1000,
    });
  }

  start(): void {
    this.#unsubscribe = [
      this.bus.on('run:dead', ({ run }) => this.#queue({ open: runDeadCondition(run) })),
      this.bus.on('run:succeeded', ({ run }) => this.#queue({ clear: successClearance(run) })),
      this.bus.on('schedule:notFired', (e) => this.#queue({ open: notFiredCondition(e) })),
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
    const kind = 'open' in op ? 'open' : 'clear';
    if (kind === 'clear' && this.#last.get(key) === 'clear') return;
    this.#last.set(key, kind);
    this.#ops.push(op);
    this.loop.nudge();
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

  async #round(): Promise<number> {
    let changed = await this.#flush();
    for (;;) {
      const opened = await this.store.evaluateDueChecks(this.clock.now(), this.opts.batch);
      this.#announce('alert:opened', opened);
      changed ||= opened.length > 0;
      if (opened.length < this.opts.batch) break;
    }
    if (changed) this.opts.transitioned?.();
    const now = this.clock.now();
    const next = await this.store.nextCheckAt();
    return Math.min(next ?? Infinity, now + this.opts.maxSleepMs);
  }
}
