// Traces of run attempts, through the assembled service with the SDK's in-memory exporter injected: one span
// per attempt with its attributes, the W3C traceparent a webhook receiver on 127.0.0.1 gets carrying the
// span's ids, the ids in the attempt's log lines, error status on a failed attempt, and (against the real
// Redis at PUNCTUAL_TEST_REDIS_URL, skipped with a message when unset) the traceparent on a stream entry.
// With the built service in a child process: tracing off loads no OpenTelemetry SDK module, and on (an OTLP
// endpoint in the environment) exports the span over OTLP/HTTP to a local collector.

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { pino } from 'pino';
import type { Run } from 'punctual';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { serviceUrl, unique } from '../../punctual/test/targets/brokers/broker-support.js';
import { loadConfig } from '../src/config.js';
import { RUN_SPAN_ATTRIBUTES as A, RUN_SPAN_NAME, tracingEnabled } from '../src/otel-tracing.js';
import { createService, type Service } from '../src/service.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let dir: string;
let service: Service | undefined;
let receiver: Server | undefined;
let exporter: InMemorySpanExporter;
let logLines: Record<string, unknown>[];
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'punctual-tracing-'));
  exporter = new InMemorySpanExporter();
  logLines = [];
  received.length = 0;
});
afterEach(async () => {
  await service?.close();
  service = undefined;
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  receiver = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A receiver on 127.0.0.1 answering `status`; returns its URL. */
async function listen(status: number): Promise<string> {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
}

async function open(env: Record<string, string> = {}, traced = true): Promise<Service> {
  const config = loadConfig({
    PUNCTUAL_DATABASE_PATH: join(dir, 'punctual.db'),
    PUNCTUAL_PORT: '0',
    PUNCTUAL_ALLOW_PRIVATE_TARGETS: '127.0.0.1/32',
    PUNCTUAL_SHUTDOWN_GRACE: '1s',
    PUNCTUAL_SCRIPTS: 'off',
    PUNCTUAL_OTEL: 'off',
    ...env,
  });
  const logs = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) if (line) logLines.push(JSON.parse(line));
      done();
    },
  });
  service = await createService(config, {
    logger: pino({ level: 'debug' }, logs),
    processMetrics: false,
    ...(traced ? { spanExporter: exporter } : {}),
  });
  await service.start();
  return service;
}

function call(s: Service, method: 'PUT' | 'POST', url: string, payload?: object) {
  return s.app.inject({ method, url, payload, headers: { authorization: `Bearer ${s.bootstrap!.apiKey}` } });
}

function next(s: Service, event: 'run:succeeded' | 'run:dead'): Promise<Run> {
  return new Promise((resolve) => {
    const off = s.scheduler.on(event, ({ run }) => {
      off();
      resolve(run);
    });
  });
}

async function triggerHook(s: Service, hook: string, event: 'run:succeeded' | 'run:dead'): Promise<Run> {
  const put = await call(s, 'PUT', '/v1/schedules/traced', {
    spec: '0 0 1 1 *',
    target: { webhook: { url: hook } },
  });
  expect(put.statusCode, put.body).toBe(201);
  const ended = next(s, event);
  expect((await call(s, 'POST', '/v1/schedules/traced/trigger')).statusCode).toBe(201);
  return ended;
}

it('gives a run attempt one span with its attributes, sent on as the webhook traceparent and logged', async () => {
  const s = await open();
  expect(s.tracing).toBe(true);
  const run = await triggerHook(s, await listen(200), 'run:succeeded');

  const spans = exporter.getFinishedSpans();
  expect(spans).toHaveLength(1);
  const span = spans[0]!;
  expect(span.name).toBe(RUN_SPAN_NAME);
  expect(span.kind).toBe(SpanKind.CLIENT);
  expect(span.parentSpanContext).toBeUndefined();
  expect(span.attributes).toEqual({
    [A.tenant]: 'default',
    [A.scheduleKey]: 'traced',
    [A.scheduledFor]: new Date(run.scheduledFor).toISOString(),
    [A.occurrenceId]: run.occurrenceId,
    [A.runId]: run.id,
    [A.attempt]: 1,
    [A.targetKind]: 'webhook',
    [A.outcome]: 'succeeded',
  });
  expect(span.status.code).toBe(SpanStatusCode.UNSET);

  const { traceId, spanId } = span.spanContext();
  expect(received).toHaveLength(1);
  expect(received[0]!.headers.traceparent).toBe(`00-${traceId}-${spanId}-01`);
  expect(received[0]!.headers.tracestate).toBeUndefined();

  const attemptLines = logLines.filter((l) => l.runId === run.id);
  expect(attemptLines.map((l) => l.msg)).toEqual(['run started', 'run succeeded']);
  for (const line of attemptLines) expect(line).toMatchObject({ trace_id: traceId, span_id: spanId });
});

