// graphile-worker as a compared peer: jobs with `runAt` (addJob one by one, addJobs in bulk) and its
// crontab (parsed cron items given to run()). LISTEN/NOTIFY wakes workers for jobs due now; future jobs are
// found by polling, so pollInterval is lowered from its 2 s default; recorded in the settings.

import {
  makeWorkerUtils,
  parseCronItems,
  run,
  runMigrations,
  Logger,
  type ParsedCronItem,
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
  readonly spreadSkipReason = 'not implemented: crontab items have minute precision';
  settings: Record<string, string | number | boolean> = {};
  private utils!: WorkerUtils;
  private runner: Runner | null = null;
  private ctx!: PeerContext;
  private cron: ParsedCronItem[] = [];

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
      recurring:
        'crontab items (parseCronItems, counted as the load) passed to run(), which registers them at start',
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

  /** The crontab is configuration held by the runner, not stored rows: loading it is parsing it. */
  async scheduleRecurring(n: number, cronFor: (i: number) => string): Promise<void> {
    const items = [];
    for (let i = 0; i < n; i++)
      items.push({ task: 'rec', match: cronFor(i), identifier: `rec-${i}`, payload: { id: `rec-${i}` } });
    this.cron = parseCronItems(items);
  }

  async startWorkers(concurrency: number, onRun: OnRun): Promise<void> {
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
      this.cron,
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
