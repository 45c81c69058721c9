// Wake-ups over LISTEN/NOTIFY: one dedicated connection LISTENs on the schema's channel and calls the
// registered listeners with each payload: the due instant another process inserted (a number), or a
// StoreSignal (store-signals.ts). It is a latency hint only: a lost
// notification delays a run until the worker's own timer, never loses it. After a connection error it
// reconnects with capped exponential backoff; errors are reported, never thrown into the process.

import type { PgClient } from './postgres-driver.js';

export interface WakeupsOptions {
  channel: string;
  connect: () => Promise<PgClient>;
  onError: (err: unknown) => void;
  /** After a reconnect: the earliest due instant, since notifications sent meanwhile were missed. */
  resync?: () => Promise<number | null>;
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export class Wakeups {
  readonly #listeners = new Set<(payload: string) => void>();
  #client: PgClient | undefined;
  #connecting: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #backoff: number;
  #closed = false;
  #connectedBefore = false;
  #ready: Promise<void>;
  #resolveReady!: () => void;

  constructor(readonly opts: WakeupsOptions) {
    this.#backoff = opts.minBackoffMs ?? 100;
    this.#ready = new Promise((resolve) => (this.#resolveReady = resolve));
  }

  /** Registers a listener; the LISTEN connection opens with the first one. */
  add(listener: (payload: string) => void): () => void {
    this.#listeners.add(listener);
    if (!this.#client && !this.#connecting && !this.#timer) this.#start();
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Resolves once the LISTEN connection is established (for tests and health checks). */
  ready(): Promise<void> {
    return this.#ready;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#connecting?.catch(() => undefined);
    const client = this.#client;
    this.#client = undefined;
    if (client) await client.end().catch(() => undefined);
  }

  #start(): void {
    this.#connecting = this.#connect().finally(() => (this.#connecting = undefined));
  }

  async #connect(): Promise<void> {
    let client: PgClient | undefined;
    try {
      client = await this.opts.connect();
      const c = client;
      c.on('error', (err) => this.#lost(c, err));
      c.on('end', () => this.#lost(c, new Error('the LISTEN connection ended')));
      c.on('notification', (msg) => {
        if (msg.channel !== this.opts.channel || msg.payload === undefined) return;
        this.#emit(msg.payload);
      });
      await c.connect();
      await c.query(`LISTEN "${this.opts.channel}"`);
      if (this.#closed) {
        await c.end().catch(() => undefined);
        return;
      }
      this.#client = c;
      this.#backoff = this.opts.minBackoffMs ?? 100;
      this.#resolveReady();
      if (this.#connectedBefore && this.opts.resync) {
        const dueAt = await this.opts.resync().catch((err: unknown) => (this.opts.onError(err), null));
        if (dueAt !== null) this.#emit(String(dueAt));
      }
      this.#connectedBefore = true;
    } catch (err) {
      if (client) this.#lost(client, err);
      else this.#retryLater(err);
    }
  }

  #emit(payload: string): void {
    for (const l of this.#listeners) {
      try {
        l(payload);
      } catch (err) {
        this.opts.onError(err);
      }
    }
  }

  #lost(client: PgClient, err: unknown): void {
    client.removeAllListeners();
    client.on('error', () => undefined); // a late socket error must not become an unhandled 'error' event
    client.end().catch(() => undefined);
    if (this.#client === client) this.#client = undefined;
    this.#retryLater(err);
  }

  #retryLater(err: unknown): void {
    if (this.#closed) return;
    this.opts.onError(err);
    if (this.#timer || this.#listeners.size === 0) return;
    const delay = this.#backoff;
    this.#backoff = Math.min(this.#backoff * 2, this.opts.maxBackoffMs ?? 30_000);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#closed && !this.#client && !this.#connecting) this.#start();
    }, delay);
    this.#timer.unref();
  }
}
