// The Health page's arithmetic: sums and buckets of the samples of GET /v1/metrics, histogram quantiles as
// Prometheus computes them, and the rolling window's rates and last-minute lateness, across a restart too.
import { describe, expect, it } from 'vitest';
import {
  bucketDelta,
  histogramBuckets,
  histogramQuantile,
  MetricsWindow,
  scrapeOf,
  sumOf,
  type Sample,
} from '../src/lib/metrics-window.ts';

const sample = (name: string, value: number, labels: Record<string, string> = {}): Sample => ({
  name,
  labels,
  value,
});

// As GET /v1/metrics sends them: tenant labels summed away, `le` as text.
const SAMPLES: Sample[] = [
  sample('punctual_runs_due', 7),
  sample('punctual_runs_running', 2),
  sample('punctual_runs_finished_total', 40, { state: 'succeeded', target: 'webhook' }),
  sample('punctual_runs_finished_total', 3, { state: 'dead', target: 'webhook' }),
  sample('punctual_runs_finished_total', 1, { state: 'dead', target: 'handler' }),
  sample('punctual_delivery_duration_seconds_count', 5, { target: 'webhook', outcome: 'retry' }),
  sample('punctual_delivery_duration_seconds_count', 3, { target: 'webhook', outcome: 'failed' }),
  sample('punctual_delivery_duration_seconds_count', 40, { target: 'webhook', outcome: 'succeeded' }),
  sample('punctual_run_lateness_seconds_bucket', 50, { le: '0.01', target: 'webhook' }),
  sample('punctual_run_lateness_seconds_bucket', 90, { le: '0.1', target: 'webhook' }),
  sample('punctual_run_lateness_seconds_bucket', 99, { le: '1', target: 'webhook' }),
  sample('punctual_run_lateness_seconds_bucket', 100, { le: '+Inf', target: 'webhook' }),
  sample('punctual_run_lateness_seconds_bucket', 0, { le: '0.01', target: 'handler' }),
  sample('punctual_run_lateness_seconds_bucket', 0, { le: '0.1', target: 'handler' }),
  sample('punctual_run_lateness_seconds_bucket', 0, { le: '1', target: 'handler' }),
  sample('punctual_run_lateness_seconds_bucket', 0, { le: '+Inf', target: 'handler' }),
  sample('punctual_run_lateness_seconds_bucket', 5, { le: 'bogus', target: 'handler' }),
  sample('punctual_leases_reclaimed_total', 1),
  sample('punctual_schedule_not_fired_total', 2),
];

describe('sumOf and histogramBuckets', () => {
  it('sums samples over their labels', () => {
    expect(sumOf(SAMPLES, 'punctual_runs_due')).toBe(7);
    expect(sumOf(SAMPLES, 'punctual_runs_finished_total', (l) => l.state === 'dead')).toBe(4);
    expect(sumOf(SAMPLES, 'absent')).toBeNull();
  });

  it('sums histogram buckets over label sets, skipping a bound that is not a number', () => {
    const b = histogramBuckets(SAMPLES, 'punctual_run_lateness_seconds');
    expect(b).toEqual([
      { le: 0.01, count: 50 },
      { le: 0.1, count: 90 },
      { le: 1, count: 99 },
      { le: Infinity, count: 100 },
    ]);
  });
});

describe('histogramQuantile', () => {
  const b = [
    { le: 0.01, count: 50 },
    { le: 0.1, count: 90 },
    { le: 1, count: 99 },
    { le: Infinity, count: 100 },
  ];
  it('interpolates inside the bucket holding the rank', () => {
    expect(histogramQuantile(0.5, b)).toBeCloseTo(0.01);
    expect(histogramQuantile(0.7, b)).toBeCloseTo(0.01 + 0.09 * (20 / 40));
    expect(histogramQuantile(0.99, b)).toBeCloseTo(1);
  });
  it('answers the last finite bound in +Inf and null when empty', () => {
    expect(histogramQuantile(0.999, b)).toBe(1);
    expect(histogramQuantile(0.5, [{ le: Infinity, count: 0 }])).toBeNull();
    expect(histogramQuantile(0.5, [])).toBeNull();
  });
  it('subtracts an earlier scrape, or restarts from zero after a reset', () => {
    const before = b.map((x) => ({ ...x, count: x.count - 10 }));
    expect(bucketDelta(b, before).map((x) => x.count)).toEqual([10, 10, 10, 10]);
    const reset = b.map((x) => ({ ...x, count: 1 }));
    expect(bucketDelta(reset, b).map((x) => x.count)).toEqual([1, 1, 1, 1]);
  });
});

describe('MetricsWindow', () => {
  const at = (t: number, dead: number, reclaimed: number, late: number[]): ReturnType<typeof scrapeOf> => ({
    t,
    due: 1,
    running: 0,
    oldestDueSeconds: 0,
    lateness: [
      { le: 0.1, count: late[0] as number },
      { le: 1, count: late[1] as number },
      { le: Infinity, count: late[2] as number },
    ],
    dead,
    failedAttempts: dead * 2,
    reclaimed,
    notFired: 0,
  });

  it('derives per-minute rates and last-minute quantiles', () => {
    const w = new MetricsWindow(10 * 60_000, 60_000);
    w.push(at(0, 0, 0, [0, 0, 0]));
    w.push(at(30_000, 1, 0, [10, 10, 10]));
    w.push(at(60_000, 2, 1, [10, 20, 20]));
    const p = w.points();
    expect(p).toHaveLength(3);
    expect(p[0]?.deadPerMin).toBeNull();
    expect(p[1]?.deadPerMin).toBeCloseTo(2);
    expect(p[2]?.deadPerMin).toBeCloseTo(2);
    expect(p[2]?.failedAttemptsPerMin).toBeCloseTo(4);
    expect(p[2]?.reclaimedPerMin).toBeCloseTo(1);
    expect(p[2]?.latenessP50).toBeCloseTo(0.1);
    expect(p[2]?.latenessP99).toBeCloseTo(0.1 + (0.9 * (19.8 - 10)) / 10);
    expect(p[1]?.latenessP50).toBeCloseTo(0.05);
  });

  it('drops scrapes older than it keeps, and ignores out-of-order ones', () => {
    const w = new MetricsWindow(60_000, 10_000);
    for (let t = 0; t <= 300_000; t += 5_000) w.push(at(t, 0, 0, [0, 0, 0]));
    w.push(at(100, 0, 0, [0, 0, 0]));
    expect(w.size).toBeLessThanOrEqual(15);
    expect(w.points()[0]?.t).toBe(240_000);
  });

  it('reads a restart (counters back to zero) as a fresh start, not a negative rate', () => {
    const w = new MetricsWindow();
    w.push(at(0, 50, 0, [0, 0, 0]));
    w.push(at(60_000, 3, 0, [0, 0, 0]));
    expect(w.points()[1]?.deadPerMin).toBeCloseTo(3);
  });

  it('reads the numbers it needs from a scrape', () => {
    const s = scrapeOf(5, SAMPLES);
    expect(s).toMatchObject({ due: 7, running: 2, dead: 4, failedAttempts: 8, reclaimed: 1, notFired: 2 });
  });
});
