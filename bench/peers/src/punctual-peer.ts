// Punctual itself as a compared peer, on SQLite (a fresh file; the default driver, or the one named) or
// PostgreSQL (a fresh schema).
// One-off runs are `@at` schedules put through the public API; the drain and workload-5 backlogs are written
// with store.insertRuns, as bench/workloads.ts does, because those workloads measure the worker side.
// Spread schedules (seconds-spread) are `@every <period>` schedules whose startAt is their phase, written with
// putBulk while the scheduler runs.

import { mkdtempSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createScheduler,
  DEFAULT_SQLITE_DRIVER,
  sqliteStore,
  type SqliteDriver,
  type Scheduler,
  type Json,
} from '../../../packages/punctual/src/index.js';
import type { RunInsert } from '../../../packages/punctual/src/store/store.js';
import { dropSchema, nextPhase, schemaBytes, type OnRun, type Peer, type PeerContext } from './peer.js';

const SCHEMA = 'bench_peers_punctual';

export class PunctualPeer implements Peer {
  readonly name: string;
  readonly server: 'postgres' | 'sqlite';
  readonly maxRecurring = 10_000_000;
  settings: Record<string, string | number | boolean> = {};
  private s!: Scheduler;
  private dir = '';
  private ctx!: PeerContext;
  private onRun: OnRun = () => {};

  constructor(
    readonly kind: 'sqlite' | 'postgres',
    readonly driver?: SqliteDriver,
  ) {
    const suffix = driver === undefined ? '' : driver === 'node:sqlite' ? '-node' : '-better';
    this.name = `punctual-${kind}${suffix}`;
    this.server = kind;
  }

  async setup(ctx: PeerContext): Promise<void> {
    this.ctx = ctx;
    let store;
    if (this.kind === 'sqlite') {
      this.dir = mkdtempSync(join(tmpdir(), 'punctual-peers-'));
      store = sqliteStore({ path: join(this.dir, 'bench.db'), driver: this.driver });
    } else {
      await dropSchema(ctx.pgUrl, SCHEMA);
      const { postgresStore } =
        await import('../../../packages/punctual/src/store/postgres/postgres-store.js');
      store = postgresStore({ connectionString: ctx.pgUrl, schema: SCHEMA });
    }
    const options = { concurrency: ctx.concurrency, notFiredGraceMs: 3_600_000 };
    this.s = createScheduler({ store, ...options });
    this.s.handle('bench', (c) => {
      const p = c.payload as { id?: string } | null;
      this.onRun(p?.id ?? c.run.scheduleKey, c.run.scheduledFor);
    });
    await this.s.migrate();
    this.settings = {
      store:
        this.kind === 'sqlite'
          ? `${this.driver ?? DEFAULT_SQLITE_DRIVER} file in os.tmpdir() (WAL)`
          : `PostgreSQL schema ${SCHEMA}`,
      concurrency: ctx.concurrency,
      notFiredGraceMs: options.notFiredGraceMs,
      lookaheadMs: 'default (10 s)',
      wakeups:
        this.kind === 'postgres'
          ? 'LISTEN/NOTIFY hint + timer to earliest due run'
          : 'timer to earliest due run',
      oneOff: '@at schedule per job via put/putMany',
      drainAndBacklogLoad: 'store.insertRuns (manual runs), as bench/workloads.ts',
      recurring: 'putMany of cron schedules, 1000 per call',
      spread: '@every <period> with startAt = its next phase instant, putBulk 10,000 per call',
    };
  }

  async enqueueOne(id: string, at: number): Promise<void> {
    await this.s.put({ key: id, spec: `@at ${new Date(at).toISOString()}`, target: { handler: 'bench' } });
  }

  async enqueueBulk(items: { id: string; at: number }[]): Promise<void> {
    await this.s.putMany(
      items.map((i) => ({
        key: i.id,
        spec: `@at ${new Date(i.at).toISOString()}`,
        target: { handler: 'bench' },
      })),
    );
  }

  async loadDue(items: { id: string; at: number }[]): Promise<void> {
    const { schedule } = await this.s.put({ key: 'backlog', spec: '@yearly', target: { handler: 'bench' } });
    const runs: RunInsert[] = items.map((i) => ({
      tenantId: 'default',
      scheduleId: schedule.id,
      scheduleKey: 'backlog',
      scheduleVersion: 1,
      kind: 'manual',
      unique: false,
      scheduledFor: i.at,
      dueAt: i.at,
      expiresAt: null,
      priority: 0,
      maxAttempts: 3,
      overlap: 'allow',
      payload: { id: i.id } as Json,
      state: 'scheduled',
      reason: null,
      details: null,
    }));
    await this.s.store.insertRuns(runs, Date.now());
  }

  async scheduleRecurring(n: number, cronFor: (i: number) => string): Promise<void> {
    for (let i = 0; i < n; i += 1000) {
      const batch = [];
      for (let j = i; j < Math.min(n, i + 1000); j++) {
        batch.push({ key: `rec-${j}`, spec: cronFor(j), target: { handler: 'bench' } });
      }
      await this.s.putMany(batch);
    }
  }

  /**
   * Written through putBulk (batches of 2,000, the next one validated while one is written), 10,000 inputs
   * per call; each call's inputs start at their moment after the instant the call was built.
   */
  async scheduleSpread(n: number, periodMs: number, phaseFor: (i: number) => number): Promise<void> {
    for (let i = 0; i < n; i += 10_000) {
      const now = Date.now();
      const batch = [];
      for (let j = i; j < Math.min(n, i + 10_000); j++) {
        // As if created at its phase: every period from that instant (startAt is the first occurrence).
        const startAt = nextPhase(periodMs, phaseFor(j), now);
        batch.push({ key: `rec-${j}`, spec: `@every ${periodMs}ms`, startAt, target: { handler: 'bench' } });
      }
      const { totals, items } = await this.s.putBulk(batch);
      if (totals.refused > 0) {
        const bad = items.find((it) => it.outcome === 'refused');
        throw new Error(`putBulk refused ${totals.refused}: ${JSON.stringify(bad?.error)}`);
      }
    }
  }

  async startWorkers(_concurrency: number, onRun: OnRun): Promise<void> {
    this.onRun = onRun;
    await this.s.start();
  }

  async storageBytes(): Promise<number> {
    if (this.kind === 'postgres') return schemaBytes(this.ctx.pgUrl, SCHEMA);
    return readdirSync(this.dir).reduce((sum, f) => sum + statSync(join(this.dir, f)).size, 0);
  }

  async teardown(): Promise<void> {
    await this.s.close();
    if (this.kind === 'sqlite') rmSync(this.dir, { recursive: true, force: true });
    else await dropSchema(this.ctx.pgUrl, SCHEMA);
  }
}
