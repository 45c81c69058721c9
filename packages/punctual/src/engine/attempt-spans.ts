// The worker's spans: opens the span of an attempt when its delivery starts and ends it once, whichever way
// the attempt ends (settled, handed back, lease lost). A tracer that throws is reported on `error` and the
// attempt goes on without a span: tracing must never change a delivery or a settlement.

import type { Run } from '../domain/run.js';
import type { Schedule } from '../domain/schedule.js';
import { targetKind } from '../domain/target.js';
import type { EventBus } from '../events.js';
import type { AttemptSpan, AttemptSpanEnd, RunTracer, TraceContext } from '../run-tracer.js';

export class AttemptSpans {
  constructor(
    private readonly tracer: RunTracer,
    private readonly bus: EventBus,
  ) {}

  /** Opens the span of the attempt of `run` starting at `startedAt`; undefined when the tracer failed. */
  start(run: Run, schedule: Schedule, startedAt: number): AttemptSpan | undefined {
    try {
      return this.tracer.startAttempt({
        tenantId: run.tenantId,
        scheduleKey: run.scheduleKey,
        scheduledFor: run.scheduledFor,
        occurrenceId: run.occurrenceId,
        runId: run.id,
        attempt: run.attempt,
        targetKind: targetKind(schedule.target),
        startedAt,
      });
    } catch (error) {
      this.bus.emit('error', { error, where: 'tracer' });
      return undefined;
    }
  }

  end(span: AttemptSpan, end: AttemptSpanEnd): void {
    try {
      span.end(end);
    } catch (error) {
      this.bus.emit('error', { error, where: 'tracer' });
    }
  }
}

/** The ids of a span's context (what events and logs carry). */
export function traceIds(context: TraceContext): { traceId: string; spanId: string } {
  return { traceId: context.traceId, spanId: context.spanId };
}
