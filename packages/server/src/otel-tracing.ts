// The service's traces: the library's RunTracer built on OpenTelemetry, one span per run attempt exported
// over OTLP/HTTP (or to an injected exporter), and the rule that says whether tracing is on. The
// OpenTelemetry packages are loaded with dynamic imports inside `createOtelTracing` only: a service with
// tracing off must never load them (only type imports appear here). It never puts a payload, a result or a
// header value of the target on a span.

import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type { AttemptSpanStart, RunTracer, TargetKind } from 'punctual';
import { FAILED_SPAN_OUTCOMES } from 'punctual';

/** The name of the span of each run attempt. */
export const RUN_SPAN_NAME = 'punctual.run';

/** The attributes of a run attempt's span (docs/operations.md lists them; a test checks). */
export const RUN_SPAN_ATTRIBUTES = {
  tenant: 'punctual.tenant.id',
  scheduleKey: 'punctual.schedule.key',
  scheduledFor: 'punctual.run.scheduled_for',
  occurrenceId: 'punctual.run.occurrence_id',
  runId: 'punctual.run.id',
  attempt: 'punctual.run.attempt',
  targetKind: 'punctual.target.kind',
  outcome: 'punctual.run.outcome',
  errorType: 'error.type',
} as const;

/** The PUNCTUAL_OTEL values. */
export const OTEL_MODES = ['auto', 'on', 'off'] as const;
export type OtelMode = (typeof OTEL_MODES)[number];

/**
 * Whether the service traces: `on` or `off` as said; `auto` (the default) when the standard
 * OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set and OTEL_SDK_DISABLED is not true.
 */
export function tracingEnabled(mode: OtelMode, env: Readonly<Record<string, string | undefined>>): boolean {
  if (mode !== 'auto') return mode === 'on';
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export interface OtelTracingOptions {
  /**
   * Where spans go. Default: OTLP over HTTP (`@opentelemetry/exporter-trace-otlp-http`, which reads the
   * standard OTEL_EXPORTER_OTLP_* variables), in batches. An injected exporter gets each span as it ends.
   */
  exporter?: SpanExporter;
  /** The `service.name` resource attribute. Default: OTEL_SERVICE_NAME, else `punctual`. */
  serviceName?: string;
}

export interface OtelTracing {
  readonly tracer: RunTracer;
  /** Exports what is pending and stops the exporter. */
  shutdown(): Promise<void>;
}

/** Span kinds by target: a request to a receiver, a message to a broker, or work in this process. */
const BROKERS: readonly TargetKind[] = ['redis', 'nats', 'amqp'];

/** Loads OpenTelemetry and builds the tracer (call it only when tracing is on). */
export async function createOtelTracing(opts: OtelTracingOptions = {}): Promise<OtelTracing> {
  const [api, core, sdk, resources] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/sdk-trace'),
    import('@opentelemetry/resources'),
  ]);
  const processor = opts.exporter
    ? new sdk.SimpleSpanProcessor({ exporter: opts.exporter })
    : new sdk.BatchSpanProcessor({
        exporter: new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(),
      });
  const provider = new sdk.TracerProvider({
    resource: resources.resourceFromAttributes({
      'service.name': opts.serviceName ?? (process.env.OTEL_SERVICE_NAME || 'punctual'),
    }),
    spanProcessors: [processor],
  });
  const tracer = provider.getTracer('punctual');
  const propagator = new core.W3CTraceContextPropagator();
  const A = RUN_SPAN_ATTRIBUTES;

  const kindOf = (target: TargetKind): number =>
    target === 'webhook'
      ? api.SpanKind.CLIENT
      : BROKERS.includes(target)
        ? api.SpanKind.PRODUCER
        : api.SpanKind.INTERNAL;

  const startAttempt: RunTracer['startAttempt'] = (s: AttemptSpanStart) => {
    const span = tracer.startSpan(
      RUN_SPAN_NAME,
      {
        root: true,
        kind: kindOf(s.targetKind),
        startTime: s.startedAt,
        attributes: {
          [A.tenant]: s.tenantId,
          [A.scheduleKey]: s.scheduleKey,
          [A.scheduledFor]: new Date(s.scheduledFor).toISOString(),
          [A.occurrenceId]: s.occurrenceId,
          [A.runId]: s.runId,
          [A.attempt]: s.attempt,
          [A.targetKind]: s.targetKind,
        },
      },
      api.ROOT_CONTEXT,
    );
    const carrier: Record<string, string> = {};
    propagator.inject(api.trace.setSpan(api.ROOT_CONTEXT, span), carrier, api.defaultTextMapSetter);
    const { traceId, spanId } = span.spanContext();
    const headers: { traceparent: string; tracestate?: string } = { traceparent: carrier.traceparent ?? '' };
    if (carrier.tracestate) headers.tracestate = carrier.tracestate;
    return {
      context: { traceId, spanId, headers },
      end({ outcome, error, endedAt }) {
        span.setAttribute(A.outcome, outcome);
        if (FAILED_SPAN_OUTCOMES.includes(outcome)) {
          span.setAttribute(A.errorType, error?.code ?? outcome);
          span.setStatus({ code: api.SpanStatusCode.ERROR, message: error?.message ?? outcome });
        }
        span.end(endedAt);
      },
    };
  };

  return {
    tracer: { startAttempt },
    shutdown: () => provider.shutdown(),
  };
}
