// The tracing contract of run attempts: the engine opens one span per delivered attempt through the RunTracer
// it was given (SchedulerOptions.tracer), hands the span's W3C trace context to the target (Delivery.trace)
// and to the run events (so logs carry the ids), and ends the span with the attempt's outcome. It owns only
// these types: it must never load a tracing library (the service brings one, lazily), and without a tracer
// the engine pays one branch per attempt and nothing else.

import type { Attempt, RunError } from './domain/run.js';
import type { TargetKind } from './domain/target.js';

/** The ids of an attempt's span, as lowercase hex (32 and 16 characters), for logs and events. */
export interface TraceIds {
  traceId: string;
  spanId: string;
}

/** An attempt's span as targets send it on: its ids and the W3C Trace Context headers. */
export interface TraceContext extends TraceIds {
  /** `traceparent` always; `tracestate` when the span carries one. Lowercase names, ready to send. */
  headers: { traceparent: string; tracestate?: string };
}

/** What a span of one attempt is about (its attributes), and when the attempt started (engine clock). */
export interface AttemptSpanStart {
  tenantId: string;
  scheduleKey: string;
  /** The occurrence's instant (ms). */
  scheduledFor: number;
  occurrenceId: string;
  runId: string;
  /** 1 for the first attempt. */
  attempt: number;
  targetKind: TargetKind;
  startedAt: number;
}

/** How an attempt ended: its recorded outcome, or `lost` when the worker lost its lease and gave it up. */
export type AttemptSpanOutcome = Attempt['outcome'] | 'lost';

/** Outcomes that mark the span as an error (the attempt failed). */
export const FAILED_SPAN_OUTCOMES: readonly AttemptSpanOutcome[] = ['failed', 'retry', 'timeout', 'lost'];

export interface AttemptSpanEnd {
  outcome: AttemptSpanOutcome;
  /** Why it failed, when it did. */
  error: RunError | null;
  /** When it ended (engine clock). */
  endedAt: number;
}

/** One open span. `end` is called exactly once. */
export interface AttemptSpan {
  readonly context: TraceContext;
  end(end: AttemptSpanEnd): void;
}

/**
 * Opens the span of each delivered attempt. Neither method may throw for the engine's sake (the engine still
 * guards against it: a tracer that throws costs the attempt its span, never its delivery).
 */
export interface RunTracer {
  startAttempt(start: AttemptSpanStart): AttemptSpan;
}
