// A time-series chart on uPlot: one or two y scales, the time axis read in a named zone (and labelled with
// it), the width following its container. A text summary of the latest values stands in for the canvas for
// screen readers.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { axisTimeLabel, viewerZone } from '../lib/time.ts';

export interface ChartSeries {
  label: string;
  values: readonly (number | null)[];
  color: string;
  /** 'y' (left, default) or 'y2' (right). */
  scale?: 'y' | 'y2';
  /** Drawn as points only (sparse data such as runs). */
  points?: boolean;
  format?: (v: number) => string;
}

export interface TimeChartProps {
  title: string;
  /** Epoch ms, ascending. */
  times: readonly number[];
  series: readonly ChartSeries[];
  yLabel: string;
  y2Label?: string;
  height?: number;
  tz?: string;
  /** The time axis spans at least this much, ending at the latest point (default 10 minutes). */
  minSpanMs?: number;
  /**
   * 'window' (default): the axis spans at least minSpanMs, ending at the latest point (a live window).
   * 'data': the axis spans the points themselves, padded a little, so few points spread over the full width.
   */
  fit?: 'window' | 'data';
}

function summary(props: TimeChartProps): string {
  const parts = props.series.map((s) => {
    let last: number | null = null;
    for (let i = s.values.length - 1; i >= 0 && last === null; i--) last = s.values[i] ?? null;
    return `${s.label}: ${last === null ? 'no data' : (s.format ?? String)(last)}`;
  });
  return `${props.title}. ${props.times.length} points. Latest ${parts.join('; ')}.`;
}

/**
 * The x range in seconds: the data's, widened to `span` (ending just after the latest point). Computed from
 * the data itself: for a single point uPlot proposes a range of 1000 days.
 */
function xRange(times: readonly number[], span: number): uPlot.Range.MinMax {
  const min = times.length > 0 ? (times[0] as number) / 1000 : null;
  const max = times.length > 0 ? (times[times.length - 1] as number) / 1000 : null;
  if (min === null || max === null) {
    const now = Date.now() / 1000;
    return [now - span, now];
  }
  if (max - min >= span) return [min, max];
  const pad = span * 0.03;
  return [max + pad - span, max + pad];
}

/** The x range in seconds spanning the points themselves, padded 3% a side (a minute at least). */
export function dataRange(times: readonly number[]): uPlot.Range.MinMax {
  if (times.length === 0) return xRange(times, 600);
  const min = (times[0] as number) / 1000;
  const max = (times[times.length - 1] as number) / 1000;
  const pad = Math.max(30, (max - min) * 0.03);
  return [min - pad, max + pad];
}

/** Tick labels with three significant digits at most (uPlot's own repeat "0.001" on tiny ranges). */
function yValues(_u: uPlot, splits: number[]): string[] {
  return splits.map((v) => (Math.abs(v) >= 100 ? String(Math.round(v)) : String(Number(v.toPrecision(3)))));
}

/** The y range: from zero (or below, for negative data) to a little above the largest value. */
function yRange(min: number | null, max: number | null): uPlot.Range.MinMax {
  const top = max !== null && max > 0 ? max * 1.15 : 1;
  return [Math.min(0, min ?? 0), top];
}

export function TimeChart(props: TimeChartProps) {
  const { title, times, series, yLabel, y2Label, height = 220, minSpanMs = 600_000, fit = 'window' } = props;
  const tz = props.tz ?? viewerZone();
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const timesRef = useRef(times);
  timesRef.current = times;
  const shape = `${tz}|${yLabel}|${y2Label ?? ''}|${series.map((s) => `${s.label}:${s.scale ?? 'y'}:${s.points ? 1 : 0}`).join(',')}`;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const ink = getComputedStyle(el).color || '#444';
    const grid = { stroke: 'rgba(128,128,128,0.18)', width: 1 };
    const axes: uPlot.Axis[] = [
      {
        stroke: ink,
        grid,
        label: `Time (${tz})`,
        labelSize: 20,
        space: 70,
        values: (u, splits) => {
          const span = (u.scales.x?.max ?? 0) - (u.scales.x?.min ?? 0);
          return splits.map((s) => axisTimeLabel(s * 1000, tz, span * 1000));
        },
      },
      { stroke: ink, grid, label: yLabel, scale: 'y', size: 56, values: yValues },
    ];
    if (y2Label) {
      axes.push({
        stroke: ink,
        grid: { show: false },
        label: y2Label,
        scale: 'y2',
        side: 1,
        size: 56,
        values: yValues,
      });
    }
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), tz),
      scales: {
        x: {
          time: true,
          range: () =>
            fit === 'data' ? dataRange(timesRef.current) : xRange(timesRef.current, minSpanMs / 1000),
        },
        y: { range: (_u, min, max) => yRange(min, max) },
      },
      axes,
      legend: { live: true },
      cursor: { drag: { x: false, y: false } },
      series: [
        {},
        ...series.map((s): uPlot.Series => ({
          label: s.label,
          stroke: s.color,
          width: 2,
          scale: s.scale ?? 'y',
          spanGaps: false,
          ...(s.points ? { paths: () => null, points: { show: true, size: 6, fill: s.color } } : {}),
          value: (_u, v) => (v === null || v === undefined ? '—' : (s.format ?? String)(v)),
        })),
      ],
    };
    if (y2Label) opts.scales!.y2 = { range: (_u, min, max) => yRange(min, max) };
    const u = new uPlot(opts, [[], ...series.map(() => [])] as uPlot.AlignedData, el);
    plot.current = u;
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
    };
    // `shape` stands for everything the chart's structure depends on.
  }, [shape, height, minSpanMs, fit]);

  useEffect(() => {
    const data = [
      times.map((t) => t / 1000),
      ...series.map((s) => [...s.values]),
    ] as unknown as uPlot.AlignedData;
    plot.current?.setData(data);
  }, [times, series, shape]);

  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <div ref={box} className="chart-box" role="img" aria-label={summary(props)} />
    </figure>
  );
}
