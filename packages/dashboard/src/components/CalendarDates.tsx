// A calendar's dates: sorted, a range shown as a range, each with its label and a Remove button; and a form
// adding one date or range, the API's error about it shown next to the field it concerns. Every change is a
// put of the whole calendar at the version on screen (a change in between is refused, not overwritten).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Calendar } from '../api.ts';
import {
  dateErrors,
  dateText,
  daysOf,
  sortedDates,
  withDate,
  withoutDate,
  type DateErrors,
  type NewDate,
} from '../lib/calendars.ts';
import { useSession } from '../lib/context.ts';
import { describeError } from '../lib/errors.ts';
import { Field } from './Field.tsx';

const EMPTY: NewDate = { start: '', end: '', label: '' };
const NO_ERRORS: DateErrors = { fields: {}, general: null };

export function CalendarDates({
  calendar,
  onChanged,
}: {
  calendar: Calendar;
  onChanged: () => Promise<void>;
}) {
  const { api } = useSession();
  const [draft, setDraft] = useState<NewDate>(EMPTY);
  const [errors, setErrors] = useState<DateErrors>(NO_ERRORS);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const dates = sortedDates(calendar.dates);
  // What this form said is about the version it wrote; another change (an import, a rollback) clears it.
  const wrote = useRef(calendar.version);
  useEffect(() => {
    if (calendar.version === wrote.current) return;
    wrote.current = calendar.version;
    setMessage(null);
    setErrors(NO_ERRORS);
  }, [calendar.version]);

  const add = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    if (draft.start.trim() === '') {
      setErrors({ fields: { start: 'Give the first day (YYYY-MM-DD).' }, general: null });
      return;
    }
    setBusy(true);
    try {
      wrote.current = (
        await api.putCalendar(calendar.name, withDate(calendar, draft), calendar.version)
      ).version;
      setDraft(EMPTY);
      setErrors(NO_ERRORS);
      setMessage(`Added ${dateText({ start: draft.start, end: draft.end || draft.start })}.`);
      await onChanged();
    } catch (err) {
      setErrors(dateErrors(err, calendar.dates.length));
    } finally {
      setBusy(false);
    }
  };

  const remove = async (start: string): Promise<void> => {
    setBusy(true);
    try {
      wrote.current = (
        await api.putCalendar(calendar.name, withoutDate(calendar, start), calendar.version)
      ).version;
      setMessage(`Removed ${start}.`);
      await onChanged();
    } catch (err) {
      setMessage(describeError(err));
    } finally {
      setBusy(false);
    }
  };

  const set = (k: keyof NewDate) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [k]: e.target.value }));

  return (
    <section aria-labelledby="dates-heading" data-testid="calendar-dates">
      <h2 id="dates-heading">Dates</h2>
      <p role="status" className="note" hidden={message === null}>
        {message}
      </p>
      {dates.length === 0 && <p className="muted">No dates yet.</p>}
      {dates.length > 0 && (
        <div className="table-wrap">
          <table className="compact" data-testid="dates-table">
            <caption className="visually-hidden">
              Dates of {calendar.name}, in {calendar.tz}
            </caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Days</th>
                <th scope="col">Label</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {dates.map((d) => (
                <tr key={d.start} data-start={d.start}>
                  <td className="mono">{dateText(d)}</td>
                  <td>{daysOf(d)}</td>
                  <td>{d.label ?? <span className="muted">—</span>}</td>
                  <td>
                    <button
                      type="button"
                      disabled={busy}
                      onClick={() => void remove(d.start)}
                      aria-label={`Remove ${dateText(d)}`}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form className="filters" aria-label="Add a date" onSubmit={(e) => void add(e)} noValidate>
        <Field id="date-start" label="From" hint="YYYY-MM-DD" error={errors.fields.start}>
          <input value={draft.start} onChange={set('start')} placeholder="2026-12-24" />
        </Field>
        <Field id="date-end" label="To (optional)" hint="the last day, inclusive" error={errors.fields.end}>
          <input value={draft.end} onChange={set('end')} placeholder="2026-12-26" />
        </Field>
        <Field id="date-label" label="Label" error={errors.fields.label}>
          <input value={draft.label} onChange={set('label')} placeholder="Christmas" />
        </Field>
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            Add date
          </button>
        </div>
        {errors.general && (
          <p className="form-error" role="alert">
            {errors.general}
          </p>
        )}
      </form>
    </section>
  );
}
