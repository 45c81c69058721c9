// pg-boss as a compared peer: one queue, `sendAfter` for one-offs, `insert` for bulk, `concurrency` work()
// subscriptions with the smallest polling interval it accepts (0.5 s). pg-boss 10 keeps one cron schedule
// per queue name, so n recurring schedules are n queues, each with its own worker (hence maxRecurring).

import PgBoss from 'pg-boss';
import { dropSchema, schemaBytes, type OnRun, type Peer, type PeerContext } from './peer.js';

const SCHEMA = 'bench_peers_pgboss';
const QUEUE = 'bench';
/** pg-boss 10 workers sleep the polling interval after every fetch, so throughput needs batches. */
const BATCH = 10;

export class PgBossPeer implements Peer {
  readonly name = 'pg-boss';
  readonly server = 'postgres' as const;
  readonly maxRecurring = 1000;
  readonly maxRecurringReason =
    'pg-boss 10 keeps one cron schedule per queue, and every queue is its own table partition with its own worker';
  settings: Record<string, string | number | boolean> = {};
  private boss!: PgBoss;
  private ctx!: PeerContext;
  private recurring: string[] = [];

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
    this.settings = {
      schema: SCHEMA,
      poolMax: options.max,
      cronMonitorIntervalSeconds: 1,
      cronWorkerIntervalSeconds: 1,
      pollingIntervalSeconds: 0.5,
      batchSize: BATCH,
      workers: `${ctx.concurrency} work() subscriptions`,
      recurring: 'one queue + schedule() + work() per schedule (pg-boss 10: one schedule per queue name)',
    };
  }

  async enqueueOne(id: string, at: number): Promise<void> {
    await this.boss.sendAfter(QUEUE, { id, at }, {}, new Date(at));
  }

  async enqueueBulk(items: { id: string; at: number }[]): Promise<void> {
    await this.boss.insert(
      items.map((i) => ({ name: QUEUE, data: { id: i.id, at: i.at }, startAfter: new Date(i.at) })),
    );
  }

  loadDue(items: { id: string; at: number }[]): Promise<void> {
    return this.enqueueBulk(items);
  }

  async scheduleRecurring(n: number, cronFor: (i: number) => string): Promise<void> {
    if (n > this.maxRecurring)
      throw new Error(`pg-boss adapter supports at most ${this.maxRecurring} schedules`);
    for (let i = 0; i < n; i++) {
      const name = `rec-${i}`;
      await this.boss.createQueue(name);
      await this.boss.schedule(name, cronFor(i), { id: name });
      this.recurring.push(name);
    }
  }

  async startWorkers(concurrency: number, onRun: OnRun): Promise<void> {
    const handler = async (jobs: PgBoss.Job<{ id: string; at?: number }>[]) => {
      for (const job of jobs) onRun(job.data.id, job.data.at ?? null);
    };
    const opts = { pollingIntervalSeconds: 0.5, batchSize: BATCH };
    for (let i = 0; i < concurrency; i++) await this.boss.work(QUEUE, opts, handler);
    for (const name of this.recurring) await this.boss.work(name, opts, handler);
  }

  storageBytes(): Promise<number> {
    return schemaBytes(this.ctx.pgUrl, SCHEMA);
  }

  async teardown(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true, timeout: 5000 });
    await dropSchema(this.ctx.pgUrl, SCHEMA);
  }
}
