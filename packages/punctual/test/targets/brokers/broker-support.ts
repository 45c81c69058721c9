// What the broker tests share: which services are configured (skip, or fail when PUNCTUAL_REQUIRE_SERVICES=1),
// unique destination names, a hand-built Delivery for calling a driver directly, a TCP proxy that stands in
// for a broker outage without stopping the shared broker, a loop that drives a retrying run to its end, and
// (opt-in, PUNCTUAL_TEST_BROKER_RESTART=1) stopping and restarting the real local Redis or NATS server.

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { it } from 'vitest';
import type { Json } from '../../../src/domain/json.js';
import type { Run } from '../../../src/domain/run.js';
import type { Schedule } from '../../../src/domain/schedule.js';
import type { Target } from '../../../src/domain/target.js';
import type { Delivery } from '../../../src/targets/target.js';
import type { Harness } from '../../support/harness.js';

/**
 * The URL of a test service, or undefined. When it is not set, registers one test that fails (with
 * PUNCTUAL_REQUIRE_SERVICES=1) or is skipped, its name saying which variable is missing.
 */
export function serviceUrl(envVar: string, service: string): string | undefined {
  const url = process.env[envVar];
  if (url) return url;
  const why = `${service} is not configured: set ${envVar} to run these tests`;
  if (process.env.PUNCTUAL_REQUIRE_SERVICES === '1') {
    it(`${service} (required)`, () => {
      throw new Error(`${why} (PUNCTUAL_REQUIRE_SERVICES=1)`);
    });
  } else it.skip(why, () => {});
  return undefined;
}

