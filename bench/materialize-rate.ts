// How fast the engine's materializer advances schedules, on either store: N schedules `@every 1h` spread over
// the hour (each at its own millisecond, as the seconds-spread workload writes them), loaded at a fixed
// instant, then a clock one hour on so every one of them is due at once; the engine's own Materializer runs
// until every schedule has moved past its due occurrence. Prints schedules advanced per second and the wall
// time split by store operation (the rest is planning in JavaScript and the loop). At ten million spread
// schedules this is the rate the engine needs (2,778 a second) and the one it was bound by
// (bench/results/2026-11-26-ten-million.md). It only measures: its schema or file is made and dropped here.
//
//   PUNCTUAL_BENCH_PG_URL=postgres://... npx tsx bench/materialize-rate.ts --store postgres \
//     --schedules 200000 [--batch 200] [--loops 1]
//
// --batch: schedules claimed per step (the engine's default is 200); --parallel: claim-and-advance chains
// a step runs side by side at most (the engine's 2); --loops: materializers side by side (as instances
// would run them: their claims are disjoint).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createScheduler, sqliteStore, type Store } from '../packages/punctual/src/index.js';
import type { Clock } from '../packages/punctual/src/clock.js';
import { EventBus } from '../packages/punctual/src/events.js';
import { Materializer } from '../packages/punctual/src/engine/materializer.js';
import { SpecCache } from '../packages/punctual/src/engine/spec-cache.js';
import { postgresStore } from '../packages/punctual/src/store/postgres/postgres-store.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}
const PG_URL = process.env.PUNCTUAL_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench_materialize';
const STORE = arg('store', 'postgres');
const N = Number(arg('schedules', '200000'));
const BATCH = Number(arg('batch', '200'));
const LOOPS = Number(arg('loops', '1'));
const PARALLEL = Number(arg('parallel', '2'));
const HOUR = 3_600_000;
/** The instant the schedules are written at; every schedule's first occurrence is within the next hour. */
const T0 = Date.UTC(2030, 0, 7, 0, 0, 0);

/** A clock that stands still at `at` (settable) and never fires a timer: the loops run on nudges only. */
class StillClock implements Clock {
  constructor(public at: number) {}
  now(): number {
    return this.at;
  }
  setTimer(): () => void {
    return () => {};
  }
}

/** Wraps a store so every call of the listed operations adds its wall time to `spent`. */
function timed(store: Store, spent: Map<string, number>): Store {
  const ops = ['claimDueSchedules', 'advanceSchedules', 'overridesDue', 'nextScheduleAt'];
  return new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      // Bound to the store itself: its methods use private fields, which a proxy receiver lacks.
      if (typeof prop !== 'string' || !ops.includes(prop)) return (v as () => unknown).bind(target);
      return async (...args: unknown[]) => {
        const t = performance.now();
        try {
          return await (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } finally {
          spent.set(prop, (spent.get(prop) ?? 0) + performance.now() - t);
        }
      };
    },
  });
}

async function main(): Promise<void> {
  const clock = new StillClock(T0);
  let dir = '';
  let store: Store;
  if (STORE === 'sqlite') {
    dir = mkdtempSync(join(tmpdir(), 'punctual-materialize-'));
    store = sqliteStore({ path: join(dir, 'bench.db') });
  } else {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
    await c.end();
    store = postgresStore({ connectionString: PG_URL, schema: SCHEMA, listen: false });
  }
  const s = createScheduler({ store, clock });
  s.handle('bench', () => {});
  await s.migrate();
  const t0 = performance.now();
  for (let i = 0; i < N; i += 10_000) {
    const batch = [];
    for (let j = i; j < Math.min(N, i + 10_000); j++) {
      const phase = Math.floor((((j * 7919) % N) * HOUR) / N);
      batch.push({
        key: `rec-${j}`,
        spec: `@every ${HOUR}ms`,
        startAt: T0 + 1 + phase,
        target: { handler: 'bench' },
      });
    }
    const { totals } = await s.putBulk(batch);
    if (totals.refused > 0) throw new Error(`putBulk refused ${totals.refused}`);
  }
  const loadS = (performance.now() - t0) / 1000;

  // Every schedule due: an hour and a second on. The look-ahead (10 s) is left as the engine's default.
  clock.at = T0 + HOUR + 1_000;
  const spent = new Map<string, number>();
  const bus = new EventBus();
  const materializers = Array.from(
    { length: LOOPS },
    () =>
      new Materializer(
        timed(store, spent),
        clock,
        bus,
        new SpecCache(),
        {
          lookaheadMs: 10_000,
          misfireThresholdMs: 60_000,
          batchSize: BATCH,
          parallel: PARALLEL,
          maxRunsPerStep: 100,
          claimLeaseMs: 30_000,
          maxSleepMs: 60_000,
          minStepMs: 250,
          behindLagMs: 2_500,
          giveWayMs: 1_000,
          fullScanMs: 5_000,
        },
        () => {},
      ),
  );
  const t1 = performance.now();
  const cpu0 = process.cpuUsage();
  let failed: unknown;
  bus.on('error', (e) => (failed ??= e.error));
  // A loop's first step claims batch after batch until none is left due (the still clock never fires the
  // timer the loop arms after it, nor cuts the step short); a stop would cut it, so the loops are stopped
  // once every schedule has been advanced.
  let advanced = 0;
  const all = new Promise<void>((resolve) =>
    bus.on('materializer:advanced', () => {
      if (++advanced === N) resolve();
    }),
  );
  for (const m of materializers) m.loop.start();
  await Promise.race([all, new Promise<void>((resolve) => bus.on('error', () => resolve()))]);
  await Promise.all(materializers.map((m) => m.loop.stop()));
  const wallS = (performance.now() - t1) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (failed !== undefined) throw failed;
  const left = await store.nextScheduleAt();
  await s.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  else {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`);
    await c.end();
  }
  if (left !== null && left <= clock.at)
    throw new Error(`schedules still due after the run: next at ${left}`);
  const row = (k: string) => `${k} ${(((spent.get(k) ?? 0) / 1000 / wallS) * 100).toFixed(0)} %`;
  console.log(
    `| ${STORE} | ${N.toLocaleString('en')} | ${BATCH} | ${PARALLEL} | ${LOOPS} | ${loadS.toFixed(1)} | ${wallS.toFixed(1)} | ` +
      `${Math.round(N / wallS).toLocaleString('en')} | ${(((cpu.user + cpu.system) / 1000 / N) * 1000).toFixed(0)} µs | ` +
      `${['claimDueSchedules', 'overridesDue', 'advanceSchedules'].map(row).join(', ')} |`,
  );
}

await main();
