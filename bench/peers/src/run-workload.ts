// Runs ONE workload for ONE peer in this (fresh) process, on an emptied store, and prints one JSON line
// `RESULT {...}` for the driver. Lateness is measured from the benchmark's own due instants; every start is
// recorded (for the recurring workloads, against its schedule's last fire), so duplicates (an id or occurrence
// started twice) and misses (never started) are counted for every peer.
// Usage: tsx run-workload.ts <peer> <workload> '<sizes json>'

import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  makePeer,
  nextFire,
  nextPhase,
  postgresCpuMs,
  type OnRun,
  type Peer,
  type PeerName,
} from './peer.js';

export const WORKLOADS = [
  'enqueue-one',
  'enqueue-bulk',
  'drain',
  'precision',
  'fan-out',
  'backlog-precision',
  'many-schedules',
  'seconds-spread',
] as const;
export type WorkloadName = (typeof WORKLOADS)[number];

export interface Sizes {
  enqueueOne: number;
  enqueueBulk: number;
  drain: number;
  precisionRuns: number;
  precisionSpreadMs: number;
  fanOut: number;
  backlog: number;
  manySchedules: number;
  manyMinutes: number;
  /**
   * Minutes between the end of loading and the measured minutes of workloads 6 and 6b (absent: none): time
   * to catch up on fires that piled up while a large load shared the cores, so the minutes measured are the
   * steady state of N schedules and not the tail of the load.
   */
  settleMinutes?: number;
  /**
   * The period of workload 6b's schedules in ms (absent: an hour). A shorter one fires a smaller set as often
   * as a larger hourly one: a million schedules every 6 minutes fire 2,778 runs a second, as ten million
   * hourly ones do, so what depends on the rate and what on the number of schedules can be told apart.
   */
  spreadPeriodMs?: number;
  concurrency: number;
}

export interface WorkloadResult {
  peer: string;
  workload: WorkloadName;
  metrics: Record<string, number>;
  duplicates: number;
  misses: number;
  settings: Record<string, string | number | boolean>;
  skipped?: string;
}

const PG_URL = process.env.PUNCTUAL_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.PUNCTUAL_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Writes out what a bulk load left dirty on the PostgreSQL server (CHECKPOINT), whatever the peer, so that a
 * measurement after a load does not start inside the load's checkpoints.
 */
async function checkpoint(): Promise<void> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query('CHECKPOINT');
  } finally {
    await c.end();
  }
}

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

function latenessMetrics(values: number[]): Record<string, number> {
  return { p50: pct(values, 50), p95: pct(values, 95), p99: pct(values, 99), max: pct(values, 100) };
}

/** Records every start: id -> start times. */
class Starts {
  readonly byId = new Map<string, number[]>();
  total = 0;
  readonly on = (id: string): void => {
    const t = Date.now();
    this.total++;
    const list = this.byId.get(id);
    if (list) list.push(t);
    else this.byId.set(id, [t]);
  };
  duplicates(): number {
    let d = 0;
    for (const l of this.byId.values()) d += l.length - 1;
    return d;
  }
  async until(done: () => boolean, deadline: number): Promise<void> {
    while (!done() && Date.now() < deadline) await sleep(5);
  }
}

async function serverCpuMs(peer: Peer): Promise<number> {
  if (peer.server === 'postgres') return postgresCpuMs();
  if (peer.server === 'redis') {
    const { Redis } = await import('ioredis');
    const r = new Redis(REDIS_URL);
    const info = await r.info('cpu');
    await r.quit();
    const n = (k: string) => Number(new RegExp(`${k}:([\\d.]+)`).exec(info)?.[1] ?? 0);
    return (n('used_cpu_sys') + n('used_cpu_user')) * 1000;
  }
  return 0;
}

const LOOP_RESOLUTION_MS = 10;

/**
 * CPU of this process and of the server per run while `fn` runs, the RSS after it, and how long this
 * process's event loop stalled meanwhile (p99 and max of the timer delay, in ms): the peer's workers run in
 * this process, so a stall here (a GC pause, a long synchronous step) is lateness of the peer's own making.
 */
async function resources(peer: Peer, fn: () => Promise<number>): Promise<Record<string, number>> {
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();
  const cpu0 = process.cpuUsage();
  const db0 = await serverCpuMs(peer);
  const runs = await fn();
  const cpu = process.cpuUsage(cpu0);
  const db = (await serverCpuMs(peer)) - db0;
  loop.disable();
  return {
    workerCpuMsPerRun: +((cpu.user + cpu.system) / 1000 / Math.max(1, runs)).toFixed(4),
    serverCpuMsPerRun: +(db / Math.max(1, runs)).toFixed(4),
    rssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
    // The histogram holds whole intervals between the monitor's timer callbacks: the stall is beyond one.
    loopP99Ms: Math.max(0, Math.round(loop.percentile(99) / 1e6) - LOOP_RESOLUTION_MS),
    loopMaxMs: Math.max(0, Math.round(loop.max / 1e6) - LOOP_RESOLUTION_MS),
  };
}

