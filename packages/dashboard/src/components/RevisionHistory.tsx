// A History section for anything the service keeps revisions of (a schedule, a calendar): the revisions
// newest first (version, change, when, who) each with its diff as the caller draws it, and a button to roll
// back to an earlier version, asked first. It never computes a diff (the service sends it) and reads and
// writes only through the functions it is given.
import { useState, type ReactNode } from 'react';
import type { Polled } from '../lib/query.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { Instant } from './Instant.tsx';
import { Status } from './Status.tsx';

/** What every revision the service lists carries. */
export interface RevisionLike {
  version: number;
  at: string;
  actor: string | null;
  change: string;
  fromVersion: number | null;
}

const CONTENT_CHANGES = ['created', 'updated', 'rolledBack'];

export function changeText(r: Pick<RevisionLike, 'change' | 'fromVersion'>): string {
  return r.change === 'rolledBack' ? `rolled back to version ${r.fromVersion ?? '?'}` : r.change;
}

export interface RevisionHistoryProps<R extends RevisionLike> {
  /** What the revisions are of, in the dialog's title: `reports.daily`. */
  subject: string;
  history: Polled<{ items: R[] }>;
  currentVersion: number;
  tz: string;
  now: number;
  /** What a rollback does, in the confirmation. */
  rollbackMessage: string;
  /** Rolls back; answers the line to show. Errors are shown by the dialog, which stays open. */
  rollback: (version: number) => Promise<string>;
  /** The diff of one revision. */
  diff: (r: R) => ReactNode;
}

export function RevisionHistory<R extends RevisionLike>(props: RevisionHistoryProps<R>) {
  const { subject, history, currentVersion, tz, now } = props;
  const [message, setMessage] = useState<string | null>(null);
  const [asked, setAsked] = useState<number | null>(null);
  return (
    <section aria-labelledby="history-heading" data-testid="history">
      <h2 id="history-heading">History</h2>
      <Status loading={history.loading} error={history.error} />
      <p role="status" className="note" hidden={message === null}>
        {message}
      </p>
      <ConfirmDialog
        open={asked !== null}
        title={`Roll ${subject} back to version ${asked ?? ''}?`}
        message={props.rollbackMessage}
        confirmLabel="Roll back"
        onClose={() => setAsked(null)}
        onConfirm={async () => setMessage(await props.rollback(asked as number))}
      />
      {history.data?.items.length === 0 && <p className="muted">No change kept.</p>}
      <ol className="history">
        {history.data?.items.map((r, i) => (
          <li key={`${r.version}-${r.at}-${i}`} data-version={r.version} data-change={r.change}>
            <p>
              <strong>Version {r.version}</strong> · {changeText(r)} ·{' '}
              <Instant value={r.at} tz={tz} both={false} now={now} /> · by {r.actor ?? 'unknown'}
              {CONTENT_CHANGES.includes(r.change) && r.version !== currentVersion && (
                <>
                  {' '}
                  <button type="button" onClick={() => setAsked(r.version)}>
                    Roll back to this version
                  </button>
                </>
              )}
            </p>
            {props.diff(r)}
          </li>
        ))}
      </ol>
    </section>
  );
}
