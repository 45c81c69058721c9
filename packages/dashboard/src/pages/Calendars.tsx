// The tenant's calendars: for each its zone, how many dates (and days) it holds, its working days and its
// version, linking to its page; and a form creating a new one (name and zone; the API's errors shown next to
// their field). Refreshes itself while the tab is visible.
import { useState, type FormEvent } from 'react';
import { Field } from '../components/Field.tsx';
import { Layout } from '../components/Layout.tsx';
import { Link } from '../components/Link.tsx';
import { Status } from '../components/Status.tsx';
import { daysOf, workingDaysText } from '../lib/calendars.ts';
import { useSession } from '../lib/context.ts';
import { mapApiError, type MappedErrors } from '../lib/errors.ts';
import { queryKeys, useInvalidate, usePolled } from '../lib/query.ts';
import { navigate, paths } from '../lib/router.ts';
import { viewerZone } from '../lib/time.ts';

const NEW_FIELDS = ['name', 'tz'] as const;

function NewCalendar() {
  const { api } = useSession();
  const invalidate = useInvalidate();
  const [name, setName] = useState('');
  const [tz, setTz] = useState(viewerZone());
  const [errors, setErrors] = useState<MappedErrors>({ fields: {}, general: null });
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (name.trim() === '') {
      setErrors({ fields: { name: 'Give the calendar a name.' }, general: null });
      return;
    }
    setBusy(true);
    try {
      const c = await api.putCalendar(name.trim(), { tz, dates: [] }, undefined);
      await invalidate();
      navigate(paths.calendar(c.name));
    } catch (err) {
      setErrors(mapApiError(err, NEW_FIELDS));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="filters" aria-label="New calendar" onSubmit={(e) => void submit(e)} noValidate>
      <Field id="calendar-name" label="Name" hint="letters, digits and . _ -" error={errors.fields.name}>
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder="de-holidays" />
      </Field>
      <Field id="calendar-tz" label="Time zone" error={errors.fields.tz}>
        <input value={tz} onChange={(e) => setTz(e.target.value)} />
      </Field>
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          Create calendar
        </button>
      </div>
      {errors.general && (
        <p className="form-error" role="alert">
          {errors.general}
        </p>
      )}
    </form>
  );
}

export function Calendars() {
  const { api } = useSession();
  const list = usePolled(queryKeys.calendars, (signal) => api.calendars(signal), 30_000);
  const items = list.data?.items ?? [];
  return (
    <Layout title="Calendars">
      <div className="page-head">
        <h1>Calendars</h1>
      </div>
      <p className="muted">
        Dates a schedule skips (<code>exclude</code>) or keeps to as working days (<code>businessDays</code>).
      </p>
      <NewCalendar />
      <Status loading={list.loading} error={list.error} updatedAt={list.updatedAt} />
      {!list.loading && items.length === 0 && !list.error && <p className="empty">No calendars yet.</p>}
      {items.length > 0 && (
        <div className="table-wrap">
          <table className="cards" data-testid="calendars-table">
            <caption className="visually-hidden">Calendars</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Time zone</th>
                <th scope="col">Dates</th>
                <th scope="col">Working days</th>
                <th scope="col">Version</th>
                <th scope="col">Description</th>
              </tr>
            </thead>
            <tbody>
              {items.map((c) => {
                const days = c.dates.reduce((n, d) => n + daysOf(d), 0);
                return (
                  <tr key={c.name} data-name={c.name}>
                    <td data-label="Name" className="key-cell">
                      <Link href={paths.calendar(c.name)} className="key">
                        {c.name}
                      </Link>
                    </td>
                    <td data-label="Time zone">{c.tz}</td>
                    <td data-label="Dates">
                      {c.dates.length}
                      {days !== c.dates.length && <span className="muted"> ({days} days)</span>}
                    </td>
                    <td data-label="Working days">{workingDaysText(c.workingDays)}</td>
                    <td data-label="Version">{c.version}</td>
                    <td data-label="Description" className="wrap">
                      {c.description}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Layout>
  );
}