function tooManySchedules(peer: Peer): string {
  const why = peer.maxRecurringReason ? ` (${peer.maxRecurringReason})` : '';
  return `adapter supports at most ${peer.maxRecurring} schedules${why}`;
}

/** Load time and rate of `n` rows (runs or schedules) loaded in `seconds`. */
function loadMetrics(n: number, seconds: number): Record<string, number> {
  return { loadSeconds: +seconds.toFixed(1), loadPerSecond: Math.round(n / Math.max(seconds, 1e-3)) };
}

function ids(prefix: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
}

async function bulkLoad(peer: Peer, items: { id: string; at: number }[], due = false): Promise<void> {
  for (let i = 0; i < items.length; i += 1000) {
    const chunk = items.slice(i, i + 1000);
    await (due ? peer.loadDue(chunk) : peer.enqueueBulk(chunk));
  }
}

async function precision(
  peer: Peer,
  sizes: Sizes,
  starts: Starts,
): Promise<Pick<WorkloadResult, 'metrics' | 'misses'>> {
  await peer.startWorkers(sizes.concurrency, starts.on);
  const first = Date.now() + 3000;
  const step = sizes.precisionSpreadMs / sizes.precisionRuns;
  const due = new Map<string, number>();
  const items = ids('p', sizes.precisionRuns).map((id, i) => ({ id, at: Math.round(first + i * step) }));
  for (const it of items) due.set(it.id, it.at);
  await bulkLoad(peer, items);
  if (Date.now() > first)
    console.error(`warning: loading the precision runs overran their first due instant`);
  await starts.until(() => starts.byId.size >= items.length, first + sizes.precisionSpreadMs + 15_000);
  const late: number[] = [];
  for (const [id, at] of due) {
    const s = starts.byId.get(id);
    if (s) late.push(s[0]! - at);
  }
  return { metrics: latenessMetrics(late), misses: items.length - late.length };
}

const HOUR = 3_600_000;

/**
 * seconds-spread: schedule i's moment in the hour, as if it had been created at an arbitrary instant: the
 * hour cut into `n` equal steps (to the millisecond), handed out in a scrambled order so that neither the
 * ids nor the load order follow the due order. A permutation when 7919 (a prime) does not divide n.
 */
export function spreadPhase(n: number, period = HOUR): (i: number) => number {
  const stride = n % 7919 === 0 ? 1 : 7919;
  return (i) => Math.floor((((i * stride) % n) * period) / n);
}

/**
 * Lateness of the fires of hourly schedules `rec-<i>` due at `phase(i)` into each hour, counted only for due
 * instants in [warm, end) once steadyState has set them (fires before, e.g. while loading, count as starts only).
 * Every fire is checked against the schedule's last one in a fixed array (a fire of the same due instant again
 * is a duplicate), not kept in a map: at ten million schedules a map of every fire grew to millions of entries,
 * and each of its rehashes stopped this process (and so the peer's workers in it) for half a second or more.
 */
interface FireWatch {
  window: { warm: number; end: number };
  /** Lateness of each (schedule, due instant) in the window, from the nearest due instant (early = negative). */
  late: Map<string, number>;
  /** Fires of a (schedule, due instant) that had fired already, anywhere in the run. */
  duplicates: number;
  onRun: OnRun;
}

function watchFires(n: number, phase: (i: number) => number, period: number): FireWatch {
  const window = { warm: Infinity, end: -Infinity };
  const late = new Map<string, number>();
  const lastDue = new Float64Array(n).fill(NaN);
  const watch: FireWatch = {
    window,
    late,
    duplicates: 0,
    onRun: (id) => {
      const t = Date.now();
      const i = Number(id.slice(4));
      const offset = phase(i);
      const due = Math.round((t - offset) / period) * period + offset;
      if (lastDue[i] === due) watch.duplicates++;
      lastDue[i] = due;
      if (due >= window.warm && due < window.end && !late.has(`${id}@${due}`))
        late.set(`${id}@${due}`, t - due);
    },
  };
  return watch;
}

