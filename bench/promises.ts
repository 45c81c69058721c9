// The promises at the edges, measured against the real clock on one PostgreSQL database with two engine
// instances (and an API-only process where the issue says so):
//   deadline   a deadline-bound one-off waiting behind a busy slot: is it delivered late, or expired?
//   abort      a manual cancel, from an API-only process: how long until the running handler's signal fires?
//   pickup     a one-off saved by an API-only process: how late does its handler start?
// Run alone:
//   PUNCTUAL_BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/promises.ts [deadline|abort|pickup]
// It measures; it asserts nothing.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createScheduler, type Scheduler } from '../packages/punctual/src/index.js';
import { postgresStore } from '../packages/punctual/src/store/postgres/postgres-store.js';

const URL = process.env.PUNCTUAL_BENCH_PG_URL ?? process.env.PUNCTUAL_TEST_PG_URL ?? '';

type Handler = Parameters<Scheduler['handle']>[1];

function instance(
  schema: string,
  handlers: Record<string, Handler>,
  o: { concurrency?: number; api?: boolean } = {},
) {
  const s = createScheduler({
    store: postgresStore({ connectionString: URL, schema }),
    concurrency: o.concurrency ?? 10,
    roles: o.api ? { materializer: false, worker: false } : undefined,
  });
  for (const [name, fn] of Object.entries(handlers)) s.handle(name, fn);
  return s;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Four one-offs due in 1 s with a 1 s deadline, saved while the only slot of the instance is busy 4 s. */
async function deadline(schema: string): Promise<string[]> {
  const started = new Map<string, number>();
  const handlers: Record<string, Handler> = {
    busy: () => sleep(4000),
    quick: (ctx) => {
      started.set(ctx.run.scheduleKey, Date.now());
    },
  };
  const a = instance(schema, handlers, { concurrency: 1 });
  await a.start();
  try {
    await a.trigger(
      (await a.put({ key: 'busy', spec: '@yearly', target: { handler: 'busy' } })).schedule.key,
    );
    await sleep(300);
    const due = new Map<string, number>();
    for (let i = 0; i < 4; i++) {
      const { schedule } = await a.put({
        key: `q${i}`,
        spec: '@in 1s',
        target: { handler: 'quick' },
        policies: { deadlineMs: 1000 },
      });
      due.set(schedule.key, schedule.nextFireAt!);
    }
    await sleep(7000);
    const out: string[] = [];
    for (const [key, at] of due) {
      const runs = (await a.listRuns({ scheduleKey: key })).items;
      const run = runs[0];
      const handlerLate = started.has(key) ? `${started.get(key)! - at} ms` : 'never';
      const recorded = run?.startedAt == null ? 'null' : `${run.startedAt - at} ms`;
      out.push(`${key}: ${run?.state}; handler started ${handlerLate} late; startedAt says ${recorded}`);
    }
    return out;
  } finally {
    await a.close();
  }
}

/** A manual cancel from an API-only process: time from the cancel call to the handler's abort signal. */
async function abort(schema: string): Promise<string[]> {
  let onStart: (() => void) | undefined;
  let aborted: ((at: number) => void) | undefined;
  const handlers: Record<string, Handler> = {
    long: (ctx) =>
      new Promise<void>((resolve) => {
        onStart?.();
        ctx.signal.addEventListener('abort', () => {
          aborted?.(Date.now());
          resolve();
        });
        setTimeout(resolve, 30_000);
      }),
  };
  const a = instance(schema, handlers);
  const b = instance(schema, handlers);
  const api = instance(schema, handlers, { api: true });
  await a.start();
  await b.start();
  await api.migrate();
  const out: string[] = [];
  try {
    await api.put({ key: 'long', spec: '@yearly', target: { handler: 'long' } });
    for (let i = 0; i < 3; i++) {
      const startedP = new Promise<void>((r) => (onStart = r));
      const abortedP = new Promise<number>((r) => (aborted = r));
      const run = await api.trigger('long');
      await startedP;
      await sleep(200 + 1500 * i); // cancel at different points of the lease renewal cycle
      const t0 = Date.now();
      await api.cancelRun(run.id);
      const at = await Promise.race([abortedP, sleep(20_000).then(() => NaN)]);
      out.push(
        `cancel ${i + 1}: handler aborted ${Number.isNaN(at) ? 'not within 20 s' : `after ${at - t0} ms`}`,
      );
    }
    return out;
  } finally {
    await api.close();
    await a.close();
    await b.close();
  }
}

/** One-offs saved by an API-only process while two instances run: lateness of their handler start. */
async function pickup(schema: string): Promise<string[]> {
  const started = new Map<string, number>();
  const handlers: Record<string, Handler> = {
    quick: (ctx) => {
      started.set(ctx.run.scheduleKey, Date.now());
    },
  };
  const a = instance(schema, handlers);
  const b = instance(schema, handlers);
  const api = instance(schema, handlers, { api: true });
  await a.start();
  await b.start();
  await api.migrate();
  await sleep(1000); // both materializers idle, asleep until their backstop
  const out: string[] = [];
  try {
    const due = new Map<string, number>();
    for (let i = 0; i < 3; i++) {
      const at = Date.now() + 1000;
      await api.put({
        key: `one${i}`,
        spec: `@at ${new Date(at).toISOString()}`,
        target: { handler: 'quick' },
      });
      due.set(`one${i}`, at);
      await sleep(3000);
    }
    for (let i = 0; i < 60 && started.size < due.size; i++) await sleep(500);
    for (const [key, at] of due)
      out.push(
        `${key}: handler started ${started.has(key) ? `${started.get(key)! - at} ms late` : 'never (30 s)'}`,
      );
    return out;
  } finally {
    await api.close();
    await a.close();
    await b.close();
  }
}

async function main(): Promise<void> {
  if (URL === '') throw new Error('set PUNCTUAL_BENCH_PG_URL (or PUNCTUAL_TEST_PG_URL)');
  const which = process.argv[2];
  const admin = new pg.Client({ connectionString: URL });
  await admin.connect();
  try {
    for (const [name, fn] of [
      ['deadline', deadline],
      ['abort', abort],
      ['pickup', pickup],
    ] as const) {
      if (which !== undefined && which !== name) continue;
      const schema = `bench_pr_${randomBytes(4).toString('hex')}`;
      try {
        const lines = await fn(schema);
        console.log(`${name}:`);
        for (const l of lines) console.log(`  ${l}`);
      } finally {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      }
    }
  } finally {
    await admin.end();
  }
}

await main();