it('marks a failed attempt with error status and its error code', async () => {
  const s = await open();
  const run = await triggerHook(s, await listen(400), 'run:dead');

  const spans = exporter.getFinishedSpans();
  expect(spans).toHaveLength(1);
  const span = spans[0]!;
  expect(span.attributes[A.outcome]).toBe('failed');
  expect(span.attributes[A.errorType]).toBe('WEBHOOK_HTTP_400');
  expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: run.error!.message });
  const dead = logLines.find((l) => l.runId === run.id && l.msg === 'run failed for good');
  expect(dead).toMatchObject({ trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId });
});

it('off: no span, no traceparent, no trace ids in the logs', async () => {
  const s = await open({}, false);
  expect(s.tracing).toBe(false);
  const run = await triggerHook(s, await listen(200), 'run:succeeded');
  expect(exporter.getFinishedSpans()).toHaveLength(0);
  expect(received).toHaveLength(1);
  expect(received[0]!.headers.traceparent).toBeUndefined();
  const lines = logLines.filter((l) => l.runId === run.id);
  expect(lines).toHaveLength(2);
  for (const line of lines) expect(line).not.toHaveProperty('trace_id');
});

it('is on for PUNCTUAL_OTEL=on, off for off, and with auto when an OTLP endpoint is set', () => {
  const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
  expect(tracingEnabled('on', {})).toBe(true);
  expect(tracingEnabled('off', endpoint)).toBe(false);
  expect(tracingEnabled('auto', {})).toBe(false);
  expect(tracingEnabled('auto', endpoint)).toBe(true);
  expect(tracingEnabled('auto', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })).toBe(
    true,
  );
  expect(tracingEnabled('auto', { ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBe(false);
  expect(loadConfig({}).otel).toBe('auto');
  expect(() => loadConfig({ PUNCTUAL_OTEL: 'yes' })).toThrow(
    'PUNCTUAL_OTEL must be one of auto, on, off, got "yes"',
  );
});

it('documents the span name and every attribute in docs/operations.md', () => {
  const doc = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Tracing'), doc.indexOf('## Health'));
  expect(section).toContain(`\`${RUN_SPAN_NAME}\``);
  for (const name of Object.values(A)) expect(section).toContain(`| \`${name}\` |`);
});

const redisUrl = serviceUrl('PUNCTUAL_TEST_REDIS_URL', 'Redis');

describe.runIf(redisUrl)('a traced redis target', () => {
  let admin: ReturnType<typeof createClient>;
  const streams: string[] = [];
  beforeAll(async () => {
    admin = createClient({ url: redisUrl! });
    admin.on('error', () => {});
    await admin.connect();
  });
  afterAll(async () => {
    if (streams.length > 0) await admin.del(streams);
    await admin.close();
  });

  it('adds the traceparent to the stream entry', async () => {
    const s = await open({
      PUNCTUAL_BROKERS: JSON.stringify({ main: { kind: 'redis', url: redisUrl!, prefix: 'ptrace.' } }),
    });
    const name = unique('traced');
    streams.push(`ptrace.${name}`);
    const put = await call(s, 'PUT', '/v1/schedules/to-redis', {
      spec: '0 0 1 1 *',
      target: { redis: { connection: 'main', stream: name } },
    });
    expect(put.statusCode, put.body).toBe(201);
    const ended = next(s, 'run:succeeded');
    await call(s, 'POST', '/v1/schedules/to-redis/trigger');
    const run = await ended;
    const [span] = exporter.getFinishedSpans();
    expect(span?.kind).toBe(SpanKind.PRODUCER);
    expect(span?.attributes[A.targetKind]).toBe('redis');
    const entries = (await admin.xRange(`ptrace.${name}`, '-', '+')) ?? [];
    expect(entries).toHaveLength(1);
    expect(entries[0]!.message).toMatchObject({
      id: run.occurrenceId,
      traceparent: `00-${span!.spanContext().traceId}-${span!.spanContext().spanId}-01`,
    });
  });
});

describe('the built service in a child process', () => {
  const SERVICE = join(ROOT, 'packages/server/dist/service.js');
  const CONFIG = join(ROOT, 'packages/server/dist/config.js');

  beforeAll(async () => {
    const build = await new Promise<{ code: number; out: string }>((resolve) => {
      execFile('npx', ['tsc', '-b', 'packages/server'], { cwd: ROOT }, (err, stdout, stderr) =>
        resolve({ code: err ? 1 : 0, out: `${stdout}${stderr}` }),
      );
    });
    if (build.code !== 0) console.warn(`tsc -b packages/server reported errors:\n${build.out}`);
    if (!existsSync(SERVICE)) throw new Error(`the build produced no ${SERVICE}:\n${build.out}`);
  }, 120_000);

  /**
   * Runs one handler attempt in a service of its own and reports every `@opentelemetry/*` module resolved,
   * with the module that asked for it (synchronous module hooks see both `import` and `require`).
   */
  function child(env: Record<string, string>): Promise<{ specifier: string; parent: string }[]> {
    const script = `
      import { registerHooks } from 'node:module';
      const loaded = [];
      registerHooks({
        resolve(specifier, context, next) {
          if (specifier.startsWith('@opentelemetry/')) loaded.push({ specifier, parent: context.parentURL ?? '' });
          return next(specifier, context);
        },
      });
      const { pino } = await import('pino');
      const { loadConfig } = await import(${JSON.stringify(CONFIG)});
      const { createService } = await import(${JSON.stringify(SERVICE)});
      const service = await createService(loadConfig(process.env), { logger: pino({ level: 'silent' }) });
      service.scheduler.handle('noop', () => 'done');
      await service.start();
      const api = service.scheduler.tenant('default');
      await api.put({ key: 'child', spec: '0 0 1 1 *', target: { handler: 'noop' } });
      const done = new Promise((resolve) => service.scheduler.on('run:succeeded', resolve));
      await api.trigger('child');
      await done;
      await service.close();
      process.stdout.write(JSON.stringify(loaded));
    `;
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_')));
    return new Promise((resolve, reject) => {
      execFile(
        process.execPath,
        ['--input-type=module', '-e', script],
        {
          cwd: join(ROOT, 'packages/server'),
          env: {
            ...clean,
            PUNCTUAL_DATABASE_PATH: join(dir, 'child.db'),
            PUNCTUAL_PORT: '0',
            PUNCTUAL_SCRIPTS: 'off',
            ...env,
          },
          timeout: 60_000,
        },
        (err, stdout, stderr) => {
          if (err) reject(new Error(`${err.message}\n${stderr}`));
          else resolve(JSON.parse(stdout) as { specifier: string; parent: string }[]);
        },
      );
    });
  }

  it('off (no OTLP endpoint): loads no OpenTelemetry module of its own', async () => {
    const loaded = await child({});
    // The metrics library asks for the API package by itself; tracing code is never loaded.
    const ours = loaded.filter((m) => !m.parent.includes('/node_modules/prom-client/'));
    expect(ours).toEqual([]);
  }, 60_000);

  it('auto with an OTLP endpoint: exports the span over OTLP/HTTP', async () => {
    const posts: { url: string; body: string }[] = [];
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        posts.push({ url: req.url ?? '', body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as AddressInfo).port;
    const loaded = await child({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` });
    expect(loaded.map((m) => m.specifier)).toContain('@opentelemetry/sdk-trace');
    expect(posts.map((p) => p.url)).toEqual(['/v1/traces']);
    expect(posts[0]!.body).toContain(RUN_SPAN_NAME);
    expect(posts[0]!.body).toContain('"stringValue":"child"');
  }, 60_000);
});