/**
 * The steady state of hourly schedules `rec-<i>` due at `phase(i)` into each hour: lateness of every fire
 * due in the whole minutes [warm, end) (the first boundary at least 15 s after loading, plus settleMinutes,
 * so catch-up of fires missed while loading is over), CPU over the same minutes per fired run, storage and RSS. The workers
 * start here, unless `running` says they ran while the schedules were loaded (seconds-spread).
 */
async function steadyState(
  peer: Peer,
  sizes: Sizes,
  starts: Starts,
  loadSeconds: number,
  phase: (i: number) => number,
  running?: FireWatch,
  period = HOUR,
): Promise<Pick<WorkloadResult, 'metrics' | 'misses' | 'duplicates'>> {
  const n = sizes.manySchedules;
  await checkpoint();
  const warm = nextFire('* * * * *', Date.now() + 15_000 + (sizes.settleMinutes ?? 0) * 60_000);
  const end = warm + sizes.manyMinutes * 60_000;
  let expected = 0;
  for (let i = 0; i < n; i++) {
    for (let due = nextPhase(period, phase(i), warm - 1); due < end; due += period) expected++;
  }
  const watch = running ?? watchFires(n, phase, period);
  Object.assign(watch.window, { warm, end });
  const late = watch.late;
  if (running === undefined) await peer.startWorkers(sizes.concurrency, watch.onRun);
  await sleep(Math.max(0, warm - Date.now()));
  const res = await resources(peer, async () => {
    await sleep(Math.max(0, end - Date.now()));
    // Fires of the last minute still running past `end` get up to 30 s more.
    await starts.until(() => late.size >= expected, end + 30_000);
    return Math.max(1, late.size);
  });
  return {
    metrics: {
      ...latenessMetrics([...late.values()]),
      ...perMinuteP99(late, warm, sizes.manyMinutes),
      fired: late.size,
      ...loadMetrics(n, loadSeconds),
      storageMb: +((await peer.storageBytes()) / 2 ** 20).toFixed(1),
      ...res,
    },
    misses: Math.max(0, expected - late.size),
    duplicates: watch.duplicates,
  };
}

/**
 * The p99 of the fires due in each whole minute of the window (`p99Minute1` for [warm, warm + 1 min), ...): a
 * slow first boundary after a start tells a different story from a slow later one.
 */
function perMinuteP99(late: Map<string, number>, warm: number, minutes: number): Record<string, number> {
  const byMinute = Array.from({ length: minutes }, () => [] as number[]);
  for (const [key, ms] of late) {
    const due = Number(key.slice(key.lastIndexOf('@') + 1));
    byMinute[Math.floor((due - warm) / 60_000)]?.push(ms);
  }
  return Object.fromEntries(byMinute.map((values, m) => [`p99Minute${m + 1}`, pct(values, 99)]));
}

