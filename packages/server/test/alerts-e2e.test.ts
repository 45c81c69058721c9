// End to end, with the built command line: two `punctual serve` processes on one PostgreSQL schema, an
// every-second schedule whose webhook target (a receiver on 127.0.0.1) starts answering 500, and three alert
// channels (signed webhook, slack, pagerduty) on the same receiver. The run_dead alert opens once, each
// channel receives its opening once (the webhook with a valid Standard Webhooks signature), and when the
// target answers 200 again the alert resolves, and each channel receives the resolution once. Waits on
// received requests with timeouts, never on fixed sleeps. Needs PostgreSQL (PUNCTUAL_TEST_PG_URL).

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresStore, verifyWebhook } from 'punctual';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../src/tenancy/api-keys.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MAIN = join(ROOT, 'packages/server/dist/cli/main.js');
const SECRET = `whsec_${Buffer.from('alerts-e2e-signing-key-0123456789').toString('base64')}`;
const KEY = 'e2e.alerts';

if (PG_URL === '' && process.env.PUNCTUAL_REQUIRE_SERVICES === '1') {
  throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
}

/** What a channel received, as far as the test reads it. */
interface SentBody {
  type?: string;
  text?: string;
  alert?: { id: string; state: string };
  [field: string]: unknown;
}

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe.skipIf(PG_URL === '')(
  PG_URL === ''
    ? 'alerts end to end on PostgreSQL (skipped: PUNCTUAL_TEST_PG_URL is not set)'
    : 'alerts end to end on PostgreSQL',
  () => {
    const schema = `t_alerts_${randomBytes(5).toString('hex')}`;
    const children: ChildProcess[] = [];
    const received: Received[] = [];
    const arrived = new EventEmitter();
    let receiver: Server | undefined;
    let failing = true;
    let apiKey = '';

    beforeAll(async () => {
      const build = await new Promise<{ code: number; out: string }>((resolve) => {
        execFile('npx', ['tsc', '-b', 'packages/server'], { cwd: ROOT }, (err, stdout, stderr) =>
          resolve({ code: err ? 1 : 0, out: `${stdout}${stderr}` }),
        );
      });
      if (build.code !== 0) console.warn(`tsc -b packages/server reported errors:\n${build.out}`);
      if (!existsSync(MAIN)) throw new Error(`the build produced no ${MAIN}:\n${build.out}`);

      // The tenant and its key, made before any server starts (so none bootstraps a default tenant).
      const store = postgresStore({ connectionString: PG_URL, schema });
      await store.migrate();
      await store.createTenant({
        id: 'acme',
        quotas: { maxSchedules: null, maxRunsPerMinute: null, requestsPerSecond: null },
        webhookSecret: SECRET,
        now: Date.now(),
      });
      apiKey = (await issueApiKey(store, 'acme', { name: 'e2e', now: Date.now() })).key;
      await store.close();

      receiver = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const path = req.url ?? '';
          if (path === '/target') {
            res.writeHead(failing ? 500 : 200, { 'content-type': 'application/json' }).end('{}');
            return;
          }
          received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
          res.writeHead(200).end('ok');
          arrived.emit('request');
        });
      });
      await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
    }, 180_000);

    afterAll(async () => {
      for (const child of children)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    });

    function startServer(): Promise<{ url: string }> {
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(process.env))
        if (!k.startsWith('PUNCTUAL_') && v !== undefined) env[k] = v;
      Object.assign(env, {
        PUNCTUAL_DATABASE_URL: PG_URL,
        PUNCTUAL_PG_SCHEMA: schema,
        PUNCTUAL_PORT: '0',
        PUNCTUAL_ALLOW_PRIVATE_TARGETS: '127.0.0.0/8',
        PUNCTUAL_SCRIPTS: 'off',
        PUNCTUAL_LOG_FORMAT: 'json',
        PUNCTUAL_LOG_LEVEL: 'warn',
      });
      const child = spawn(process.execPath, [MAIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      children.push(child);
      let text = '';
      return new Promise((resolve, reject) => {
        const onData = (chunk: Buffer): void => {
          text += chunk.toString();
          const url = /punctual: serving on (\S+) /.exec(text)?.[1];
          if (url) resolve({ url });
        };
        child.stdout!.on('data', onData);
        child.stderr!.on('data', onData);
        child.once('exit', (code, signal) =>
          reject(new Error(`serve exited (${code ?? signal}) before listening:\n${text}`)),
        );
      });
    }

    /** Resolves once `done()` holds after a received request (checked at once too); rejects after `ms`. */
    function until(done: () => boolean, ms: number, what: string): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!done()) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `timed out waiting for ${what}; received: ${JSON.stringify(received.map((r) => r.path))}`,
            ),
          );
        }, ms);
        const cleanup = (): void => {
          clearTimeout(timer);
          arrived.off('request', check);
        };
        arrived.on('request', check);
        check();
      });
    }

    const at = (path: string): Received[] => received.filter((r) => r.path === path);
    const parsed = (path: string): SentBody[] => at(path).map((r) => JSON.parse(r.body) as SentBody);

    it('opens one alert, delivers it once per channel, and resolves it when the target recovers', async () => {
      const [a, b] = await Promise.all([startServer(), startServer()]);
      const auth = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
      const base = `http://127.0.0.1:${(receiver!.address() as AddressInfo).port}`;
      const put = async (server: string, path: string, body: unknown): Promise<Response> => {
        const res = await fetch(`${server}${path}`, {
          method: 'PUT',
          headers: auth,
          body: JSON.stringify(body),
        });
        expect(res.status, `${path}: ${await res.clone().text()}`).toBeLessThan(300);
        return res;
      };
      await put(a.url, '/v1/alert-channels/hook', { kind: 'webhook', url: `${base}/alerts` });
      await put(b.url, '/v1/alert-channels/chat', { kind: 'slack', url: `${base}/slack` });
      await put(a.url, '/v1/alert-channels/pager', {
        kind: 'pagerduty',
        url: `${base}/pd`,
        routingKey: 'R0UT1NG',
      });
      await put(b.url, `/v1/schedules/${KEY}`, {
        spec: '@every 1s',
        target: { webhook: { url: `${base}/target` } },
        policies: { retry: { maxAttempts: 1 } },
      });

      // The target fails: the alert opens, and every channel hears of it.
      await until(
        () => at('/alerts').length >= 1 && at('/slack').length >= 1 && at('/pd').length >= 1,
        90_000,
        'the opening on every channel',
      );
      const [opening] = at('/alerts');
      expect(verifyWebhook(SECRET, opening!.headers, opening!.body)).toBe(true);
      expect(
        verifyWebhook('whsec_' + Buffer.from('another').toString('base64'), opening!.headers, opening!.body),
      ).toBe(false);
      const opened = parsed('/alerts')[0]!;
      expect(opened).toMatchObject({
        type: 'alert.opened',
        tenantId: 'acme',
        alert: { kind: 'run_dead', subjectKind: 'schedule', subject: KEY, state: 'open' },
      });
      const id = opened.alert!.id;
      expect(opening!.headers['webhook-id']).toBe(`alert_${id}_opened`);
      expect(parsed('/slack')[0]!.text).toMatch(/^\[OPEN\] schedule "e2e\.alerts": run \S+ is dead/);
      expect(parsed('/pd')[0]).toMatchObject({
        routing_key: 'R0UT1NG',
        event_action: 'trigger',
        dedup_key: `punctual-alert-acme-${id}`,
        payload: { severity: 'error', source: 'punctual/acme', class: 'run_dead' },
      });

      // The target recovers: the alert resolves, and every channel hears of it.
      failing = false;
      await until(
        () => at('/alerts').length >= 2 && at('/slack').length >= 2 && at('/pd').length >= 2,
        90_000,
        'the resolution on every channel',
      );
      const resolving = at('/alerts')[1]!;
      expect(verifyWebhook(SECRET, resolving.headers, resolving.body)).toBe(true);
      expect(parsed('/alerts')[1]).toMatchObject({
        type: 'alert.resolved',
        alert: { id, state: 'resolved' },
      });
      expect(parsed('/slack')[1]!.text).toMatch(/^\[RESOLVED\] /);
      expect(parsed('/pd')[1]).toEqual({
        routing_key: 'R0UT1NG',
        dedup_key: `punctual-alert-acme-${id}`,
        event_action: 'resolve',
      });

      // Both instances show the one alert, resolved, with every delivery made in one attempt.
      for (const server of [a.url, b.url]) {
        const list = (await (
          await fetch(`${server}/v1/alerts?schedule=${KEY}`, { headers: auth })
        ).json()) as {
          items: { id: string; state: string }[];
        };
        expect(list.items.map((x) => [x.id, x.state])).toEqual([[id, 'resolved']]);
      }
      // A delivery is recorded once its receiver has answered, so the last one may still be pending when the
      // receiver has seen every request: the detail is read again until none is pending (each read a request
      // to the instance, which answers when it can), for at most 30 s.
      type Detail = {
        deliveries: { channel: string; transition: string; state: string; attempts: number }[];
      };
      const readDetail = async (): Promise<Detail> =>
        (await (await fetch(`${a.url}/v1/alerts/${id}`, { headers: auth })).json()) as Detail;
      let detail = await readDetail();
      for (const deadline = performance.now() + 30_000; performance.now() < deadline;) {
        if (!detail.deliveries.some((d) => d.state === 'pending')) break;
        detail = await readDetail();
      }
      expect(detail.deliveries.map((d) => [d.channel, d.transition, d.state, d.attempts]).sort()).toEqual(
        [
          ['chat', 'opened', 'delivered', 1],
          ['chat', 'resolved', 'delivered', 1],
          ['hook', 'opened', 'delivered', 1],
          ['hook', 'resolved', 'delivered', 1],
          ['pager', 'opened', 'delivered', 1],
          ['pager', 'resolved', 'delivered', 1],
        ].sort(),
      );
      // Exactly one opening and one resolution per channel reached the receiver.
      expect(received.map((r) => r.path).sort()).toEqual(
        ['/alerts', '/alerts', '/pd', '/pd', '/slack', '/slack'].sort(),
      );
      const metrics = await (await fetch(`${a.url}/metrics`)).text();
      expect(metrics).toMatch(/punctual_alerts_open\b/);
    }, 240_000);
  },
);
