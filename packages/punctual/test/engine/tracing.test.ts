// The worker's spans through a recording tracer: one span per delivered attempt with its attributes, opened
// and ended on the engine clock with the attempt's outcome, its context handed to the target and its ids on
// the run events; a lease lost mid-delivery ends the span once as `lost`; a tracer that throws costs the
// span, never the delivery; without a tracer nothing carries a trace.

import { afterEach, expect, it } from 'vitest';
import type { AttemptSpanEnd, AttemptSpanStart, RunTracer, TraceContext } from '../../src/run-tracer.js';
import type { Delivery, TargetDriver } from '../../src/targets/target.js';
import { deferred, harness, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

interface Recorded {
  start: AttemptSpanStart;
  context: TraceContext;
  ends: AttemptSpanEnd[];
}

function recordingTracer(): { tracer: RunTracer; spans: Recorded[] } {
  const spans: Recorded[] = [];
  const tracer: RunTracer = {
    startAttempt(start) {
      const n = spans.length + 1;
      const traceId = n.toString(16).padStart(32, '0');
      const spanId = n.toString(16).padStart(16, '0');
      const context = { traceId, spanId, headers: { traceparent: `00-${traceId}-${spanId}-01` } };
      const rec: Recorded = { start, context, ends: [] };
      spans.push(rec);
      return { context, end: (e) => rec.ends.push(e) };
    },
  };
  return { tracer, spans };
}

/** A webhook-kind driver that records what it was handed and answers with `answer`'s outcomes in turn. */
function recordingTarget(answers: ('ok' | 'retry')[]): { driver: TargetDriver; deliveries: Delivery[] } {
  const deliveries: Delivery[] = [];
  const driver: TargetDriver = {
    kind: 'webhook',
    deliver(d) {
      deliveries.push(d);
      return Promise.resolve(
        answers[deliveries.length - 1] === 'retry'
          ? { type: 'retry', error: { code: 'WEBHOOK_HTTP_503', message: 'HTTP 503' } }
          : { type: 'ok' },
      );
    },
  };
  return { driver, deliveries };
}

it('opens one span per attempt, hands its context to the target and its ids to the run events', async () => {
  const { tracer, spans } = recordingTracer();
  const { driver, deliveries } = recordingTarget(['retry', 'ok']);
  h = await harness({ tracer, targets: [driver] });
  await h.s.put({
    key: 'traced',
    spec: '@in 1s',
    target: { webhook: { url: 'https://example.test/hook' } },
    policies: { retry: { maxAttempts: 3, backoff: 'fixed', delayMs: 1000, jitter: false } },
  });
  await h.clock.advance(20_000);
  const run = h.of('run:succeeded')[0]!.run;

  expect(spans).toHaveLength(2);
  expect(spans.map((s) => s.start)).toEqual(
    [1, 2].map((attempt) => ({
      tenantId: 'default',
      scheduleKey: 'traced',
      scheduledFor: run.scheduledFor,
      occurrenceId: run.occurrenceId,
      runId: run.id,
      attempt,
      targetKind: 'webhook',
      startedAt: deliveries[attempt - 1]!.startedAt,
    })),
  );
  expect(spans.map((s) => s.ends.map((e) => [e.outcome, e.error?.code ?? null]))).toEqual([
    [['retry', 'WEBHOOK_HTTP_503']],
    [['succeeded', null]],
  ]);
  expect(spans.map((s) => s.ends[0]!.endedAt)).toEqual(spans.map((s) => s.start.startedAt));
  expect(deliveries.map((d) => d.trace)).toEqual(spans.map((s) => s.context));

  const ids = spans.map((s) => ({ traceId: s.context.traceId, spanId: s.context.spanId }));
  expect(h.of('run:started').map((e) => e.trace)).toEqual(ids);
  expect(h.of('run:retrying').map((e) => e.trace)).toEqual([ids[0]]);
  expect(h.of('run:succeeded').map((e) => e.trace)).toEqual([ids[1]]);
});

it('ends the span of a delivery whose lease was lost once, as lost', async () => {
  const { tracer, spans } = recordingTracer();
  h = await harness({ tracer });
  const gate = deferred();
  h.s.handle('slow', async () => {
    await gate.promise;
    return 'finished anyway';
  });
  await h.s.put({
    key: 's',
    spec: '@in 1s',
    target: { handler: 'slow' },
    policies: { timeoutMs: 3_600_000 },
  });
  await h.clock.advance(1000);
  const started = h.of('run:started')[0]!.run;
  await h.s.cancelRun(started.id);
  await h.clock.advance(10_000); // a heartbeat finds the lease gone
  gate.resolve();
  await h.clock.advance(1000);
  expect(spans).toHaveLength(1);
  expect(spans[0]!.start.targetKind).toBe('handler');
  expect(spans[0]!.ends).toEqual([
    {
      outcome: 'lost',
      error: { code: 'LEASE_LOST', message: 'the run was cancelled' },
      endedAt: expect.any(Number),
    },
  ]);
});

it('delivers as usual when the tracer throws, reporting it on error', async () => {
  const tracer: RunTracer = {
    startAttempt() {
      throw new Error('exporter broke');
    },
  };
  const { driver, deliveries } = recordingTarget(['ok']);
  h = await harness({ tracer, targets: [driver] });
  await h.s.put({ key: 'k', spec: '@in 1s', target: { webhook: { url: 'https://example.test/hook' } } });
  await h.clock.advance(2_000);
  expect(h.of('run:succeeded')).toHaveLength(1);
  expect(deliveries[0]!.trace).toBeUndefined();
  expect(h.of('error').map((e) => [e.where, (e.error as Error).message])).toEqual([
    ['tracer', 'exporter broke'],
  ]);
});

it('without a tracer, neither the target nor the events see a trace', async () => {
  const { driver, deliveries } = recordingTarget(['ok']);
  h = await harness({ targets: [driver] });
  await h.s.put({ key: 'k', spec: '@in 1s', target: { webhook: { url: 'https://example.test/hook' } } });
  await h.clock.advance(2_000);
  expect(deliveries).toHaveLength(1);
  expect(deliveries[0]).not.toHaveProperty('trace');
  expect(h.of('run:started')[0]).not.toHaveProperty('trace');
  expect(h.of('run:succeeded')[0]).not.toHaveProperty('trace');
});