export async function runWorkload(
  name: PeerName,
  workload: WorkloadName,
  sizes: Sizes,
): Promise<WorkloadResult> {
  const peer = await makePeer(name);
  await peer.setup({ pgUrl: PG_URL, redisUrl: REDIS_URL, concurrency: sizes.concurrency });
  const starts = new Starts();
  let metrics: Record<string, number> = {};
  let misses = 0;
  /** Duplicates counted by a FireWatch (workloads 6 and 6b), whose fires Starts does not keep. */
  let watched = 0;
  let skipped: string | undefined;
  const DAY = 86_400_000;
  try {
    switch (workload) {
      case 'enqueue-one': {
        const base = Date.now() + DAY;
        const t0 = performance.now();
        for (let i = 0; i < sizes.enqueueOne; i++) await peer.enqueueOne(`e-${i}`, base + i * 1000);
        metrics = { perSecond: Math.round(sizes.enqueueOne / ((performance.now() - t0) / 1000)) };
        break;
      }
      case 'enqueue-bulk': {
        const base = Date.now() + DAY;
        const items = ids('e', sizes.enqueueBulk).map((id, i) => ({ id, at: base + i * 1000 }));
        const t0 = performance.now();
        await bulkLoad(peer, items);
        metrics = { perSecond: Math.round(sizes.enqueueBulk / ((performance.now() - t0) / 1000)) };
        break;
      }
      case 'drain': {
        const at = Date.now() - 1000;
        await bulkLoad(
          peer,
          ids('d', sizes.drain).map((id) => ({ id, at })),
          true,
        );
        let seconds = 0;
        const res = await resources(peer, async () => {
          const t0 = performance.now();
          await peer.startWorkers(sizes.concurrency, starts.on);
          await starts.until(() => starts.byId.size >= sizes.drain, Date.now() + 300_000);
          seconds = (performance.now() - t0) / 1000;
          return starts.total;
        });
        // Let late duplicates surface before counting.
        await sleep(500);
        metrics = { perSecond: Math.round(starts.byId.size / seconds), ...res };
        misses = sizes.drain - starts.byId.size;
        break;
      }
      case 'precision': {
        ({ metrics, misses } = await precision(peer, sizes, starts));
        break;
      }
      case 'backlog-precision': {
        const now = Date.now();
        const items = ids('b', sizes.backlog).map((id, i) => ({
          id,
          at: now + DAY + ((i * 7919) % (29 * DAY)),
        }));
        const t0 = performance.now();
        if (name.startsWith('punctual')) await bulkLoad(peer, items, true);
        else await bulkLoad(peer, items);
        const loadSeconds = (performance.now() - t0) / 1000;
        await checkpoint();
        ({ metrics, misses } = await precision(peer, sizes, starts));
        metrics = {
          ...metrics,
          ...loadMetrics(sizes.backlog, loadSeconds),
          storageMb: +((await peer.storageBytes()) / 2 ** 20).toFixed(1),
        };
        break;
      }
      case 'fan-out': {
        if (sizes.fanOut > peer.maxRecurring) {
          skipped = tooManySchedules(peer);
          break;
        }
        await peer.scheduleRecurring(sizes.fanOut, () => '* * * * *');
        // The first boundary at least 15 s away, so every peer has its schedules in place before it.
        const boundary = nextFire('* * * * *', Date.now() + 15_000);
        await peer.startWorkers(sizes.concurrency, starts.on);
        const firstAfter = () => {
          let n = 0;
          for (const l of starts.byId.values()) if (l.some((t) => t >= boundary - 500)) n++;
          return n;
        };
        await starts.until(() => firstAfter() >= sizes.fanOut, boundary + 55_000);
        const late: number[] = [];
        let dup = 0;
        for (const l of starts.byId.values()) {
          const after = l.filter((t) => t >= boundary - 500 && t < boundary + 55_000);
          if (after.length) late.push(after[0]! - boundary);
          dup += Math.max(0, after.length - 1);
        }
        metrics = latenessMetrics(late);
        misses = sizes.fanOut - late.length;
        const r = { peer: name, workload, metrics, duplicates: dup, misses, settings: peer.settings };
        return r;
      }
      case 'many-schedules': {
        const n = sizes.manySchedules;
        if (n > peer.maxRecurring) {
          skipped = tooManySchedules(peer);
          break;
        }
        const t0 = performance.now();
        await peer.scheduleRecurring(n, (i) => `${i % 60} * * * *`);
        const loadSeconds = (performance.now() - t0) / 1000;
        // Schedule i fires at minute i % 60 of every hour.
        ({
          metrics,
          misses,
          duplicates: watched,
        } = await steadyState(peer, sizes, starts, loadSeconds, (i) => (i % 60) * 60_000));
        break;
      }
      case 'seconds-spread': {
        const n = sizes.manySchedules;
        if (n > peer.maxRecurring) {
          skipped = tooManySchedules(peer);
          break;
        }
        if (!peer.scheduleSpread) {
          skipped = peer.spreadSkipReason ?? 'the adapter has no scheduleSpread';
          break;
        }
        const period = sizes.spreadPeriodMs ?? HOUR;
        const phase = spreadPhase(n, period);
        // As an event emitter's schedules arrive: the workers run while they are loaded, and each schedule's
        // first fire is its moment after the instant it was written, so fires start during the load.
        const watch = watchFires(n, phase, period);
        await peer.startWorkers(sizes.concurrency, watch.onRun);
        const t0 = performance.now();
        await peer.scheduleSpread(n, period, phase);
        const loadSeconds = (performance.now() - t0) / 1000;
        ({
          metrics,
          misses,
          duplicates: watched,
        } = await steadyState(peer, sizes, starts, loadSeconds, phase, watch, period));
        break;
      }
    }
  } finally {
    await peer.teardown();
  }
  const result: WorkloadResult = {
    peer: name,
    workload,
    metrics,
    duplicates: starts.duplicates() + watched,
    misses,
    settings: peer.settings,
  };
  if (skipped) result.skipped = skipped;
  return result;
}

const [peerArg, workloadArg, sizesArg] = process.argv.slice(2);
if (peerArg && workloadArg && sizesArg && process.argv[1]?.endsWith('run-workload.ts')) {
  const result = await runWorkload(
    peerArg as PeerName,
    workloadArg as WorkloadName,
    JSON.parse(sizesArg) as Sizes,
  );
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  process.exit(0);
}
