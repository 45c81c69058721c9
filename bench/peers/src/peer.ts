// The one small interface every compared peer implements, and the shared connection settings.
// Adapters live next to this file (one per peer); run-workload.ts drives them in a fresh process.
// Ids are the benchmark's own, carried in each job's payload, so duplicates and misses are counted alike.

import { readdirSync, readFileSync } from 'node:fs';

/** Called synchronously when a job/run starts; `scheduledFor` is null when the peer does not expose it. */
export type OnRun = (id: string, scheduledFor: number | null) => void;

export interface PeerContext {
  pgUrl: string;
  redisUrl: string;
  /** Concurrency of the worker side (jobs in flight at once in this process). */
  concurrency: number;
}

export interface Peer {
  readonly name: string;
  /** Settings as configured, written into the results. */
  readonly settings: Record<string, string | number | boolean>;
  /** Which server holds the data (for database CPU and size). */
  readonly server: 'postgres' | 'redis' | 'sqlite';
  /** Largest number of recurring schedules the adapter can register (see its settings for why). */
  readonly maxRecurring: number;
  /** Why maxRecurring is what it is (shown when a workload is skipped for it). */
  readonly maxRecurringReason?: string;
  /** Empties this peer's schema/database/key prefix and prepares it. */
  setup(ctx: PeerContext): Promise<void>;
  enqueueOne(id: string, at: number): Promise<void>;
  /** At most 1000 items per call. */
  enqueueBulk(items: { id: string; at: number }[]): Promise<void>;
  /** Loads runs that are already due (drain workload); defaults to the bulk path in most adapters. */
  loadDue(items: { id: string; at: number }[]): Promise<void>;
  /** Registers `n` recurring schedules with ids `rec-<i>`; called before startWorkers. */
  scheduleRecurring(n: number, cronFor: (i: number) => string): Promise<void>;
  /**
   * Registers `n` schedules `rec-<i>` repeating every `periodMs`, the i-th at `phaseFor(i)` ms into the
   * period (it fires at k * periodMs + phase, as a schedule created at that moment of the period repeats),
   * the first time after the instant it is written; called after startWorkers, as an event emitter's
   * schedules arrive while the scheduler runs. Absent: the adapter skips the `seconds-spread` workload (`spreadSkipReason`).
   */
  scheduleSpread?(n: number, periodMs: number, phaseFor: (i: number) => number): Promise<void>;
  /** Why the adapter has no scheduleSpread (shown when the workload is skipped). */
  readonly spreadSkipReason?: string;
  startWorkers(concurrency: number, onRun: OnRun): Promise<void>;
  /** Bytes used by this peer's data on its server. */
  storageBytes(): Promise<number>;
  teardown(): Promise<void>;
}

export const PEER_NAMES = [
  'punctual-sqlite',
  'punctual-sqlite-node',
  'punctual-sqlite-better',
  'punctual-postgres',
  'raw-sql',
  'pg-boss',
  'graphile-worker',
  'bullmq-redis',
  'bullmq-postgres',
] as const;
export type PeerName = (typeof PEER_NAMES)[number];

export async function makePeer(name: PeerName): Promise<Peer> {
  switch (name) {
    case 'punctual-sqlite':
      return new (await import('./punctual-peer.js')).PunctualPeer('sqlite');
    case 'punctual-sqlite-node':
      return new (await import('./punctual-peer.js')).PunctualPeer('sqlite', 'node:sqlite');
    case 'punctual-sqlite-better':
      return new (await import('./punctual-peer.js')).PunctualPeer('sqlite', 'better-sqlite3');
    case 'punctual-postgres':
      return new (await import('./punctual-peer.js')).PunctualPeer('postgres');
    case 'raw-sql':
      return new (await import('./raw-sql-peer.js')).RawSqlPeer();
    case 'pg-boss':
      return new (await import('./pg-boss-peer.js')).PgBossPeer();
    case 'graphile-worker':
      return new (await import('./graphile-worker-peer.js')).GraphileWorkerPeer();
    case 'bullmq-redis':
      return new (await import('./bullmq-peer.js')).BullMqPeer('redis');
    case 'bullmq-postgres':
      return new (await import('./bullmq-peer.js')).BullMqPeer('postgres');
  }
}

/** Minute-of-hour cron `M * * * *` or every minute `* * * * *`: the period in ms (used by the raw-SQL baseline). */
export function cronPeriod(cron: string): { periodMs: number; offsetMs: number } {
  const [minute, ...rest] = cron.trim().split(/\s+/);
  if (rest.join(' ') !== '* * * *') throw new Error(`unsupported cron for the baseline: ${cron}`);
  if (minute === '*') return { periodMs: 60_000, offsetMs: 0 };
  return { periodMs: 3_600_000, offsetMs: Number(minute) * 60_000 };
}

/** The first instant k * periodMs + phaseMs strictly after `after`. */
export function nextPhase(periodMs: number, phaseMs: number, after: number): number {
  return Math.floor((after - phaseMs) / periodMs) * periodMs + periodMs + phaseMs;
}

export function nextFire(cron: string, after: number): number {
  const { periodMs, offsetMs } = cronPeriod(cron);
  return Math.floor((after - offsetMs) / periodMs) * periodMs + periodMs + offsetMs;
}

/** CPU time (ms) of all PostgreSQL server processes, including reaped backends (postmaster's cutime). */
export function postgresCpuMs(): number {
  const tick = 100;
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (comm !== 'postgres' && !comm.startsWith('postgres')) continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields after comm: state(0) … utime(11) stime(12) cutime(13) cstime(14)
      total += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch {
      // process exited meanwhile
    }
  }
  return (total * 1000) / tick;
}

export async function dropSchema(pgUrl: string, schema: string): Promise<void> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await c.end();
  }
}

export async function schemaBytes(pgUrl: string, schema: string): Promise<number> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ b: string | null }>(
      `SELECT sum(pg_total_relation_size(c.oid))::text AS b FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'm')`,
      [schema],
    );
    return Number(rows[0]?.b ?? 0);
  } finally {
    await c.end();
  }
}
