// A calendar's History: its revisions newest first (RevisionHistory draws the list) with the dates each one
// added (+) and removed (−), ranges as ranges and with their labels, and its other changed parts as
// from → to; and the rollback to an earlier version, which re-plans the schedules using the calendar.
import type { Calendar, CalendarDate, CalendarRevision } from '../api.ts';
import { dateText } from '../lib/calendars.ts';
import { useSession } from '../lib/context.ts';
import { queryKeys, usePolled } from '../lib/query.ts';
import { FieldDiff } from './HistoryPanel.tsx';
import { RevisionHistory } from './RevisionHistory.tsx';

const dateLine = (d: CalendarDate): string => (d.label === null ? dateText(d) : `${dateText(d)} ${d.label}`);

export function CalendarDiffView({ revision }: { revision: CalendarRevision }) {
  const { dates, ...rest } = revision.diff;
  return (
    <>
      {dates && (
        <ul className="compact" aria-label={`Dates changed in version ${revision.version}`}>
          {dates.added.map((d) => (
            <li key={`+${d.start}`} data-added={d.start}>
              <span aria-hidden="true">+ </span>
              <span className="visually-hidden">added </span>
              <code>{dateLine(d)}</code>
            </li>
          ))}
          {dates.removed.map((d) => (
            <li key={`-${d.start}`} data-removed={d.start}>
              <span aria-hidden="true">− </span>
              <span className="visually-hidden">removed </span>
              <code>{dateLine(d)}</code>
            </li>
          ))}
        </ul>
      )}
      {Object.keys(rest).length > 0 && <FieldDiff version={revision.version} diff={rest} />}
    </>
  );
}

export function CalendarHistory({
  calendar,
  now,
  onChanged,
}: {
  calendar: Calendar;
  now: number;
  onChanged: () => Promise<void>;
}) {
  const { api } = useSession();
  const name = calendar.name;
  const history = usePolled(
    [...queryKeys.calendar(name), 'revisions', calendar.version],
    (signal) => api.calendarRevisions(name, { limit: 50 }, signal),
    30_000,
  );
  const rollback = async (version: number): Promise<string> => {
    const res = await api.rollbackCalendar(name, version);
    await onChanged();
    return res.changed
      ? `Rolled back to version ${version}: now version ${res.calendar.version}.`
      : `Version ${version} is the current content: nothing changed.`;
  };
  return (
    <RevisionHistory<CalendarRevision>
      subject={name}
      history={history}
      currentVersion={calendar.version}
      tz={calendar.tz}
      now={now}
      rollbackMessage="Its dates, labels, working days and zone become a new version; the pending runs of the schedules using this calendar are planned again, as for any edit."
      rollback={rollback}
      diff={(r) => <CalendarDiffView revision={r} />}
    />
  );
}
