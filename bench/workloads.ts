// The benchmark workloads, each on a fresh store: enqueue one-offs (one by one and in bulk), drain due runs
// with a no-op handler, and firing lateness with a large backlog pending. Store-agnostic: the caller passes a
// factory, so the same workloads run on SQLite and PostgreSQL.

import { createScheduler, type Scheduler, type Store } from '../packages/punctual/src/index.js';
import type { ClaimedRun, RunInsert, Settlement } from '../packages/punctual/src/store/store.js';
import { summary } from './stats.js';

/**
 * A fresh store for one workload. `quiesce`, when given, lets the database write out a bulk load (a
 * PostgreSQL CHECKPOINT) so that a measurement does not start inside the load's checkpoints.
 */
export type StoreFactory = () => Promise<{
  store: Store;
  cleanup: () => Promise<void>;
  quiesce?: () => Promise<void>;
}>;

async function withScheduler<T>(
  make: StoreFactory,
  fn: (s: Scheduler, quiesce: () => Promise<void>) => Promise<T>,
  concurrency = 10,
): Promise<T> {
  const { store, cleanup, quiesce = async () => {} } = await make();
  const s = createScheduler({ store, concurrency, notFiredGraceMs: 3_600_000 });
  s.handle('noop', () => {});
  try {
    await s.migrate();
    return await fn(s, quiesce);
  } finally {
    await s.close();
    await cleanup();
  }
}

export async function enqueueOneByOne(make: StoreFactory, n: number): Promise<{ perSecond: number }> {
  return withScheduler(make, async (s) => {
    const base = Date.now() + 86_400_000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      await s.put({
        key: `one-${i}`,
        spec: `@at ${new Date(base + i * 1000).toISOString()}`,
        target: { handler: 'noop' },
      });
    }
    return { perSecond: Math.round(n / ((performance.now() - t0) / 1000)) };
  });
}

export async function enqueueBulk(
  make: StoreFactory,
  n: number,
  batch = 1000,
): Promise<{ perSecond: number }> {
  return withScheduler(make, async (s) => {
    const base = Date.now() + 86_400_000;
    const t0 = performance.now();
    for (let i = 0; i < n; i += batch) {
      const inputs = [];
      for (let j = i; j < Math.min(n, i + batch); j++) {
        inputs.push({
          key: `bulk-${j}`,
          spec: `@at ${new Date(base + j * 1000).toISOString()}`,
          target: { handler: 'noop' },
        });
      }
      await s.putMany(inputs);
    }
    return { perSecond: Math.round(n / ((performance.now() - t0) / 1000)) };
  });
}

export async function backlog(
  s: Scheduler,
  scheduleId: string,
  n: number,
  due: (i: number) => number,
  kind: 'manual' | 'scheduled',
): Promise<void> {
  const batch = 10_000;
  for (let i = 0; i < n; i += batch) {
    const runs: RunInsert[] = [];
    for (let j = i; j < Math.min(n, i + batch); j++) {
      const at = due(j);
      runs.push({
        tenantId: 'default',
        scheduleId,
        scheduleKey: 'backlog',
        scheduleVersion: 1,
        kind,
        unique: kind !== 'manual',
        scheduledFor: at,
        dueAt: at,
        expiresAt: null,
        priority: 0,
        maxAttempts: 3,
        overlap: 'allow',
        payload: null,
        state: 'scheduled',
        reason: null,
        details: null,
      });
    }
    await s.store.insertRuns(runs, Date.now());
  }
}

/** Successful settlements of claimed runs, each attempt by `worker` from `startedAt` to `finishedAt`. */
export function succeededSettlements(
  claimed: ClaimedRun[],
  worker: string,
  startedAt: number,
  finishedAt: number,
): Settlement[] {
  return claimed.map((c) => ({
    runId: c.run.id,
    token: c.token,
    outcome: { state: 'succeeded', result: null },
    attempt: {
      runId: c.run.id,
      attempt: c.run.attempt,
      workerId: worker,
      startedAt,
      finishedAt,
      outcome: 'succeeded',
      error: null,
      result: null,
    },
    run: c.run,
  }));
}

