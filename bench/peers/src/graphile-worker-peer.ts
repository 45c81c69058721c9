// graphile-worker as a compared peer: jobs with `runAt` (addJob one by one, addJobs in bulk) and its
// crontab (parsed cron items given to run()). LISTEN/NOTIFY wakes workers for jobs due now; future jobs are
// found by polling, so pollInterval is lowered from its 2 s default; recorded in the settings.

import {
  makeWorkerUtils,
  parseCronItems,
  run,
  runMigrations,
  Logger,
  type Runner,
  type WorkerUtils,
} from 'graphile-worker';
import { dropSchema, schemaBytes, type OnRun, type Peer, type PeerContext } from './peer.js';

const SCHEMA = 'bench_peers_graphile';
const POLL_MS = 100;
const quiet = new Logger(() => (level, message) => {
  if (level === 'error') console.error('graphile-worker', message);
});

export class GraphileWorkerPeer implements Peer {
  readonly name = 'graphile-worker';
  readonly server = 'postgres' as const;
  readonly maxRecurring = 10_000_000;
  settings: Record<string, string | number | boolean> = {};
  private utils!: WorkerUtils;
  private runner: Runner | null = null;
  private ctx!: PeerContext;
  private cron: { id: string; cron: string }[] = [];

  async setup(ctx: PeerContext): Promise<void> {
    this.ctx = ctx;
    await dropSchema(ctx.pgUrl, SCHEMA);
    await runMigrations({ connectionString: ctx.pgUrl, schema: SCHEMA, logger: quiet });
    this.utils = await makeWorkerUtils({ connectionString: ctx.pgUrl, schema: SCHEMA, logger: quiet });
    this.settings = {
      schema: SCHEMA,
      concurrency: ctx.concurrency,
      pollInterval: POLL_MS,
      maxPoolSize: ctx.concurrency + 2,
      maxAttempts: 1,
      recurring: 'crontab items (parseCronItems) passed to run()',
    };
  }

  async enqueueOne(id: string, at: number): Promise<void> {
    await this.utils.addJob('bench', { id, at }, { runAt: new Date(at), maxAttempts: 1 });
  }

  async enqueueBulk(items: { id: string; at: number }[]): Promise<void> {
    await this.utils.addJobs(
      items.map((i) => ({
        identifier: 'bench',
        payload: { id: i.id, at: i.at },
        runAt: new Date(i.at),
        maxAttempts: 1,
      })),
    );
  }

  loadDue(items: { id: string; at: number }[]): Promise<void> {
    return this.enqueueBulk(items);
  }

  async scheduleRecurring(n: number, cronFor: (i: number) => string): Promise<void> {
    for (let i = 0; i < n; i++) this.cron.push({ id: `rec-${i}`, cron: cronFor(i) });
  }

  async startWorkers(concurrency: number, onRun: OnRun): Promise<void> {
    const parsed = parseCronItems(
      this.cron.map((c) => ({ task: 'rec', match: c.cron, identifier: c.id, payload: { id: c.id } })),
    );
    this.runner = await run(
      {
        connectionString: this.ctx.pgUrl,
        schema: SCHEMA,
        concurrency,
        pollInterval: POLL_MS,
        maxPoolSize: concurrency + 2,
        noHandleSignals: true,
        logger: quiet,
        taskList: {
          bench: async (payload) => {
            const p = payload as { id: string; at: number };
            onRun(p.id, p.at);
          },
          rec: async (payload) => {
            const p = payload as { id: string; _cron?: { ts: string } };
            onRun(p.id, p._cron ? Date.parse(p._cron.ts) : null);
          },
        },
      },
      undefined,
      parsed,
    );
  }

  storageBytes(): Promise<number> {
    return schemaBytes(this.ctx.pgUrl, SCHEMA);
  }

  async teardown(): Promise<void> {
    if (this.runner) await this.runner.stop();
    await this.utils.release();
    await dropSchema(this.ctx.pgUrl, SCHEMA);
  }
}