/** A name no other test (or earlier run) uses. */
export function unique(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

export const SCHEDULED = Date.parse('2026-01-05T09:00:00.000Z');
export const STARTED = SCHEDULED + 1234;

/** A Delivery for calling `deliver` directly: the same run twice is the same occurrence delivered twice. */
export function delivery(
  target: Target,
  o: {
    tenantId?: string;
    attempt?: number;
    signal?: AbortSignal;
    payload?: Json | null;
    scheduleId?: string;
  } = {},
): Delivery {
  const scheduleId = o.scheduleId ?? unique('sch');
  const run = {
    id: unique('run'),
    tenantId: o.tenantId ?? 'acme',
    scheduleId,
    scheduleKey: 'order-events',
    scheduleVersion: 1,
    occurrenceId: `${scheduleId}:${SCHEDULED}`,
    kind: 'scheduled',
    state: 'running',
    scheduledFor: SCHEDULED,
    dueAt: SCHEDULED,
    attempt: o.attempt ?? 1,
    maxAttempts: 3,
    checks: 0,
    payload: null,
  } as unknown as Run;
  const schedule = { id: scheduleId, key: 'order-events', target } as unknown as Schedule;
  return {
    run,
    schedule,
    payload: o.payload === undefined ? { order: 42 } : o.payload,
    signal: o.signal ?? new AbortController().signal,
    startedAt: STARTED,
  };
}

/** Host and port of a service URL (the first server of a comma-separated list). */
export function hostPort(url: string): { host: string; port: number } {
  const u = new URL(url.split(',')[0]!.trim());
  const dflt: Record<string, number> = { 'redis:': 6379, 'nats:': 4222, 'amqp:': 5672 };
  return { host: u.hostname, port: u.port ? Number(u.port) : (dflt[u.protocol] ?? 0) };
}

/** The URL with its host and port replaced (credentials and path kept). */
export function viaPort(url: string, port: number): string {
  const u = new URL(url.split(',')[0]!.trim());
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString().replace(/\/$/, '');
}

/**
 * A TCP proxy on 127.0.0.1 in front of a broker. `down()` drops every connection and stops listening (the
 * broker looks stopped to its clients, while other tests keep using the real one); `up()` listens again on
 * the same port. `stall()` keeps accepting but forwards nothing (a broker that never answers).
 */
export interface TcpProxy {
  port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Resolves at the next accepted connection. */
  nextConnection(): Promise<void>;
  down(): Promise<void>;
  up(): Promise<void>;
  stall(on: boolean): void;
  close(): Promise<void>;
}

export async function startProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  let stalled = false;
  let waiters: (() => void)[] = [];
  const server = net.createServer((client) => {
    accepted++;
    for (const w of waiters.splice(0)) w();
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (stalled) return; // hold the connection open, say nothing
    const upstream = net.connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number): Promise<void> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const down = async (): Promise<void> => {
    if (!server.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of sockets) s.destroy();
    sockets.clear();
    await closed;
  };
  return {
    port,
    get accepted() {
      return accepted;
    },
    nextConnection: () => new Promise<void>((resolve) => waiters.push(resolve)),
    down,
    up: async () => {
      if (server.listening) return;
      // The port was ours a moment ago; retry briefly if the kernel has not released it yet.
      for (let i = 0; ; i++) {
        try {
          await listen(port);
          break;
        } catch (e) {
          if (i >= 50) throw e;
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      // Listening again: the callback of listen() is the readiness (no probe, so `accepted` counts clients).
    },
    stall: (on) => {
      stalled = on;
    },
    close: async () => {
      waiters = [];
      await down();
    },
  };
}

/**
 * Starts the next attempt of a retrying run: lets the engine settle, moves the clock by `stepMs` (the retry
 * delay), and waits for that attempt's event.
 */
export async function nextAttempt(
  h: Harness,
  runId: string,
  stepMs: number,
): Promise<{ event: 'succeeded' | 'dead' | 'retrying'; run: Run }> {
  await h.quiesce();
  const mine = (p: { run: Run }): boolean => p.run.id === runId;
  const next = Promise.race([
    h.waitFor('run:succeeded', mine).then((p) => ({ event: 'succeeded' as const, run: p.run })),
    h.waitFor('run:dead', mine).then((p) => ({ event: 'dead' as const, run: p.run })),
    h.waitFor('run:retrying', mine).then((p) => ({ event: 'retrying' as const, run: p.run })),
  ]);
  await h.clock.advance(stepMs);
  return next;
}

/** Drives a retrying run attempt by attempt until it succeeds or dies; returns which. */
export async function driveRetries(
  h: Harness,
  runId: string,
  stepMs: number,
  maxSteps = 20,
): Promise<'succeeded' | 'dead'> {
  for (let i = 0; i < maxSteps; i++) {
    const { event } = await nextAttempt(h, runId, stepMs);
    if (event !== 'retrying') return event;
  }
  throw new Error(`run ${runId} still retrying after ${maxSteps} attempts`);
}

/** Real restarts of the shared local brokers run only when asked: they disturb other tests using them. */
export const REAL_RESTART = process.env.PUNCTUAL_TEST_BROKER_RESTART === '1';

export interface LocalService {
  name: string;
  port: number;
  stop: [string, string[]];
  start: [string, string[]];
}

export const LOCAL_REDIS: LocalService = {
  name: 'Redis',
  port: 6379,
  stop: ['redis-cli', ['-h', '127.0.0.1', 'shutdown', 'nosave']],
  start: [
    'redis-server',
    [
      '--daemonize',
      'yes',
      '--bind',
      '127.0.0.1',
      '-::1',
      '--port',
      '6379',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      '/var/lib/redis',
      '--logfile',
      '/var/log/redis/ci.log',
    ],
  ],
};

export const LOCAL_NATS: LocalService = {
  name: 'NATS',
  port: 4222,
  stop: ['start-stop-daemon', ['--stop', '--oknodo', '--exec', '/usr/sbin/nats-server']],
  start: [
    'start-stop-daemon',
    [
      '--start',
      '--oknodo',
      '--background',
      '--exec',
      '/usr/sbin/nats-server',
      '--',
      '-a',
      '127.0.0.1',
      '-p',
      '4222',
      '-js',
      '-sd',
      '/var/lib/nats-server',
      '-l',
      '/var/log/nats-server.log',
    ],
  ],
};

function exec(cmd: string, args: string[]): Promise<void> {
  // The exit status is not trusted (redis-cli reports the dropped connection of a shutdown): the port is.
  return new Promise((resolve) => execFile(cmd, args, { timeout: 15_000 }, () => resolve()));
}

async function portOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const s = net.connect(port, host);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** Polls a TCP port until it is open (or closed), bounded (about 15 s). */
export async function waitForPort(port: number, open: boolean): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if ((await portOpen(port)) === open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`port ${port} did not ${open ? 'open' : 'close'}`);
}

/** Stops a local broker and waits until its port is closed. */
export async function stopService(s: LocalService): Promise<void> {
  await exec(...s.stop);
  await waitForPort(s.port, false);
}

/** Starts a local broker (if its port is closed) and waits until its port accepts connections. */
export async function startService(s: LocalService): Promise<void> {
  if (await portOpen(s.port)) return;
  await exec(...s.start);
  await waitForPort(s.port, true);
}
