// A table of runs: state, when it was meant for (with its zone), kind, attempts, lateness and duration, and
// the error or the reason it did not run. On a phone each row becomes a card.
import type { Run } from '../api.ts';
import { durationMs, latenessMs, reasonText } from '../lib/runs.ts';
import { paths } from '../lib/router.ts';
import { formatDuration } from '../lib/time.ts';
import { Instant } from './Instant.tsx';
import { Link } from './Link.tsx';
import { StateBadge } from './StateBadge.tsx';

export interface RunsTableProps {
  runs: readonly Run[];
  caption: string;
  /** Zone to show times in first (a schedule's zone); default the viewer's. */
  tz?: string | undefined;
  showSchedule?: boolean;
  now: number;
}

export function RunsTable({ runs, caption, tz, showSchedule = false, now }: RunsTableProps) {
  if (runs.length === 0) return <p className="empty">No runs match.</p>;
  return (
    <div className="table-wrap">
      <table className="cards" data-testid="runs-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">State</th>
            {showSchedule && <th scope="col">Schedule</th>}
            <th scope="col">Scheduled for</th>
            <th scope="col">Kind</th>
            <th scope="col">Attempts</th>
            <th scope="col">Late by</th>
            <th scope="col">Took</th>
            <th scope="col">Error or reason</th>
            <th scope="col">
              <span className="visually-hidden">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id} data-run-id={r.id} data-run-state={r.state}>
              <td data-label="State">
                <StateBadge state={r.state} />
              </td>
              {showSchedule && (
                <td data-label="Schedule">
                  <Link href={paths.schedule(r.scheduleKey)}>{r.scheduleKey}</Link>
                </td>
              )}
              <td data-label="Scheduled for">
                <Instant value={r.scheduledFor} tz={tz} now={now} />
              </td>
              <td data-label="Kind">{r.kind}</td>
              <td data-label="Attempts">
                {r.attempt} / {r.maxAttempts}
              </td>
              <td data-label="Late by">{formatDuration(latenessMs(r))}</td>
              <td data-label="Took">{formatDuration(durationMs(r))}</td>
              <td data-label="Error or reason" className="wrap">
                {r.error ? (
                  <span className="error-text">
                    {r.error.code ? <code>{r.error.code}</code> : null} {r.error.message}
                  </span>
                ) : (
                  <span className="muted">{reasonText(r.reason)}</span>
                )}
              </td>
              <td data-label="Details">
                <Link href={paths.run(r.id)} aria-label={`Run ${r.id} of ${r.scheduleKey}`}>
                  Details
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
