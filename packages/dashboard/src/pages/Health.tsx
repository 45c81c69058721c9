// The service's health as the scheduler sees it, from GET /v1/metrics (service-wide, all tenants summed): runs due and
// waiting, firing lateness p50/p99, failures per minute, reclaimed leases and not-fired occurrences. Scrapes
// every 5 s while the tab is visible and keeps the last 30 minutes in memory for the charts.
import { useMemo, useState } from 'react';
import { Layout } from '../components/Layout.tsx';
import { Status } from '../components/Status.tsx';
import { TimeChart } from '../components/TimeChart.tsx';
import { useSession } from '../lib/context.ts';
import { MetricsWindow, scrapeOf, type HealthPoint } from '../lib/metrics-window.ts';
import { queryKeys, usePolled } from '../lib/query.ts';
import { formatDuration, formatSeconds } from '../lib/time.ts';

const SCRAPE_MS = 5_000;

/** The rolling window lives as long as the page (the browser tab), not as long as this view. */
const history = new MetricsWindow(30 * 60_000, 60_000);

function fmtRate(v: number): string {
  return `${v < 10 ? v.toFixed(1) : Math.round(v)}/min`;
}

function Tile({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="tile" data-testid={testId}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

export function Health() {
  const { api } = useSession();
  const [points, setPoints] = useState<HealthPoint[]>(() => history.points());
  const scrape = usePolled(
    queryKeys.metrics,
    async (signal) => {
      const snapshot = await api.metrics(signal);
      history.push(scrapeOf(Date.now(), snapshot.samples));
      setPoints(history.points());
      return true;
    },
    SCRAPE_MS,
  );

  const last = points[points.length - 1];
  const series = useMemo(() => {
    const col = <K extends keyof HealthPoint>(k: K): (number | null)[] =>
      points.map((p) => p[k] as number | null);
    return {
      times: points.map((p) => p.t),
      due: [
        { label: 'Due, waiting', values: col('due'), color: '#d97706' },
        { label: 'Running', values: col('running'), color: '#2563eb' },
      ],
      lateness: [
        { label: 'p50', values: col('latenessP50'), color: '#2563eb', format: formatSeconds },
        { label: 'p99', values: col('latenessP99'), color: '#dc2626', format: formatSeconds },
      ],
      failures: [
        { label: 'Failed attempts', values: col('failedAttemptsPerMin'), color: '#d97706', format: fmtRate },
        { label: 'Dead runs', values: col('deadPerMin'), color: '#dc2626', format: fmtRate },
      ],
      lost: [
        { label: 'Reclaimed leases', values: col('reclaimedPerMin'), color: '#7c3aed', format: fmtRate },
        { label: 'Not fired', values: col('notFiredPerMin'), color: '#dc2626', format: fmtRate },
      ],
    };
  }, [points]);

  const n = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : String(v));
  const s = (v: number | null | undefined): string =>
    v === null || v === undefined ? '—' : formatDuration(v * 1000);
  const r = (v: number | null | undefined): string => (v === null || v === undefined ? '—' : fmtRate(v));

  return (
    <Layout title="Health">
      <h1>Health</h1>
      <p className="muted">
        The whole service, all tenants, from <code>/v1/metrics</code>; refreshed every {SCRAPE_MS / 1000} s
        while this tab is visible. Rates and lateness are over the last minute (— until two scrapes are in, or
        when nothing fired in it).
      </p>
      <Status loading={scrape.loading} error={scrape.error} updatedAt={scrape.updatedAt} />
      <dl className="tiles">
        <Tile testId="tile-due" label="Due runs waiting" value={n(last?.due)} />
        <Tile testId="tile-running" label="Running" value={n(last?.running)} />
        <Tile testId="tile-oldest" label="Oldest due run waiting" value={s(last?.oldestDueSeconds)} />
        <Tile testId="tile-p50" label="Lateness p50" value={s(last?.latenessP50)} />
        <Tile testId="tile-p99" label="Lateness p99" value={s(last?.latenessP99)} />
        <Tile testId="tile-failures" label="Failed attempts" value={r(last?.failedAttemptsPerMin)} />
        <Tile
          testId="tile-reclaimed"
          label="Reclaimed leases (since start)"
          value={n(last?.reclaimedTotal)}
        />
        <Tile testId="tile-notfired" label="Not fired (since start)" value={n(last?.notFiredTotal)} />
      </dl>
      <div className="grid-2">
        <TimeChart
          title="Runs due and waiting, and running"
          times={series.times}
          series={series.due}
          yLabel="runs"
        />
        <TimeChart
          title="Firing lateness p50 and p99 (last minute)"
          times={series.times}
          series={series.lateness}
          yLabel="seconds"
        />
        <TimeChart
          title="Failures per minute"
          times={series.times}
          series={series.failures}
          yLabel="per minute"
        />
        <TimeChart
          title="Reclaimed leases and not-fired occurrences per minute"
          times={series.times}
          series={series.lost}
          yLabel="per minute"
        />
      </div>
    </Layout>
  );
}
