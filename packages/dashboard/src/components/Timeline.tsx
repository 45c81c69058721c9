// The outcomes of the last 24 hours as hourly stacked bars (by state, in the viewer's zone), with the same
// numbers as a table for keyboard and screen-reader users.
import type { RunState } from '../api.ts';
import { countsText, STATE_TONE, type TimelineBucket } from '../lib/runs.ts';
import { formatInstant, viewerZone, wallTime } from '../lib/time.ts';

const ORDER: RunState[] = ['succeeded', 'running', 'scheduled', 'skipped', 'expired', 'cancelled', 'dead'];

export function Timeline({
  buckets,
  note,
}: {
  buckets: readonly TimelineBucket[];
  note?: string | undefined;
}) {
  const tz = viewerZone();
  const max = Math.max(1, ...buckets.map((b) => b.total));
  const barW = 20;
  const h = 120;
  const width = buckets.length * barW;
  const total: Partial<Record<RunState, number>> = {};
  for (const b of buckets)
    for (const [s, n] of Object.entries(b.counts))
      total[s as RunState] = (total[s as RunState] ?? 0) + (n ?? 0);
  return (
    <figure className="timeline">
      <figcaption>
        Outcomes over the last 24 hours, by hour ({tz}): {countsText(total)}
        {note ? ` — ${note}` : ''}
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${h + 16}`}
        preserveAspectRatio="none"
        className="timeline-svg"
        aria-hidden="true"
      >
        {buckets.map((b, i) => {
          let y = h;
          const hour = wallTime(b.start, tz).hour;
          return (
            <g key={b.start}>
              <title>{`${formatInstant(b.start, tz, { seconds: false })}: ${countsText(b.counts)}`}</title>
              <rect x={i * barW} y={0} width={barW} height={h} className="timeline-slot" />
              {ORDER.map((s) => {
                const n = b.counts[s] ?? 0;
                if (n === 0) return null;
                const bh = Math.max(2, (n / max) * (h - 4));
                y -= bh;
                return (
                  <rect
                    key={s}
                    x={i * barW + 2}
                    y={y}
                    width={barW - 4}
                    height={bh}
                    className={`spark-${STATE_TONE[s]}`}
                  />
                );
              })}
              {hour % 3 === 0 && (
                <text x={i * barW + 1} y={h + 13} className="timeline-label">
                  {String(hour).padStart(2, '0')}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <details>
        <summary>Table of the hourly counts</summary>
        <table className="compact">
          <thead>
            <tr>
              <th scope="col">Hour ({tz})</th>
              <th scope="col">Runs</th>
              <th scope="col">Outcomes</th>
            </tr>
          </thead>
          <tbody>
            {buckets.map((b) => (
              <tr key={b.start}>
                <td>{formatInstant(b.start, tz, { seconds: false, zoneName: false })}</td>
                <td>{b.total}</td>
                <td>{countsText(b.counts)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
