// The recent outcomes of a schedule as a row of small coloured bars (oldest left), with a text summary for
// screen readers and as a tooltip, and the legend of their colours.
import type { RunState } from '../api.ts';
import { countsText, STATE_TONE } from '../lib/runs.ts';

export function Sparkline({ outcomes }: { outcomes: readonly RunState[] | undefined }) {
  if (outcomes === undefined) return <span className="muted">…</span>;
  if (outcomes.length === 0) return <span className="muted">no runs yet</span>;
  const counts: Partial<Record<RunState, number>> = {};
  for (const s of outcomes) counts[s] = (counts[s] ?? 0) + 1;
  const label = `Last ${outcomes.length} outcomes, oldest first: ${countsText(counts)}`;
  const w = 7;
  return (
    <svg
      className="spark"
      role="img"
      aria-label={label}
      width={outcomes.length * w}
      height={16}
      viewBox={`0 0 ${outcomes.length * w} 16`}
    >
      <title>{label}</title>
      {outcomes.map((s, i) => (
        <rect
          key={i}
          className={`spark-${STATE_TONE[s]}`}
          x={i * w}
          y={STATE_TONE[s] === 'ok' ? 4 : 0}
          width={w - 2}
          height={STATE_TONE[s] === 'ok' ? 12 : 16}
          rx={1}
        />
      ))}
    </svg>
  );
}

const LEGEND: [string, string][] = [
  ['ok', 'succeeded'],
  ['bad', 'dead (failed)'],
  ['warn', 'skipped or expired'],
  ['muted', 'cancelled'],
];

/** What the bars' colours mean: shown once under a table of sparklines. */
export function SparkLegend() {
  return (
    <p className="spark-legend small muted" data-testid="spark-legend">
      Recent: the last 10 finished runs, oldest left.{' '}
      {LEGEND.map(([tone, text]) => (
        <span key={tone} className="spark-legend-item">
          <svg width={10} height={10} aria-hidden="true">
            <rect className={`spark-${tone}`} width={10} height={10} rx={1} />
          </svg>{' '}
          {text}
        </span>
      ))}
    </p>
  );
}
