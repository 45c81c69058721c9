// A schedule's History: its revisions newest first (version, when, who, which change) with each changed
// field as from -> to, and a button to roll back to a version whose content differs from the current one
// (RevisionHistory draws the list). Reads through the session's API; it never computes a diff itself.
import type { Revision, Schedule } from '../api.ts';
import { useSession } from '../lib/context.ts';
import { queryKeys, usePolled } from '../lib/query.ts';
import { RevisionHistory } from './RevisionHistory.tsx';

export { changeText } from './RevisionHistory.tsx';

/** A changed value in one short line. */
export function valueText(v: unknown): string {
  const text = v === undefined ? 'null' : (JSON.stringify(v) ?? 'null');
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** A diff of `field -> { from, to }` as a table, one row per field. */
export function FieldDiff({
  version,
  diff,
}: {
  version: number;
  diff: Record<string, { from?: unknown; to?: unknown } | undefined>;
}) {
  return (
    <table className="compact">
      <caption className="visually-hidden">Fields changed in version {version}</caption>
      <tbody>
        {Object.entries(diff).map(([field, c]) => (
          <tr key={field}>
            <th scope="row">{field}</th>
            <td>
              <code>{valueText(c?.from)}</code> → <code>{valueText(c?.to)}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
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
  const rollback = async (version: number): Promise<string> => {
    const res = await api.rollback(key, version);
    onChanged();
    return res.changed
      ? `Rolled back to version ${version}: now version ${res.schedule.version}.`
      : `Version ${version} is the current content: nothing changed.`;
  };
  return (
    <RevisionHistory<Revision>
      subject={key}
      history={history}
      currentVersion={schedule.version}
      tz={schedule.tz}
      now={now}
      rollbackMessage="Its content (spec, target, payload, policies...) becomes a new version; the pending runs of the current version are cancelled, as for any edit."
      rollback={rollback}
      diff={(r) => <FieldDiff version={r.version} diff={r.diff} />}
    />
  );
}
