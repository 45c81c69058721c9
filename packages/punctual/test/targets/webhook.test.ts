// The webhook target against a real HTTP server on 127.0.0.1: signatures, body shape, outcome rules
// (2xx / retryable / permanent / redirects), timeouts, truncation, the address guard, rotation, save-time
// validation, and one run end to end through the engine. No traffic leaves the loopback interface.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/domain/outcome.js';
import type { Run } from '../../src/domain/run.js';
import type { Schedule } from '../../src/domain/schedule.js';
import { parseTarget, type WebhookTarget } from '../../src/domain/target.js';
import { isPunctualError } from '../../src/errors.js';
import type { Delivery, TargetDriver } from '../../src/targets/target.js';
import {
  generateWebhookSecret,
  signWebhook,
  verifyWebhook,
} from '../../src/targets/webhook/webhook-signature.js';
import { webhookTarget, type WebhookSecrets } from '../../src/targets/webhook/webhook-target.js';
import { harness, type Harness } from '../support/harness.js';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Reply = (res: http.ServerResponse, req: Received) => void;

interface TestServer {
  port: number;
  url(path?: string): string;
  received: Received[];
  /** Replies in order; the last one repeats. */
  replies(...r: Reply[]): void;
  /** Resolves when the server has received its n-th request. */
  request(n: number): Promise<Received>;
  close(): Promise<void>;
}

