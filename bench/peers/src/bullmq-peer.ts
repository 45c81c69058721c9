// BullMQ as a compared peer, on Redis or on its PostgreSQL backend (createPostgresBackend, same package):
// delayed jobs (add / addBulk with `delay`) and job schedulers (upsertJobScheduler with a cron pattern, or
// `every` a period from a start date for the seconds-spread workload).
// Completed jobs are removed (removeOnComplete), as its documentation advises for throughput.

import { Queue, Worker, createPostgresBackend, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { dropSchema, nextPhase, schemaBytes, type OnRun, type Peer, type PeerContext } from './peer.js';

const SCHEMA = 'bench_peers_bullmq';
const PREFIX = 'benchpeers';
const QUEUE = 'bench';

/* eslint-disable @typescript-eslint/no-explicit-any -- the two backends type the classes differently */
export class BullMqPeer implements Peer {
  readonly name: string;
  readonly server: 'redis' | 'postgres';
  readonly maxRecurring = 10_000_000;
  settings: Record<string, string | number | boolean> = {};
  private queue!: any;
  private worker: any = null;
  private ctx!: PeerContext;
  private redis: Redis | null = null;
  private baseMemory = 0;
  private readonly jobOpts: JobsOptions = { removeOnComplete: true, removeOnFail: true, attempts: 1 };

  constructor(readonly kind: 'redis' | 'postgres') {
    this.name = `bullmq-${kind}`;
    this.server = kind;
  }

  private connection(): object {
    if (this.kind === 'postgres')
      return { connection: { connectionString: this.ctx.pgUrl, schema: SCHEMA, migrate: true } };
    const u = new URL(this.ctx.redisUrl);
    return {
      connection: { host: u.hostname, port: Number(u.port || 6379), maxRetriesPerRequest: null },
      prefix: PREFIX,
    };
  }

  async setup(ctx: PeerContext): Promise<void> {
    this.ctx = ctx;
    if (this.kind === 'redis') {
      this.redis = new Redis(ctx.redisUrl, { maxRetriesPerRequest: null });
      await this.clearPrefix();
      this.baseMemory = await this.usedMemory();
    } else {
      await dropSchema(ctx.pgUrl, SCHEMA);
    }
    this.queue =
      this.kind === 'redis'
        ? new Queue(QUEUE, this.connection() as any)
        : new (Queue as any)(QUEUE, this.connection(), createPostgresBackend);
    await this.queue.waitUntilReady();
    this.settings = {
      backend:
        this.kind === 'redis'
          ? `Redis, key prefix ${PREFIX}`
          : `PostgreSQL (createPostgresBackend), schema ${SCHEMA}`,
      concurrency: ctx.concurrency,
      removeOnComplete: true,
      attempts: 1,
      oneOff: 'add/addBulk with delay = at - now, jobId = id',
      recurring: 'upsertJobScheduler(id, { pattern }), 100 calls in flight',
      spread: 'upsertJobScheduler(id, { every: period, startDate: first moment }), 100 calls in flight',
      storage: this.kind === 'redis' ? 'growth of Redis used_memory since setup' : 'schema size',
    };
  }

  async enqueueOne(id: string, at: number): Promise<void> {
    await this.queue.add(
      'j',
      { id, at },
      { ...this.jobOpts, jobId: id, delay: Math.max(0, at - Date.now()) },
    );
  }

  async enqueueBulk(items: { id: string; at: number }[]): Promise<void> {
    const now = Date.now();
    await this.queue.addBulk(
      items.map((i) => ({
        name: 'j',
        data: { id: i.id, at: i.at },
        opts: { ...this.jobOpts, jobId: i.id, delay: Math.max(0, i.at - now) },
      })),
    );
  }

  loadDue(items: { id: string; at: number }[]): Promise<void> {
    return this.enqueueBulk(items);
  }

  async scheduleRecurring(n: number, cronFor: (i: number) => string): Promise<void> {
    for (let i = 0; i < n; i += 100) {
      const batch = [];
      for (let j = i; j < Math.min(n, i + 100); j++) {
        batch.push(
          this.queue.upsertJobScheduler(
            `rec-${j}`,
            { pattern: cronFor(j) },
            { name: 'rec', data: { id: `rec-${j}` }, opts: this.jobOpts },
          ),
        );
      }
      await Promise.all(batch);
    }
  }

  /** Job schedulers repeating every `periodMs` from their first moment after the instant each batch is written. */
  async scheduleSpread(n: number, periodMs: number, phaseFor: (i: number) => number): Promise<void> {
    for (let i = 0; i < n; i += 100) {
      const now = Date.now();
      const batch = [];
      for (let j = i; j < Math.min(n, i + 100); j++) {
        const startDate = nextPhase(periodMs, phaseFor(j), now);
        batch.push(
          this.queue.upsertJobScheduler(
            `rec-${j}`,
            { every: periodMs, startDate },
            { name: 'rec', data: { id: `rec-${j}` }, opts: this.jobOpts },
          ),
        );
      }
      await Promise.all(batch);
    }
  }

  async startWorkers(concurrency: number, onRun: OnRun): Promise<void> {
    const processor = async (job: { data: { id: string; at?: number } }) => {
      onRun(job.data.id, job.data.at ?? null);
    };
    const opts = { ...this.connection(), concurrency };
    this.worker =
      this.kind === 'redis'
        ? new Worker(QUEUE, processor, opts as any)
        : new (Worker as any)(QUEUE, processor, opts, createPostgresBackend);
    this.worker.on('error', (e: Error) => console.error('bullmq worker error', e.message));
    await this.worker.waitUntilReady();
  }

  /** Deletes every key under the prefix (at most 10^8 keys: bounded scan). */
  private async clearPrefix(): Promise<void> {
    let cursor = '0';
    for (let i = 0; i < 100_000; i++) {
      const [next, keys] = await this.redis!.scan(cursor, 'MATCH', `${PREFIX}:*`, 'COUNT', 1000);
      if (keys.length) await this.redis!.unlink(...keys);
      cursor = next;
      if (cursor === '0') break;
    }
  }

  private async usedMemory(): Promise<number> {
    const info = await this.redis!.info('memory');
    return Number(/used_memory:(\d+)/.exec(info)?.[1] ?? 0);
  }

  /** Redis: growth of used_memory since setup (the server may hold other keys). */
  async storageBytes(): Promise<number> {
    if (this.kind === 'postgres') return schemaBytes(this.ctx.pgUrl, SCHEMA);
    return Math.max(0, (await this.usedMemory()) - this.baseMemory);
  }

  async teardown(): Promise<void> {
    if (this.worker) await this.worker.close(true);
    await this.queue.close();
    if (this.kind === 'postgres') await dropSchema(this.ctx.pgUrl, SCHEMA);
    else {
      await this.clearPrefix();
      await this.redis?.quit();
    }
  }
}
