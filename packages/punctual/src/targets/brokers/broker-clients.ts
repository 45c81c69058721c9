// What the broker drivers share beyond the connections' configuration: their options, the lazy import of a
// client package, one shared lazily opened client per connection name, bounded waits, and the outcomes a
// failure becomes. It must never echo a connection URL's credentials or wait past a signal.

import type { Json } from '../../domain/json.js';
import type { Outcome } from '../../domain/outcome.js';
import { PunctualError, isPunctualError, type ErrorCode } from '../../errors.js';
import {
  BrokerConnections,
  type BrokerConnection,
  type BrokerConnectionsConfig,
} from './broker-connections.js';

/** Options every broker driver takes. */
export interface BrokerDriverOptions {
  /** The operator's connections (parsed here when given as plain configuration). */
  connections: BrokerConnections | BrokerConnectionsConfig;
  /** How long a publish waits for the broker's acknowledgement (also bounded by the attempt). Default 10 s. */
  publishTimeoutMs?: number;
  /** How long a publish waits for a connection to open or come back (also bounded by the attempt). Default 5 s. */
  connectTimeoutMs?: number;
}

export interface ResolvedBrokerOptions {
  connections: BrokerConnections;
  publishTimeoutMs: number;
  connectTimeoutMs: number;
}

export function resolveBrokerOptions(opts: BrokerDriverOptions): ResolvedBrokerOptions {
  const connections =
    opts.connections instanceof BrokerConnections
      ? opts.connections
      : new BrokerConnections(opts.connections);
  const ms = (v: number | undefined, name: string, dflt: number): number => {
    if (v === undefined) return dflt;
    if (!Number.isInteger(v) || v < 1 || v > 600_000) {
      throw new PunctualError('BROKER_CONFIG_INVALID', `${name} must be an integer between 1 and 600000`, {
        field: name,
      });
    }
    return v;
  };
  return {
    connections,
    publishTimeoutMs: ms(opts.publishTimeoutMs, 'publishTimeoutMs', 10_000),
    connectTimeoutMs: ms(opts.connectTimeoutMs, 'connectTimeoutMs', 5_000),
  };
}

/** A delivery failure the driver turns into an outcome. */
export class BrokerFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly permanent = false,
  ) {
    super(message);
    this.name = 'BrokerFailure';
  }
}

/**
 * Imports a broker client on first use. A missing package becomes BROKER_CLIENT_MISSING naming what to
 * install; the import is retried on the next use.
 */
export function lazyClient<M>(load: () => Promise<M>, packages: string): () => Promise<M> {
  let loading: Promise<M> | undefined;
  return () => {
    loading ??= load().catch((e: unknown) => {
      loading = undefined;
      const code = (e as NodeJS.ErrnoException | undefined)?.code;
      if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
        throw new PunctualError(
          'BROKER_CLIENT_MISSING',
          `the client library is not installed: npm install ${packages}`,
          { packages },
          { cause: e },
        );
      }
      throw e;
    });
    return loading;
  };
}

interface Slot<C> {
  opening: Promise<C>;
  client?: C;
}

/**
 * One client per connection name, opened on first use and shared by every publish. A client that failed to
 * open, or that its driver `invalidate`s (closed for good, channel lost), is replaced at the next use.
 */
export class SharedClients<C> {
  readonly #slots = new Map<string, Slot<C>>();

  constructor(
    private readonly open: (conn: BrokerConnection) => Promise<C>,
    private readonly shut: (client: C) => Promise<void>,
  ) {}