async function startServer(): Promise<TestServer> {
  const received: Received[] = [];
  let queue: Reply[] = [(res) => res.end()];
  const waiters: { n: number; resolve: (r: Received) => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      received.push(r);
      const reply = queue.length > 1 ? queue.shift()! : queue[0]!;
      reply(res, r);
      for (const w of waiters.filter((w) => w.n === received.length)) w.resolve(r);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    replies: (...r) => (queue = r),
    request: (n) =>
      received.length >= n
        ? Promise.resolve(received[n - 1]!)
        : new Promise((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
const text =
  (status: number, body = '', headers: Record<string, string> = {}): Reply =>
  (res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(body);
  };
const hang: Reply = () => {};
const bodyOf = (o: Outcome): unknown =>
  o.type === 'ok' ? (o.result as { body?: unknown } | undefined)?.body : undefined;

const STARTED = Date.parse('2026-01-05T00:00:01.000Z');
const SCHEDULED = Date.parse('2026-01-05T00:00:00.000Z');
const LOOPBACK = '127.0.0.0/8,::1/128';

function delivery(
  webhook: WebhookTarget['webhook'],
  o: { attempt?: number; signal?: AbortSignal; payload?: Delivery['payload'] } = {},
): Delivery {
  const run = {
    id: 'run_1',
    tenantId: 'acme',
    scheduleId: 'sch_1',
    scheduleKey: 'nightly-report',
    scheduleVersion: 1,
    occurrenceId: `sch_1:${SCHEDULED}`,
    kind: 'scheduled',
    state: 'running',
    scheduledFor: SCHEDULED,
    dueAt: SCHEDULED,
    attempt: o.attempt ?? 1,
    maxAttempts: 3,
    checks: 0,
    payload: null,
  } as unknown as Run;
  const schedule = { id: 'sch_1', key: 'nightly-report', target: { webhook } } as unknown as Schedule;
  return {
    run,
    schedule,
    payload: o.payload === undefined ? { report: 'sales', day: 4 } : o.payload,
    signal: o.signal ?? new AbortController().signal,
    startedAt: STARTED,
  };
}

let srv: TestServer;
let secret: string;
let driver: TargetDriver;
const secrets = async (): Promise<WebhookSecrets> => ({ current: secret });

beforeEach(async () => {
  srv = await startServer();
  secret = generateWebhookSecret();
  driver = webhookTarget({ secrets, allowPrivate: LOOPBACK });
});
afterEach(async () => srv.close());

describe('webhook request', () => {
  it('posts the run as JSON with Standard Webhooks headers that verify', async () => {
    srv.replies(json(200, { ok: true }));
    const outcome = await driver.deliver(
      delivery({ url: srv.url('/hook?x=1'), headers: { Authorization: 'Bearer t' } }),
    );
    expect(outcome).toEqual({ type: 'ok', result: { status: 200, body: { ok: true } } });
    const [r] = srv.received;
    expect(r!.method).toBe('POST');
    expect(r!.url).toBe('/hook?x=1');
    expect(r!.headers['content-type']).toBe('application/json');
    expect(r!.headers['user-agent']).toBe('punctual-webhook/1');
    expect(r!.headers.authorization).toBe('Bearer t');
    expect(r!.headers['webhook-id']).toBe(`sch_1:${SCHEDULED}`);
    expect(r!.headers['webhook-timestamp']).toBe(String(STARTED / 1000));
    expect(r!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(JSON.parse(r!.body)).toEqual({
      id: `sch_1:${SCHEDULED}`,
      scheduleKey: 'nightly-report',
      scheduledFor: '2026-01-05T00:00:00.000Z',
      firedAt: '2026-01-05T00:00:01.000Z',
      attempt: 1,
      payload: { report: 'sales', day: 4 },
    });
    expect(verifyWebhook(secret, r!.headers, r!.body, { now: STARTED })).toBe(true);
    expect(verifyWebhook(generateWebhookSecret(), r!.headers, r!.body, { now: STARTED })).toBe(false);
    expect(verifyWebhook(secret, r!.headers, r!.body.replace('sales', 'SALES'), { now: STARTED })).toBe(
      false,
    );
    expect(verifyWebhook(secret, r!.headers, r!.body, { now: STARTED + 301_000 })).toBe(false);
    expect(verifyWebhook(secret, r!.headers, r!.body, { now: STARTED + 600_000, toleranceSec: 900 })).toBe(
      true,
    );
    expect(verifyWebhook(secret, { ...r!.headers, 'webhook-id': 'other' }, r!.body, { now: STARTED })).toBe(
      false,
    );
  });

  it('takes webhook-id and the body id from the target idTemplate, and signs that id', async () => {
    srv.replies(json(200, {}));
    const idTemplate = '{key}-{scheduledForSeconds}';
    expect(parseTarget({ webhook: { url: srv.url(), idTemplate } })).toEqual({
      webhook: { url: srv.url(), idTemplate },
    });
    await driver.deliver(delivery({ url: srv.url(), idTemplate }));
    const [r] = srv.received;
    const id = `nightly-report-${SCHEDULED / 1000}`;
    expect(r!.headers['webhook-id']).toBe(id);
    expect(JSON.parse(r!.body)).toMatchObject({ id });
    expect(verifyWebhook(secret, r!.headers, r!.body, { now: STARTED })).toBe(true);
  });

  it('uses the target method and a null payload', async () => {
    srv.replies(text(204));
    const outcome = await driver.deliver(delivery({ url: srv.url(), method: 'PUT' }, { payload: null }));
    expect(outcome).toEqual({ type: 'ok', result: { status: 204, body: null } });
    expect(srv.received[0]!.method).toBe('PUT');
    expect(JSON.parse(srv.received[0]!.body).payload).toBeNull();
  });

  it('keeps a text body as text', async () => {
    srv.replies(text(202, 'queued'));
    expect(await driver.deliver(delivery({ url: srv.url() }))).toEqual({
      type: 'ok',
      result: { status: 202, body: 'queued' },
    });
  });
});

describe('webhook outcomes', () => {
  it('retries 503 with the status and body in the error, then succeeds', async () => {
    srv.replies(text(503, 'down for maintenance'), json(200, { done: 1 }));
    const first = await driver.deliver(delivery({ url: srv.url() }));
    expect(first).toEqual({
      type: 'retry',
      error: { code: 'WEBHOOK_HTTP_503', message: 'HTTP 503 Service Unavailable: down for maintenance' },
    });
    const second = await driver.deliver(delivery({ url: srv.url() }, { attempt: 2 }));
    expect(second).toEqual({ type: 'ok', result: { status: 200, body: { done: 1 } } });
    expect(JSON.parse(srv.received[1]!.body).attempt).toBe(2);
  });

  it.each([408, 500, 502, 504])('retries %i', async (status) => {
    srv.replies(text(status));
    const outcome = await driver.deliver(delivery({ url: srv.url() }));
    expect(outcome).toMatchObject({ type: 'retry', error: { code: `WEBHOOK_HTTP_${status}` } });
  });

  it.each([400, 401, 404, 410, 422])('fails at once on %i', async (status) => {
    srv.replies(text(status, 'no such hook'));
    const outcome = await driver.deliver(delivery({ url: srv.url() }));
    expect(outcome).toMatchObject({ type: 'fail', error: { code: `WEBHOOK_HTTP_${status}` } });
    expect((outcome as { error: { message: string } }).error.message).toContain('no such hook');
  });

  it('honours Retry-After seconds on 429, capped', async () => {
    srv.replies(
      text(429, 'slow down', { 'retry-after': '7' }),
      text(429, '', { 'retry-after': '86400' }),
      text(429),
    );
    expect(await driver.deliver(delivery({ url: srv.url() }))).toMatchObject({
      type: 'retry',
      afterMs: 7000,
      error: { code: 'WEBHOOK_HTTP_429', message: 'HTTP 429 Too Many Requests: slow down' },
    });
    expect(await driver.deliver(delivery({ url: srv.url() }))).toMatchObject({
      type: 'retry',
      afterMs: 3_600_000,
    });
    const plain = await driver.deliver(delivery({ url: srv.url() }));
    expect(plain.type).toBe('retry');
    expect('afterMs' in plain).toBe(false);
  });

  it('reads an HTTP-date Retry-After against the response Date header', async () => {
    srv.replies(
      text(503, '', {
        date: 'Mon, 05 Jan 2026 00:00:00 GMT',
        'retry-after': 'Mon, 05 Jan 2026 00:02:00 GMT',
      }),
    );
    expect(await driver.deliver(delivery({ url: srv.url() }))).toMatchObject({
      type: 'retry',
      afterMs: 120_000,
    });
  });

  it('does not follow redirects: a 3xx fails and the location is never requested', async () => {
    srv.replies(text(302, '', { location: srv.url('/elsewhere') }), text(200));
    const outcome = await driver.deliver(delivery({ url: srv.url() }));
    expect(outcome).toMatchObject({ type: 'fail', error: { code: 'WEBHOOK_HTTP_302' } });
    expect((outcome as { error: { message: string } }).error.message).toContain('redirects are not followed');
    expect(srv.received.map((r) => r.url)).toEqual(['/hook']);
  });

  it('truncates the response body to maxResponseBytes', async () => {
    const small = webhookTarget({ secrets, allowPrivate: LOOPBACK, maxResponseBytes: 100 });
    srv.replies(json(200, { data: 'x'.repeat(10_000) }), text(500, 'e'.repeat(10_000)));
    const ok = await small.deliver(delivery({ url: srv.url() }));
    expect(ok).toMatchObject({ type: 'ok', result: { status: 200, truncated: true } });
    const body = bodyOf(ok);
    expect(body).toBe(`{"data":"${'x'.repeat(91)}`); // cut text, not JSON-parsed
    const failed = await small.deliver(delivery({ url: srv.url() }));
    expect((failed as { error: { message: string } }).error.message).toBe(
      `HTTP 500 Internal Server Error: ${'e'.repeat(100)}…`,
    );
  });

  it('keeps at most 4096 bytes by default', async () => {
    srv.replies(text(200, 'y'.repeat(100_000)));
    const ok = await driver.deliver(delivery({ url: srv.url() }));
    expect(bodyOf(ok)).toHaveLength(4096);
  });

  it('times out a slow server and retries', async () => {
    srv.replies(hang);
    const outcome = await driver.deliver(delivery({ url: srv.url(), timeoutMs: 100 }));
    expect(outcome).toEqual({
      type: 'retry',
      error: { code: 'WEBHOOK_TIMEOUT', message: 'no response within 100 ms' },
    });
  });

  it('stops when the delivery signal fires (timeout or lease loss)', async () => {
    srv.replies(hang);
    const abort = new AbortController();
    const pending = driver.deliver(delivery({ url: srv.url() }, { signal: abort.signal }));
    await srv.request(1);
    abort.abort(new Error('lease lost'));
    expect(await pending).toEqual({
      type: 'retry',
      error: { code: 'WEBHOOK_TIMEOUT', message: 'aborted: lease lost' },
    });
  });

  it('a response whose body stalls counts by its status, with what arrived', async () => {
    srv.replies((res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    });
    const outcome = await driver.deliver(delivery({ url: srv.url(), timeoutMs: 200 }));
    expect(outcome).toEqual({ type: 'ok', result: { status: 200, body: 'partial', truncated: true } });
  });

  it('retries a refused connection', async () => {
    const closed = await startServer();
    await closed.close();
    const outcome = await driver.deliver(delivery({ url: closed.url() }));
    expect(outcome).toMatchObject({ type: 'retry', error: { code: 'WEBHOOK_CONNECTION' } });
    expect((outcome as { error: { message: string } }).error.message).toContain('ECONNREFUSED');
  });

  it('retries when the signing secret cannot be read', async () => {
    const broken = webhookTarget({
      secrets: async () => Promise.reject(new Error('vault sealed')),
      allowPrivate: LOOPBACK,
    });
    const outcome = await broken.deliver(delivery({ url: srv.url() }));
    expect(outcome).toMatchObject({ type: 'retry', error: { code: 'WEBHOOK_SECRET_UNAVAILABLE' } });
    expect(srv.received).toHaveLength(0);
  });
});

describe('address guard at delivery', () => {
  const refused = (o: Outcome): void => {
    expect(o).toMatchObject({ type: 'fail', error: { code: 'TARGET_ADDRESS_REFUSED' } });
  };

  it('refuses 127.0.0.1 without the allow list, sending nothing', async () => {
    const strict = webhookTarget({ secrets, allowPrivate: '' });
    refused(await strict.deliver(delivery({ url: srv.url() })));
    expect(srv.received).toHaveLength(0);
  });

  it('refuses localhost (a hostname resolving to loopback), sending nothing', async () => {
    const strict = webhookTarget({ secrets, allowPrivate: '' });
    refused(await strict.deliver(delivery({ url: `http://localhost:${srv.port}/hook` })));
    refused(await strict.deliver(delivery({ url: `http://[::1]:${srv.port}/hook` })));
    refused(await strict.deliver(delivery({ url: `http://[::ffff:127.0.0.1]:${srv.port}/hook` })));
    refused(await strict.deliver(delivery({ url: `http://2130706433:${srv.port}/hook` }))); // 127.0.0.1 as a number
    expect(srv.received).toHaveLength(0);
  });

  it('allows loopback when the operator lists it', async () => {
    srv.replies(text(200, 'hi'));
    const outcome = await driver.deliver(delivery({ url: `http://localhost:${srv.port}/hook` }));
    expect(outcome).toEqual({ type: 'ok', result: { status: 200, body: 'hi' } });
  });

  it('rejects a malformed allow list when the driver is built', () => {
    expect(() => webhookTarget({ secrets, allowPrivate: '127.0.0.0/8,nonsense' })).toThrow(/nonsense/);
  });
});

describe('signatures', () => {
  it('matches the published Standard Webhooks test vector', () => {
    const body = '{"test": 2432232314}';
    const headers = {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    };
    const s = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    expect(signWebhook(s, headers['webhook-id'], 1614265330, body)).toBe(headers['webhook-signature']);
    expect(verifyWebhook(s, headers, body, { now: 1614265330_000 })).toBe(true);
    expect(verifyWebhook(s, new Headers(headers), Buffer.from(body), { now: 1614265330_000 })).toBe(true);
  });

  it('generates whsec_ secrets of 24 random bytes', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(24);
    expect(generateWebhookSecret()).not.toBe(a);
  });

  it('during a rotation carries both signatures, each of which verifies', async () => {
    const previous = generateWebhookSecret();
    const rotating = webhookTarget({
      secrets: async () => ({ current: secret, previous }),
      allowPrivate: LOOPBACK,
    });
    srv.replies(text(200));
    await rotating.deliver(delivery({ url: srv.url() }));
    const r = srv.received[0]!;
    const sigs = String(r.headers['webhook-signature']).split(' ');
    expect(sigs).toHaveLength(2);
    const ts = STARTED / 1000;
    expect(sigs[0]).toBe(signWebhook(secret, `sch_1:${SCHEDULED}`, ts, r.body));
    expect(sigs[1]).toBe(signWebhook(previous, `sch_1:${SCHEDULED}`, ts, r.body));
    expect(verifyWebhook(secret, r.headers, r.body, { now: STARTED })).toBe(true);
    expect(verifyWebhook(previous, r.headers, r.body, { now: STARTED })).toBe(true);
    expect(verifyWebhook([generateWebhookSecret(), previous], r.headers, r.body, { now: STARTED })).toBe(
      true,
    );

    const after = webhookTarget({
      secrets: async () => ({ current: secret, previous: null }),
      allowPrivate: LOOPBACK,
    });
    await after.deliver(delivery({ url: srv.url() }));
    expect(String(srv.received[1]!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(verifyWebhook(previous, srv.received[1]!.headers, srv.received[1]!.body, { now: STARTED })).toBe(
      false,
    );
  });
});

describe('webhook validation', () => {
  const field = (input: unknown): string | undefined => {
    try {
      parseTarget({ webhook: input });
    } catch (e) {
      if (isPunctualError(e, 'SCHEDULE_INVALID')) return e.details?.field as string;
      throw e;
    }
    return undefined;
  };

  it.each([
    ['not an object', 'https://x.test', 'target.webhook'],
    ['no url', {}, 'target.webhook.url'],
    ['relative url', { url: '/hook' }, 'target.webhook.url'],
    ['ftp url', { url: 'ftp://x.test/' }, 'target.webhook.url'],
    ['credentials', { url: 'https://user:pw@x.test/' }, 'target.webhook.url'],
    ['too long', { url: `https://x.test/${'a'.repeat(2048)}` }, 'target.webhook.url'],
    ['method', { url: 'https://x.test/', method: 'GET' }, 'target.webhook.method'],
    ['headers type', { url: 'https://x.test/', headers: ['a'] }, 'target.webhook.headers'],
    [
      'header name',
      { url: 'https://x.test/', headers: { 'bad name': 'v' } },
      'target.webhook.headers.bad name',
    ],
    ['header value', { url: 'https://x.test/', headers: { 'x-a': 1 } }, 'target.webhook.headers.x-a'],
    [
      'header newline',
      { url: 'https://x.test/', headers: { 'x-a': 'a\r\nb: c' } },
      'target.webhook.headers.x-a',
    ],
    ['header euro sign', { url: 'https://x.test/', headers: { 'x-a': '5 €' } }, 'target.webhook.headers.x-a'],
    ['host', { url: 'https://x.test/', headers: { Host: 'y' } }, 'target.webhook.headers.Host'],
    [
      'content-length',
      { url: 'https://x.test/', headers: { 'content-length': '1' } },
      'target.webhook.headers.content-length',
    ],
    [
      'webhook-*',
      { url: 'https://x.test/', headers: { 'Webhook-Id': 'x' } },
      'target.webhook.headers.Webhook-Id',
    ],
    [
      'too many headers',
      {
        url: 'https://x.test/',
        headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-${i}`, 'v'])),
      },
      'target.webhook.headers',
    ],
    ['timeout low', { url: 'https://x.test/', timeoutMs: 99 }, 'target.webhook.timeoutMs'],
    ['timeout high', { url: 'https://x.test/', timeoutMs: 60_001 }, 'target.webhook.timeoutMs'],
    ['unknown field', { url: 'https://x.test/', retries: 3 }, 'target.webhook.retries'],
  ])('rejects %s', (_why, input, expected) => {
    expect(field(input)).toBe(expected);
  });

  it('accepts a full target and normalises the method', () => {
    const t = parseTarget({
      webhook: { url: 'https://x.test/a', method: 'patch', headers: { 'X-Key': 'v' }, timeoutMs: 5000 },
    });
    expect(t).toEqual({
      webhook: { url: 'https://x.test/a', method: 'PATCH', headers: { 'X-Key': 'v' }, timeoutMs: 5000 },
    });
  });

  it('refuses literal special addresses at save time unless allowed; hostnames wait for delivery', () => {
    const strict = webhookTarget({ secrets, allowPrivate: '' });
    for (const url of [
      'http://127.0.0.1/h',
      'http://[::1]/h',
      'http://169.254.169.254/latest',
      'http://10.0.0.1/',
    ]) {
      try {
        strict.validate!({ webhook: { url } }, null);
        expect.unreachable(url);
      } catch (e) {
        expect(isPunctualError(e, 'TARGET_ADDRESS_REFUSED')).toBe(true);
        expect((e as { details: Record<string, unknown> }).details.field).toBe('target.webhook.url');
      }
    }
    expect(() => strict.validate!({ webhook: { url: 'https://hooks.example.com/h' } }, null)).not.toThrow();
    expect(() => strict.validate!({ webhook: { url: 'http://localhost/h' } }, null)).not.toThrow();
    expect(() => driver.validate!({ webhook: { url: 'http://127.0.0.1/h' } }, null)).not.toThrow();
  });
});

describe('webhook through the engine', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('delivers a run, retries a 503 with the schedule backoff, and keeps status and body', async () => {
    h = await harness({ targets: [webhookTarget({ secrets, allowPrivate: LOOPBACK })] });
    srv.replies(text(503, 'busy'), json(200, { received: true }));
    await h.s.put({
      key: 'sync',
      spec: '@in 1s',
      target: { webhook: { url: srv.url() } },
      payload: { n: 1 },
      policies: { retry: { maxAttempts: 3, backoff: 'fixed', delayMs: 2000, jitter: false } },
    });
    const retrying = h.waitFor('run:retrying');
    await h.clock.advance(1000);
    await retrying; // real I/O happens while the test clock stands still
    await h.quiesce(); // let the worker arm its timer for the retry before the clock moves
    const succeeded = h.waitFor('run:succeeded');
    await h.clock.advance(2000);
    const { run } = await succeeded;

    expect(run.result).toEqual({ status: 200, body: { received: true } });
    const detail = await h.s.getRun(run.id);
    expect(detail!.attempts.map((a) => a.outcome)).toEqual(['retry', 'succeeded']);
    expect(detail!.attempts[0]!.error).toMatchObject({
      code: 'WEBHOOK_HTTP_503',
      message: 'HTTP 503 Service Unavailable: busy',
    });

    const [a, b] = srv.received;
    expect(a!.headers['webhook-id']).toBe(run.occurrenceId);
    expect(b!.headers['webhook-id']).toBe(run.occurrenceId); // the same id on every attempt
    expect(JSON.parse(a!.body)).toMatchObject({
      id: run.occurrenceId,
      scheduleKey: 'sync',
      attempt: 1,
      payload: { n: 1 },
    });
    expect(JSON.parse(b!.body)).toMatchObject({
      attempt: 2,
      scheduledFor: new Date(run.scheduledFor).toISOString(),
    });
    expect(verifyWebhook(secret, b!.headers, b!.body, { now: h.clock.now() })).toBe(true);
  });

  it('refuses to save a schedule whose webhook is a literal loopback address unless allowed', async () => {
    h = await harness({ targets: [webhookTarget({ secrets, allowPrivate: '' })] });
    await expect(
      h.s.put({ key: 'local', spec: '@in 1s', target: { webhook: { url: srv.url() } } }),
    ).rejects.toMatchObject({ code: 'TARGET_ADDRESS_REFUSED', details: { field: 'target.webhook.url' } });
    await expect(
      h.s.put({ key: 'bad', spec: '@in 1s', target: { webhook: { url: 'mailto:a@b.test' } } }),
    ).rejects.toMatchObject({ code: 'SCHEDULE_INVALID', details: { field: 'target.webhook.url' } });
  });
});
