// The Health page's arithmetic: reads gauges, counters and histograms (summed over labels) from the samples of
// GET /v1/metrics, and keeps a rolling window of scrapes in memory from which it derives rates and
// lateness quantiles over the last minute. Metric names are those of packages/server/src/metrics.ts. It parses no text:
// the service sends JSON.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export const METRIC = {
  due: 'punctual_runs_due',
  running: 'punctual_runs_running',
  oldestDue: 'punctual_oldest_due_run_age_seconds',
  finished: 'punctual_runs_finished_total',
  lateness: 'punctual_run_lateness_seconds',
  delivery: 'punctual_delivery_duration_seconds',
  reclaimed: 'punctual_leases_reclaimed_total',
  notFired: 'punctual_schedule_not_fired_total',
  schedules: 'punctual_schedules',
} as const;

/** A bucket bound as the service writes it: a number, or "+Inf". */
function parseLe(text: string): number {
  if (text === '+Inf' || text === 'Inf') return Infinity;
  return Number(text);
}

type LabelFilter = (labels: Record<string, string>) => boolean;

/** The sum of every sample named `name` whose labels pass `filter`; null when there is none. */
export function sumOf(
  samples: readonly Sample[],
  name: string,
  filter: LabelFilter = () => true,
): number | null {
  let total: number | null = null;
  for (const s of samples) if (s.name === name && filter(s.labels)) total = (total ?? 0) + s.value;
  return total;
}

export interface Bucket {
  le: number;
  count: number;
}

/** The cumulative buckets of histogram `name`, summed over its label sets, sorted by bound. */
export function histogramBuckets(
  samples: readonly Sample[],
  name: string,
  filter: LabelFilter = () => true,
): Bucket[] {
  const byLe = new Map<number, number>();
  for (const s of samples) {
    if (s.name !== `${name}_bucket` || !filter(s.labels) || s.labels.le === undefined) continue;
    const le = parseLe(s.labels.le);
    if (Number.isNaN(le)) continue;
    byLe.set(le, (byLe.get(le) ?? 0) + s.value);
  }
  return [...byLe.entries()].map(([le, count]) => ({ le, count })).sort((a, b) => a.le - b.le);
}

/** Bucket counts of `now` minus those of `before` (a counter reset reads as starting from zero). */
export function bucketDelta(now: readonly Bucket[], before: readonly Bucket[]): Bucket[] {
  const prev = new Map(before.map((b) => [b.le, b.count]));
  const reset = now.some((b) => b.count < (prev.get(b.le) ?? 0));
  return now.map((b) => ({ le: b.le, count: reset ? b.count : b.count - (prev.get(b.le) ?? 0) }));
}

/**
 * The q-quantile of cumulative buckets, as Prometheus' histogram_quantile computes it: linear interpolation
 * inside the bucket that holds the rank; the last finite bound when the rank falls in +Inf. Null when empty.
 */
export function histogramQuantile(q: number, buckets: readonly Bucket[]): number | null {
  if (buckets.length === 0) return null;
  const total = buckets[buckets.length - 1]?.count ?? 0;
  if (total <= 0) return null;
  const rank = q * total;
  let prevLe = 0;
  let prevCount = 0;
  for (const b of buckets) {
    if (b.count >= rank) {
      if (b.le === Infinity) return prevLe;
      const inBucket = b.count - prevCount;
      if (inBucket <= 0) return b.le;
      return prevLe + ((b.le - prevLe) * (rank - prevCount)) / inBucket;
    }
    prevLe = b.le;
    prevCount = b.count;
  }
  return prevLe;
}

/** What a scrape keeps: the few numbers the charts need. */
export interface Scrape {
  t: number;
  due: number | null;
  running: number | null;
  oldestDueSeconds: number | null;
  lateness: Bucket[];
  dead: number;
  failedAttempts: number;
  reclaimed: number;
  notFired: number;
}

