// Open alerts: the tenant's (on the home page) or one schedule's (on its page), newest first, each with its
// kind, subject, summary and when it opened. Reads through the session's API and polls; it never changes an
// alert (they resolve by themselves).
import type { Alert } from '../api.ts';
import { useSession } from '../lib/context.ts';
import { usePolled } from '../lib/query.ts';
import { Instant } from './Instant.tsx';
import { Status } from './Status.tsx';

export interface AlertsPanelProps {
  /** Only this schedule's alerts; all the tenant's open alerts when absent. */
  scheduleKey?: string;
  now: number;
  tz?: string;
}

export function AlertsPanel({ scheduleKey, now, tz }: AlertsPanelProps) {
  const { api } = useSession();
  const alerts = usePolled(
    ['api', 'alerts', scheduleKey ?? null],
    (signal) =>
      api.alerts(
        { state: 'open', limit: 20, ...(scheduleKey === undefined ? {} : { schedule: scheduleKey }) },
        signal,
      ),
    15_000,
  );
  const items: Alert[] = alerts.data?.items ?? [];
  return (
    <section aria-labelledby="alerts-heading" data-testid="alerts">
      <h2 id="alerts-heading">Open alerts</h2>
      <Status loading={alerts.loading} error={alerts.error} />
      {alerts.data && items.length === 0 && <p className="muted">No open alert.</p>}
      {items.length > 0 && (
        <ul className="alerts">
          {items.map((a) => (
            <li key={a.id} data-kind={a.kind}>
              <strong>{a.kind.replaceAll('_', ' ')}</strong> · {a.subjectKind} <code>{a.subject}</code> ·{' '}
              <Instant value={a.openedAt} {...(tz === undefined ? {} : { tz })} both={false} now={now} />
              <br />
              {a.summary}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
