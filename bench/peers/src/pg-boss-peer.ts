// pg-boss as a compared peer: one queue, `sendAfter` for one-offs, `insert` for bulk, one work() subscription
// per queue with `localConcurrency` and the smallest polling interval it accepts (0.5 s), fetching again at
// once while batches come back full. pg-boss 12 keys schedules within a queue, so n recurring schedules are
// n keyed schedule() calls on one queue.

import { PgBoss, type Job } from 'pg-boss';
import { dropSchema, schemaBytes, type OnRun, type Peer, type PeerContext } from './peer.js';

const SCHEMA = 'bench_peers_pgboss';
const QUEUE = 'bench';
const RECURRING_QUEUE = 'bench-recurring';
/** A worker sleeps the polling interval after a short fetch, so throughput needs batches. */
const BATCH = 10;
/** schedule() calls in flight while loading recurring schedules (the pool holds concurrency + 2). */
const IN_FLIGHT = 8;

export class PgBossPeer implements Peer {
  readonly name = 'pg-boss';
  readonly server = 'postgres' as const;
  readonly maxRecurring = 10_000_000;
  readonly spreadSkipReason =
    'not implemented: this adapter registers cron schedules only (minute precision)';
  settings: Record<string, string | number | boolean> = {};
  private boss!: PgBoss;
  private ctx!: PeerContext;
  private recurring = 0;

  async setup(ctx: PeerContext): Promise<void> {
    this.ctx = ctx;
    await dropSchema(ctx.pgUrl, SCHEMA);
    const options = {
      connectionString: ctx.pgUrl,
      schema: SCHEMA,
      max: ctx.concurrency + 2,
      cronMonitorIntervalSeconds: 1,
      cronWorkerIntervalSeconds: 1,
    };
    this.boss = new PgBoss(options);
    this.boss.on('error', (e: Error) => console.error('pg-boss error', e.message));
    await this.boss.start();
    await this.boss.createQueue(QUEUE);
    await this.boss.createQueue(RECURRING_QUEUE);
    this.settings = {
      schema: SCHEMA,
      poolMax: options.max,
      cronMonitorIntervalSeconds: 1,
      cronWorkerIntervalSeconds: 1,
      pollingIntervalSeconds: 0.5,
      batchSize: BATCH,
      burstWhenBatchFull: true,
      workers: `one work() per queue, localConcurrency ${ctx.concurrency}`,
      recurring: `schedule() with a key per schedule, all on one queue, ${IN_FLIGHT} calls in flight`,
    };
  }

  async enqueueOne(id: string, at: number): Promise<void> {
    await this.boss.sendAfter(QUEUE, { id, at }, {}, new Date(at));
  }

  async enqueueBulk(items: { id: string; at: number }[]): Promise<void> {
    await this.boss.insert(
      QUEUE,
      items.map((i) => ({ data: { id: i.id, at: i.at }, startAfter: new Date(i.at) })),
    );
  }

  loadDue(items: { id: string; at: number }[]): Promise<void> {
    return this.enqueueBulk(items);
  }

  async scheduleRecurring(n: number, cronFor: (i: number) => string): Promise<void> {
    // One schedule() per call; IN_FLIGHT at a time (each is a few statements on the pool).
    for (let i = 0; i < n; i += IN_FLIGHT) {
      const batch = [];
      for (let j = i; j < Math.min(n, i + IN_FLIGHT); j++) {
        const key = `rec-${j}`;
        batch.push(this.boss.schedule(RECURRING_QUEUE, cronFor(j), { id: key }, { key }));
      }
      await Promise.all(batch);
    }
    this.recurring = n;
  }

  async startWorkers(concurrency: number, onRun: OnRun): Promise<void> {
    const handler = async (jobs: Job<{ id: string; at?: number }>[]) => {
      for (const job of jobs) onRun(job.data.id, job.data.at ?? null);
    };
    const opts = {
      pollingIntervalSeconds: 0.5,
      batchSize: BATCH,
      burstWhenBatchFull: true,
      localConcurrency: concurrency,
    };
    await this.boss.work(QUEUE, opts, handler);
    if (this.recurring > 0) await this.boss.work(RECURRING_QUEUE, opts, handler);
  }

  storageBytes(): Promise<number> {
    return schemaBytes(this.ctx.pgUrl, SCHEMA);
  }

  async teardown(): Promise<void> {
    await this.boss.stop({ graceful: false, timeout: 5000 });
    await dropSchema(this.ctx.pgUrl, SCHEMA);
  }
}