export async function drain(make: StoreFactory, n: number, concurrency = 10): Promise<{ perSecond: number }> {
  return withScheduler(
    make,
    async (s) => {
      const { schedule } = await s.put({ key: 'backlog', spec: '@yearly', target: { handler: 'noop' } });
      const now = Date.now();
      await backlog(s, schedule.id, n, () => now - 1000, 'manual');
      let done = 0;
      const finished = new Promise<void>((resolve) => {
        s.on('run:succeeded', () => {
          if (++done === n) resolve();
        });
      });
      const t0 = performance.now();
      await s.start();
      await finished;
      return { perSecond: Math.round(n / ((performance.now() - t0) / 1000)) };
    },
    concurrency,
  );
}

export async function firingLateness(
  make: StoreFactory,
  opts: { runs: number; spreadMs: number; pending: number },
): Promise<{ p50: number; p99: number; max: number; n: number; missed: number }> {
  return withScheduler(make, async (s, quiesce) => {
    const { schedule } = await s.put({ key: 'backlog', spec: '@yearly', target: { handler: 'noop' } });
    const now = Date.now();
    const DAY = 86_400_000;
    await backlog(s, schedule.id, opts.pending, (i) => now + DAY + ((i * 7919) % (29 * DAY)), 'scheduled');
    await quiesce();
    const lateness: number[] = [];
    s.handle('measure', (ctx) => {
      lateness.push(Date.now() - ctx.run.scheduledFor);
    });
    await s.start();
    const start = Date.now() + 2000;
    const step = opts.spreadMs / opts.runs;
    await s.putMany(
      Array.from({ length: opts.runs }, (_, i) => ({
        key: `fire-${i}`,
        spec: `@at ${new Date(Math.round(start + i * step)).toISOString()}`,
        target: { handler: 'measure' },
      })),
    );
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (lateness.length >= opts.runs || Date.now() > start + opts.spreadMs + 10_000) {
          clearInterval(check);
          resolve();
        }
      }, 100);
    });
    return { ...summary(lateness), missed: opts.runs - lateness.length };
  });
}

/**
 * Recurring fan-out: `n` schedules on the same minute boundary (`* * * * *`); lateness of each schedule's start
 * at the first boundary at least `leadMs` after the scheduler started, so every schedule exists and the
 * materializer has its whole look-ahead before it. (Creating the schedules may straddle an earlier boundary;
 * starts at earlier boundaries are not measured.)
 */
export async function boundaryFanOut(
  make: StoreFactory,
  n: number,
  leadMs = 15_000,
  concurrency = 10,
): Promise<{ p50: number; p99: number; max: number; n: number; missed: number }> {
  return withScheduler(
    make,
    async (s) => {
      const first = new Map<string, number>();
      let boundary = Infinity;
      s.handle('boundary', (ctx) => {
        if (ctx.run.scheduledFor === boundary && !first.has(ctx.run.scheduleKey))
          first.set(ctx.run.scheduleKey, Date.now() - ctx.run.scheduledFor);
      });
      for (let i = 0; i < n; i += 1000) {
        await s.putMany(
          Array.from({ length: Math.min(1000, n - i) }, (_, j) => ({
            key: `minute-${i + j}`,
            spec: '* * * * *',
            target: { handler: 'boundary' },
          })),
        );
      }
      boundary = Math.ceil((Date.now() + leadMs) / 60_000) * 60_000;
      await s.start();
      const deadline = boundary + 60_000;
      await new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if (first.size >= n || Date.now() > deadline) {
            clearInterval(check);
            resolve();
          }
        }, 100);
      });
      return { ...summary([...first.values()]), missed: n - first.size };
    },
    concurrency,
  );
}
