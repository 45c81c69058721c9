// The Health page's arithmetic: the Prometheus text parser, histogram quantiles as Prometheus computes them,
// and the rolling window's rates and last-minute lateness, including across a service restart.
import { describe, expect, it } from 'vitest';
import {
  bucketDelta,
  histogramBuckets,
  histogramQuantile,
  MetricsWindow,
  parsePrometheus,
  scrapeOf,
  sumOf,
} from '../src/lib/prometheus.ts';

const TEXT = `# HELP punctual_runs_due Scheduled runs already due
# TYPE punctual_runs_due gauge
punctual_runs_due 7
punctual_runs_running 2
punctual_runs_finished_total{state="succeeded",target="webhook",tenant="default"} 40
punctual_runs_finished_total{state="dead",target="webhook",tenant="default"} 3
punctual_runs_finished_total{state="dead",target="handler",tenant="other"} 1
punctual_delivery_duration_seconds_count{target="webhook",outcome="retry"} 5
punctual_delivery_duration_seconds_count{target="webhook",outcome="failed"} 3
punctual_delivery_duration_seconds_count{target="webhook",outcome="succeeded"} 40
punctual_run_lateness_seconds_bucket{le="0.01",target="webhook"} 50
punctual_run_lateness_seconds_bucket{le="0.1",target="webhook"} 90
punctual_run_lateness_seconds_bucket{le="1",target="webhook"} 99
punctual_run_lateness_seconds_bucket{le="+Inf",target="webhook"} 100
punctual_run_lateness_seconds_bucket{le="0.01",target="handler"} 0
punctual_run_lateness_seconds_bucket{le="0.1",target="handler"} 0
punctual_run_lateness_seconds_bucket{le="1",target="handler"} 0
punctual_run_lateness_seconds_bucket{le="+Inf",target="handler"} 0
punctual_leases_reclaimed_total 1
punctual_schedule_not_fired_total{tenant="default"} 2
weird_label{path="a \\"quoted\\" \\\\ value\\n"} 1 1700000000000
broken{ 3
`;

describe('parsePrometheus', () => {
  it('reads names, labels (with escapes), values and skips the rest', () => {
    const s = parsePrometheus(TEXT);
    expect(sumOf(s, 'punctual_runs_due')).toBe(7);
    expect(sumOf(s, 'punctual_runs_finished_total', (l) => l.state === 'dead')).toBe(4);
    expect(s.find((x) => x.name === 'weird_label')?.labels.path).toBe('a "quoted" \\ value\n');
    expect(s.some((x) => x.name === 'broken')).toBe(false);
    expect(sumOf(s, 'absent')).toBeNull();
  });

  it('sums histogram buckets over label sets', () => {
    const b = histogramBuckets(parsePrometheus(TEXT), 'punctual_run_lateness_seconds');
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
    const s = scrapeOf(5, parsePrometheus(TEXT));
    expect(s).toMatchObject({ due: 7, running: 2, dead: 4, failedAttempts: 8, reclaimed: 1, notFired: 2 });
  });
});
