// The target contract: how a claimed run is delivered. A target driver turns one attempt into an Outcome;
// it never throws for a delivery failure (the worker still guards against it) and honours the AbortSignal.
// The engine knows drivers only through this interface.

import type { Json } from '../domain/json.js';
import type { Outcome } from '../domain/outcome.js';
import type { Run } from '../domain/run.js';
import type { Schedule } from '../domain/schedule.js';
import type { Target, TargetKind } from '../domain/target.js';
import type { TraceContext } from '../run-tracer.js';

export interface Delivery {
  run: Run;
  schedule: Schedule;
  /** The run's payload override, or the schedule's payload. */
  payload: Json | null;
  /** Fires on timeout, lease loss, cancellation or shutdown. */
  signal: AbortSignal;
  /** The instant the attempt started (engine clock). */
  startedAt: number;
  /**
   * The attempt's span when the scheduler traces (run-tracer.ts): targets that carry headers send
   * `trace.headers` (W3C `traceparent`, `tracestate`) with the message.
   */
  trace?: TraceContext;
}

export interface TargetDriver {
  readonly kind: TargetKind;
  /**
   * Checks a target (and the payload it will receive) when a schedule of `tenantId` is saved. Throws
   * PunctualError.
   */
  validate?(target: Target, payload: Json | null, tenantId?: string): void;
  deliver(delivery: Delivery): Promise<Outcome>;
  /**
   * Optional back-pressure: true while the driver cannot take `run` soon (e.g. every sandbox thread busy and
   * this run's tenant already has a run queued). The worker then keeps the run waiting in memory, holding
   * none of its slots, and offers it again whenever one of its deliveries ends (and every few hundred ms),
   * oldest first; so runs of other targets keep flowing, and a driver that answers per tenant admits another
   * tenant's run ahead of a flooding tenant's.
   */
  saturated?(run: Run): boolean;
  /** Releases what the driver holds (broker connections). The scheduler calls it from `close()`. */
  close?(): Promise<void>;
}
