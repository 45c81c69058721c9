// The typed events of the engine: one per run transition, plus schedule and engine events. Emission is
// safe: a listener that throws is reported on `error` and never breaks the engine. Tests wait on these
// events instead of sleeping.

import type { Alert, AlertChannelKind, AlertDelivery } from './domain/alert.js';
import type { ReconcileReport } from './domain/declared.js';
import type { Run } from './domain/run.js';
import type { Schedule } from './domain/schedule.js';
import type { TraceIds } from './run-tracer.js';
import type { DatabaseOutage } from './store/database-outage.js';
import type { Transition } from './store/store.js';

/**
 * A run event that may end or start a traced attempt: `trace` holds the ids of the attempt's span when the
 * scheduler has a tracer (run-tracer.ts) and this process delivered the attempt.
 */
export interface RunAttemptEvent {
  run: Run;
  trace?: TraceIds;
}

export interface PunctualEvents {
  'run:scheduled': { run: Run };
  'run:started': RunAttemptEvent;
  'run:succeeded': RunAttemptEvent;
  'run:retrying': RunAttemptEvent;
  'run:checkAgain': RunAttemptEvent;
  'run:released': RunAttemptEvent;
  'run:dead': RunAttemptEvent;
  'run:skipped': RunAttemptEvent;
  'run:expired': RunAttemptEvent;
  'run:cancelled': RunAttemptEvent;
  'lease:reclaimed': { run: Run };
  /** A worker could not renew its lease (reclaimed or cancelled elsewhere) and aborted the delivery. */
  'lease:lost': { runId: string };
  /**
   * An occurrence's due time plus the grace passed without its delivery starting: its run is still
   * scheduled, or waits in a worker's buffer (`run`), or nothing materialised it at all (`run` null: no
   * instance materialising, or the materializer stuck). Reported once per occurrence.
   */
  'schedule:notFired': {
    tenantId: string;
    scheduleId: string;
    scheduleKey: string;
    scheduledFor: number;
    run: Run | null;
  };
  'schedule:put': { schedule: Schedule; created: boolean };
  'schedule:deleted': { tenantId: string; key: string };
  'schedule:paused': { schedule: Schedule };
  'schedule:resumed': { schedule: Schedule };
  'schedule:completed': { tenantId: string; scheduleId: string };
  /**
   * A recurring schedule's spec or bounds have no instant left (COUNT/UNTIL or endAt passed, a spec with no
   * future instant) while it may still run: it completed by exhaustion. Announced by the instance whose
   * materializer step completed it (a one-off's end and a reached maxRuns are not announced here).
   */
  'schedule:exhausted': { tenantId: string; scheduleId: string; scheduleKey: string; spec: string };
  /** start() brought the store to the declared schedules: what it created, updated, left, removed (by key). */
  'schedules:reconciled': ReconcileReport;
  /**
   * Materialisation of one schedule step; `lagMs`: how long the schedule waited to be picked up, from its
   * look-ahead instant (nextFireAt - lookaheadMs) or from its last change when that came later.
   */
  'materializer:advanced': { scheduleId: string; runs: number; lagMs: number };
  /**
   * A materializer claim picked up a schedule later than a quarter of the look-ahead after it could have
   * (`lagMs`, as in materializer:advanced): until a step ends caught up, bulk puts in this process wait
   * between batches (at most a second each) so that runs falling due are written first.
   */
  'materializer:behind': { lagMs: number };
  /** The materializer ended a step with nothing due left after being behind for `behindMs`. */
  'materializer:caughtUp': { behindMs: number };
  /** The offset to the store's clock was measured; `skewed` when it is above the warning threshold. */
  'clock:offset': { offsetMs: number; skewed: boolean };
  /** A loop's round succeeded after one or more failed (`error` told of those). */
  'loop:recovered': { where: string };
  /** The engine lost its database (unreachable, cut mid-transaction, or read-only); it backs off and retries. */
  'database:unavailable': { kind: DatabaseOutage; since: number; where: string };
  /** The outage ended: every loop that failed completed a round again; `durationMs` is its length. */
  'database:available': { kind: DatabaseOutage; since: number; durationMs: number };
  /** An alert opened (this instance opened it: each alert is announced by one instance only). */
  'alert:opened': { alert: Alert };
  /** An alert resolved (announced by the instance that resolved it). */
  'alert:resolved': { alert: Alert };
  /** An attempt to deliver an alert transition to a channel ended (`retry`: it will be tried again). */
  'alert:delivery': {
    alert: Alert;
    delivery: AlertDelivery;
    /** The channel's kind; null when the channel was deleted before the attempt. */
    channelKind: AlertChannelKind | null;
    outcome: 'delivered' | 'retry' | 'failed';
    error: string | null;
  };
  /** Something failed inside the engine (store unreachable, a listener threw); the engine carries on. */
  error: { error: unknown; where: string };
}

export type EventName = keyof PunctualEvents;
export type Listener<E extends EventName> = (payload: PunctualEvents[E]) => void;

export class EventBus {
  readonly #listeners = new Map<EventName, Set<Listener<never>>>();

  on<E extends EventName>(event: E, listener: Listener<E>): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => this.off(event, listener);
  }

  off<E extends EventName>(event: E, listener: Listener<E>): void {
    this.#listeners.get(event)?.delete(listener as Listener<never>);
  }

  emit<E extends EventName>(event: E, payload: PunctualEvents[E]): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const l of set) {
      try {
        (l as Listener<E>)(payload);
      } catch (error) {
        if (event !== 'error') this.emit('error', { error, where: `listener for ${event}` });
      }
    }
  }

  /** Emits the event that names a store transition (with the ids of the attempt's span, when traced). */
  emitTransition(t: Transition, trace?: TraceIds): void {
    const run = t.run;
    const attempt: RunAttemptEvent = trace ? { run, trace } : { run };
    switch (t.to) {
      case 'scheduled':
        // A rerun is scheduled again from a final state: announced as scheduled, like a new run.
        if (t.from === null || run.reason === 'rerun') this.emit('run:scheduled', { run });
        else if (run.reason === 'leaseExpired') this.emit('lease:reclaimed', { run });
        else if (run.reason === 'checkAgain') this.emit('run:checkAgain', attempt);
        else if (run.reason === 'released') this.emit('run:released', attempt);
        else this.emit('run:retrying', attempt);
        return;
      case 'running':
        this.emit('run:started', attempt);
        return;
      case 'dead':
        if (t.from === 'running' && run.error?.code === 'LEASE_EXPIRED')
          this.emit('lease:reclaimed', { run });
        this.emit('run:dead', attempt);
        return;
      default:
        this.emit(`run:${t.to}`, attempt);
    }
  }
}