export function scrapeOf(t: number, samples: readonly Sample[]): Scrape {
  return {
    t,
    due: sumOf(samples, METRIC.due),
    running: sumOf(samples, METRIC.running),
    oldestDueSeconds: sumOf(samples, METRIC.oldestDue),
    lateness: histogramBuckets(samples, METRIC.lateness),
    dead: sumOf(samples, METRIC.finished, (l) => l.state === 'dead') ?? 0,
    failedAttempts:
      sumOf(samples, `${METRIC.delivery}_count`, (l) => l.outcome === 'retry' || l.outcome === 'failed') ?? 0,
    reclaimed: sumOf(samples, METRIC.reclaimed) ?? 0,
    notFired: sumOf(samples, METRIC.notFired) ?? 0,
  };
}

/** One point of the Health charts. Rates are per minute, over the window before `t`. */
export interface HealthPoint {
  t: number;
  due: number | null;
  running: number | null;
  oldestDueSeconds: number | null;
  latenessP50: number | null;
  latenessP99: number | null;
  failedAttemptsPerMin: number | null;
  deadPerMin: number | null;
  reclaimedPerMin: number | null;
  notFiredPerMin: number | null;
  reclaimedTotal: number;
  notFiredTotal: number;
}

function rate(now: number, before: number, seconds: number): number {
  const d = now >= before ? now - before : now; // a restart resets counters
  return (d / seconds) * 60;
}

/**
 * A rolling window of scrapes held in memory (the page's lifetime only). `rateWindowMs` is how far back rates
 * and quantiles look; `keepMs` how much history the charts show.
 */
export class MetricsWindow {
  readonly #scrapes: Scrape[] = [];
  constructor(
    readonly keepMs = 30 * 60_000,
    readonly rateWindowMs = 60_000,
  ) {}

  push(scrape: Scrape): void {
    const last = this.#scrapes[this.#scrapes.length - 1];
    if (last && scrape.t <= last.t) return;
    this.#scrapes.push(scrape);
    const oldest = scrape.t - this.keepMs - this.rateWindowMs;
    while ((this.#scrapes[0]?.t ?? Infinity) < oldest) this.#scrapes.shift();
  }

  get size(): number {
    return this.#scrapes.length;
  }

  /** The scrape to compare `i` with: the latest at least rateWindowMs older, else the oldest one. */
  #base(i: number): Scrape | undefined {
    const cur = this.#scrapes[i] as Scrape;
    let base: Scrape | undefined;
    for (let j = i - 1; j >= 0; j--) {
      const s = this.#scrapes[j] as Scrape;
      base = s;
      if (cur.t - s.t >= this.rateWindowMs) break;
    }
    return base;
  }

  points(): HealthPoint[] {
    const from = (this.#scrapes[this.#scrapes.length - 1]?.t ?? 0) - this.keepMs;
    const out: HealthPoint[] = [];
    for (let i = 0; i < this.#scrapes.length; i++) {
      const cur = this.#scrapes[i] as Scrape;
      if (cur.t < from) continue;
      const base = this.#base(i);
      const seconds = base ? (cur.t - base.t) / 1000 : 0;
      const delta = base ? bucketDelta(cur.lateness, base.lateness) : [];
      out.push({
        t: cur.t,
        due: cur.due,
        running: cur.running,
        oldestDueSeconds: cur.oldestDueSeconds,
        latenessP50: histogramQuantile(0.5, delta),
        latenessP99: histogramQuantile(0.99, delta),
        failedAttemptsPerMin:
          base && seconds > 0 ? rate(cur.failedAttempts, base.failedAttempts, seconds) : null,
        deadPerMin: base && seconds > 0 ? rate(cur.dead, base.dead, seconds) : null,
        reclaimedPerMin: base && seconds > 0 ? rate(cur.reclaimed, base.reclaimed, seconds) : null,
        notFiredPerMin: base && seconds > 0 ? rate(cur.notFired, base.notFired, seconds) : null,
        reclaimedTotal: cur.reclaimed,
        notFiredTotal: cur.notFired,
      });
    }
    return out;
  }
}