  get(conn: BrokerConnection): Promise<C> {
    const existing = this.#slots.get(conn.name);
    if (existing) return existing.opening;
    const slot: Slot<C> = { opening: this.open(conn) };
    this.#slots.set(conn.name, slot);
    slot.opening.then(
      (c) => (slot.client = c),
      () => {
        if (this.#slots.get(conn.name) === slot) this.#slots.delete(conn.name);
      },
    );
    return slot.opening;
  }

  /** Forgets a client (the next use opens a new one) and shuts it. */
  invalidate(name: string, client: C): void {
    const slot = this.#slots.get(name);
    if (slot?.client === client) this.#slots.delete(name);
    this.shut(client).catch(() => {});
  }

  /**
   * Shuts every client, waiting at most `timeoutMs` for each. A client still opening is shut when it opens,
   * without holding up the close (its own connect timeout ends it). Later uses open new ones.
   */
  async close(timeoutMs = 5_000): Promise<void> {
    const slots = [...this.#slots.values()];
    this.#slots.clear();
    await Promise.allSettled(
      slots.map((slot) => {
        if (slot.client === undefined) {
          // Still opening (a broker that does not answer): shut it whenever it opens, without waiting.
          slot.opening.then((client) => this.shut(client)).catch(() => {});
          return undefined;
        }
        return bounded(this.shut(slot.client), undefined, timeoutMs, 'closing').catch(() => {});
      }),
    );
  }
}

function reasonOf(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  return r instanceof Error ? r.message : typeof r === 'string' ? r : 'the attempt was aborted';
}

/**
 * Waits for `p` at most `ms` and never past `signal`. Rejects with a BrokerFailure (`code`, default
 * BROKER_PUBLISH_FAILED) naming `what` on timeout or abort. A late rejection of `p` is swallowed.
 */
export function bounded<T>(
  p: Promise<T>,
  signal: AbortSignal | undefined,
  ms: number,
  what: string,
  code: ErrorCode = 'BROKER_PUBLISH_FAILED',
): Promise<T> {
  p.catch(() => {});
  if (signal?.aborted)
    return Promise.reject(new BrokerFailure(code, `${what}: aborted: ${reasonOf(signal)}`));
  return new Promise<T>((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      done();
      reject(new BrokerFailure(code, `${what}: aborted: ${reasonOf(signal!)}`));
    };
    const timer = setTimeout(() => {
      done();
      reject(new BrokerFailure(code, `${what}: no answer within ${ms} ms`));
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        done();
        resolve(v);
      },
      (e: unknown) => {
        done();
        reject(e);
      },
    );
  });
}

/**
 * The connection's shared client for one publish, opened or reused, waiting at most `ms` and never past the
 * attempt's signal. Whatever else opening throws becomes BROKER_UNAVAILABLE (retried).
 */
export async function clientFor<C>(
  clients: SharedClients<C>,
  conn: BrokerConnection,
  signal: AbortSignal,
  ms: number,
): Promise<C> {
  try {
    return await bounded(clients.get(conn), signal, ms, 'opening the connection', 'BROKER_UNAVAILABLE');
  } catch (e) {
    if (e instanceof BrokerFailure || isPunctualError(e)) throw e;
    throw new BrokerFailure('BROKER_UNAVAILABLE', `connecting: ${errorText(e)}`);
  }
}

/**
 * Resolves a publish's destination with `resolve(...args)`; a refusal is BROKER_DESTINATION_INVALID and
 * permanent (never retried).
 */
export function destinationOf<A extends unknown[], T>(resolve: (...args: A) => T, ...args: A): T {
  try {
    return resolve(...args);
  } catch (e) {
    throw new BrokerFailure('BROKER_DESTINATION_INVALID', (e as Error).message, true);
  }
}

/** The text of anything thrown (a connect that failed on every address has its reasons joined). */
export function errorText(e: unknown): string {
  if (e instanceof AggregateError && !e.message && e.errors.length > 0) {
    return e.errors.map((x: unknown) => (x instanceof Error ? x.message : String(x))).join('; ');
  }
  return e instanceof Error ? e.message || e.name : typeof e === 'string' ? e : String(e);
}

/** An error message fit for a run's history: the connection named, the URL's password never shown. */
export function brokerMessage(conn: BrokerConnection, e: unknown): string {
  let text = errorText(e);
  for (const secret of secretsOf(conn.url)) text = text.split(secret).join('***');
  return `${conn.kind} connection "${conn.name}": ${text}`.slice(0, 2000);
}

function secretsOf(url: string): string[] {
  const out: string[] = [];
  for (const s of url.split(',')) {
    try {
      const u = new URL(s.trim());
      if (u.password) out.push(u.password, decodeURIComponent(u.password));
      else if (u.username && u.protocol.startsWith('nats'))
        out.push(u.username, decodeURIComponent(u.username));
    } catch {
      // validated at parse time
    }
  }
  return out.filter((x) => x.length > 0);
}

/** Turns what a publish threw into the attempt's outcome (`retry`, or `fail` for a permanent refusal). */
export function failureOutcome(conn: BrokerConnection | undefined, e: unknown, fallback: ErrorCode): Outcome {
  const message = conn ? brokerMessage(conn, e) : errorText(e);
  if (e instanceof BrokerFailure) {
    return e.permanent
      ? { type: 'fail', error: { code: e.code, message } }
      : { type: 'retry', error: { code: e.code, message } };
  }
  return { type: 'retry', error: { code: isPunctualError(e) ? e.code : fallback, message } };
}

/** The result kept on a run: plain JSON. */
export function result(value: Record<string, Json>): Outcome {
  return { type: 'ok', result: value };
}

/**
 * Publishes waiting for a connection to become usable, released together when it does (or fails). One
 * listener on the client serves every waiter, so many waiting publishes add no listeners to it.
 */
export class ReadyWaiters {
  readonly #waiting = new Set<{ resolve: () => void; reject: (e: unknown) => void }>();

  /** Waits until `ready()` or `failed()` is called, at most `ms` and never past `signal`. */
  wait(signal: AbortSignal, ms: number, what: string): Promise<void> {
    let entry!: { resolve: () => void; reject: (e: unknown) => void };
    const p = new Promise<void>((resolve, reject) => (entry = { resolve, reject }));
    this.#waiting.add(entry);
    return bounded(p, signal, ms, what, 'BROKER_UNAVAILABLE').finally(() => this.#waiting.delete(entry));
  }

  ready(): void {
    for (const w of this.#waiting) w.resolve();
    this.#waiting.clear();
  }

  failed(e: unknown): void {
    for (const w of this.#waiting) w.reject(e);
    this.#waiting.clear();
  }
}
