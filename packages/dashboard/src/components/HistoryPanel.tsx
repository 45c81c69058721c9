// A schedule's History: its revisions newest first (version, when, who, which change) with each changed
// field as from -> to, and a button to roll back to a version whose content differs from the current one.
// Reads through the session's API; it never computes a diff itself (the service sends it).
import { useState } from 'react';
import type { Revision, Schedule } from '../api.ts';
import { useSession } from '../lib/context.ts';
import { queryKeys, usePolled } from '../lib/query.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { Instant } from './Instant.tsx';
import { Status } from './Status.tsx';

const CONTENT_CHANGES: readonly Revision['change'][] = ['created', 'updated', 'rolledBack'];

/** A changed value in one short line. */
export function valueText(v: unknown): string {
  const text = v === undefined ? 'null' : (JSON.stringify(v) ?? 'null');
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

export function changeText(r: Pick<Revision, 'change' | 'fromVersion'>): string {
  return r.change === 'rolledBack' ? `rolled back to version ${r.fromVersion ?? '?'}` : r.change;
}

export interface HistoryPanelProps {
  schedule: Schedule;
  now: number;
  /** Called after a rollback (the page reloads its reads). */
  onChanged: () => void;
}

export function HistoryPanel({ schedule, now, onChanged }: HistoryPanelProps) {
  const { api } = useSession();
  const key = schedule.key;
  const history = usePolled(
    [...queryKeys.schedule(key), 'revisions', schedule.version, schedule.state],
    (signal) => api.revisions(key, { limit: 50 }, signal),
    30_000,
  );
  const [message, setMessage] = useState<string | null>(null);
  const [asked, setAsked] = useState<number | null>(null);

  // Errors are shown by the dialog, which stays open.
  const rollback = async (version: number): Promise<void> => {
    const res = await api.rollback(key, version);
    setMessage(
      res.changed
        ? `Rolled back to version ${version}: now version ${res.schedule.version}.`
        : `Version ${version} is the current content: nothing changed.`,
    );
    onChanged();
  };

  return (
    <section aria-labelledby="history-heading" data-testid="history">
      <h2 id="history-heading">History</h2>
      <Status loading={history.loading} error={history.error} />
      <p role="status" className="note" hidden={message === null}>
        {message}
      </p>
      <ConfirmDialog
        open={asked !== null}
        title={`Roll ${key} back to version ${asked ?? ''}?`}
        message="Its content (spec, target, payload, policies...) becomes a new version; the pending runs of the current version are cancelled, as for any edit."
        confirmLabel="Roll back"
        onClose={() => setAsked(null)}
        onConfirm={() => rollback(asked as number)}
      />
      {history.data?.items.length === 0 && <p className="muted">No change kept.</p>}
      <ol className="history">
        {history.data?.items.map((r, i) => (
          <li key={`${r.version}-${r.at}-${i}`} data-version={r.version} data-change={r.change}>
            <p>
              <strong>Version {r.version}</strong> · {changeText(r)} ·{' '}
              <Instant value={r.at} tz={schedule.tz} both={false} now={now} /> · by {r.actor ?? 'unknown'}
              {CONTENT_CHANGES.includes(r.change) && r.version !== schedule.version && (
                <>
                  {' '}
                  <button type="button" onClick={() => setAsked(r.version)}>
                    Roll back to this version
                  </button>
                </>
              )}
            </p>
            <table className="compact">
              <caption className="visually-hidden">Fields changed in version {r.version}</caption>
              <tbody>
                {Object.entries(r.diff).map(([field, c]) => (
                  <tr key={field}>
                    <th scope="row">{field}</th>
                    <td>
                      <code>{valueText(c?.from)}</code> → <code>{valueText(c?.to)}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </li>
        ))}
      </ol>
    </section>
  );
}
