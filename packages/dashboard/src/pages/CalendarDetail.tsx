// One calendar: its zone, working days, version and the schedules using it; a Dates tab (its dates and labels, sorted, ranges as
// ranges, with add and remove; its zone, working days and description; the import of an .ics file) and a
// History tab (its revisions, with rollback); and its deletion, which the service refuses while a schedule
// uses the calendar (CALENDAR_IN_USE: the schedules are named, with links).
import { useState } from 'react';
import { isApiError } from '../api.ts';
import { CalendarDates } from '../components/CalendarDates.tsx';
import { CalendarHistory } from '../components/CalendarHistory.tsx';
import { CalendarImport } from '../components/CalendarImport.tsx';
import { CalendarSettings } from '../components/CalendarSettings.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { Layout } from '../components/Layout.tsx';
import { Link } from '../components/Link.tsx';
import { Status } from '../components/Status.tsx';
import { workingDaysText } from '../lib/calendars.ts';
import { useSession } from '../lib/context.ts';
import { useNow } from '../lib/hooks.ts';
import { queryKeys, useInvalidate, usePolled } from '../lib/query.ts';
import { navigate, paths, useQuery } from '../lib/router.ts';

const TABS = [
  { id: 'dates', label: 'Dates' },
  { id: 'history', label: 'History' },
] as const;

export function CalendarDetail({ name }: { name: string }) {
  const { api } = useSession();
  const now = useNow();
  const invalidate = useInvalidate();
  const [query, setQuery] = useQuery();
  const tab = query.tab === 'history' ? 'history' : 'dates';
  const calendar = usePolled(queryKeys.calendar(name), (signal) => api.getCalendar(name, signal), 15_000);
  const c = calendar.data;
  const [deleting, setDeleting] = useState(false);
  const [inUse, setInUse] = useState<string[] | null>(null);

  const remove = async (): Promise<void> => {
    try {
      await api.deleteCalendar(name, c?.version);
    } catch (e) {
      if (isApiError(e) && e.code === 'CALENDAR_IN_USE') {
        const keys = e.details.schedules;
        setInUse(Array.isArray(keys) ? keys.map(String) : []);
        return;
      }
      throw e;
    }
    await invalidate();
    navigate(paths.calendars());
  };

  return (
    <Layout title={`Calendar ${name}`}>
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link href={paths.calendars()}>Calendars</Link> / <span className="key">{name}</span>
      </nav>
      <div className="page-head">
        <h1 className="key">{name}</h1>
        <button type="button" className="danger" onClick={() => setDeleting(true)} disabled={!c}>
          Delete
        </button>
      </div>
      <Status loading={calendar.loading} error={calendar.error} updatedAt={calendar.updatedAt} />
      {inUse !== null && (
        <div className="status status-error" role="alert" data-testid="calendar-in-use">
          <p>
            {name} cannot be deleted: {inUse.length === 1 ? 'a schedule uses it' : 'schedules use it'}. Remove
            it from their <code>exclude</code> / <code>businessDays</code> first:
          </p>
          <ul>
            {inUse.map((k) => (
              <li key={k}>
                <Link href={paths.schedule(k)} className="key">
                  {k}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
      <ConfirmDialog
        open={deleting}
        title={`Delete calendar ${name}?`}
        message="Its history is kept: a rollback brings it back. The service refuses while a schedule uses it."
        confirmLabel="Delete"
        onClose={() => setDeleting(false)}
        onConfirm={remove}
      />
      {c && (
        <>
          <dl className="props">
            <dt>Time zone</dt>
            <dd>{c.tz}</dd>
            <dt>Working days</dt>
            <dd>{workingDaysText(c.workingDays)}</dd>
            <dt>Version</dt>
            <dd data-testid="calendar-version">{c.version}</dd>
            <dt>Used by</dt>
            <dd data-testid="calendar-used-by">
              {c.usedBy.length === 0 ? (
                <span className="muted">no schedule</span>
              ) : (
                c.usedBy.map((k, i) => (
                  <span key={k}>
                    {i > 0 && ', '}
                    <Link href={paths.schedule(k)} className="key">
                      {k}
                    </Link>
                  </span>
                ))
              )}
              {c.usedBy.length === 10 && <span className="muted"> and maybe more</span>}
            </dd>
            {c.description && (
              <>
                <dt>Description</dt>
                <dd>{c.description}</dd>
              </>
            )}
          </dl>
          <div className="toolbar" role="tablist" aria-label="Calendar">
            {TABS.map((t) => (
              <button
                key={t.id}
                type="button"
                role="tab"
                id={`tab-${t.id}`}
                aria-selected={tab === t.id}
                aria-controls={`panel-${t.id}`}
                className={tab === t.id ? 'primary' : undefined}
                onClick={() => setQuery({ tab: t.id === 'dates' ? undefined : t.id })}
              >
                {t.label}
              </button>
            ))}
          </div>
          <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
            {tab === 'dates' ? (
              <>
                <CalendarDates calendar={c} onChanged={invalidate} />
                <CalendarSettings key={c.version} calendar={c} onChanged={invalidate} />
                <CalendarImport calendar={c} onChanged={invalidate} />
              </>
            ) : (
              <CalendarHistory calendar={c} now={now} onChanged={invalidate} />
            )}
          </div>
        </>
      )}
    </Layout>
  );
}
