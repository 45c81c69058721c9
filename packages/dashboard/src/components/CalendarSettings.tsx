// A calendar's zone, working days and description, edited and saved as a put of the whole calendar at the
// version on screen; the API's errors are shown next to their field.
import { useState, type FormEvent } from 'react';
import { WEEKDAYS, type Calendar, type Weekday } from '../api.ts';
import { calendarBody } from '../lib/calendars.ts';
import { useSession } from '../lib/context.ts';
import { mapApiError, type MappedErrors } from '../lib/errors.ts';
import { Field } from './Field.tsx';

const FIELDS = ['tz', 'workingDays', 'description'] as const;

export function CalendarSettings({
  calendar,
  onChanged,
}: {
  calendar: Calendar;
  onChanged: () => Promise<void>;
}) {
  const { api } = useSession();
  const [tz, setTz] = useState(calendar.tz);
  const [days, setDays] = useState<Weekday[] | null>(calendar.workingDays);
  const [description, setDescription] = useState(calendar.description ?? '');
  const [errors, setErrors] = useState<MappedErrors>({ fields: {}, general: null });
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const toggle = (d: Weekday): void => {
    const now = days ?? [...WEEKDAYS];
    const next = now.includes(d) ? now.filter((x) => x !== d) : [...now, d];
    setDays(WEEKDAYS.filter((w) => next.includes(w)));
  };

  const save = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    try {
      const body = {
        ...calendarBody(calendar),
        tz,
        // Every day ticked is the same as no mask.
        workingDays: days === null || days.length === WEEKDAYS.length ? null : days,
        description: description.trim() === '' ? null : description,
      };
      const saved = await api.putCalendar(calendar.name, body, calendar.version);
      setErrors({ fields: {}, general: null });
      setMessage(
        saved.version === calendar.version ? 'Nothing changed.' : `Saved as version ${saved.version}.`,
      );
      await onChanged();
    } catch (err) {
      setErrors(mapApiError(err, FIELDS));
      setMessage(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      aria-labelledby="settings-heading"
      onSubmit={(e) => void save(e)}
      noValidate
      data-testid="calendar-settings"
    >
      <h2 id="settings-heading">Zone and working days</h2>
      <Field
        id="settings-tz"
        label="Time zone"
        hint="the dates are whole days of this zone"
        error={errors.fields.tz}
      >
        <input value={tz} onChange={(e) => setTz(e.target.value)} />
      </Field>
      <fieldset
        className="choice"
        aria-invalid={errors.fields.workingDays ? true : undefined}
        aria-describedby={errors.fields.workingDays ? 'working-days-error' : undefined}
      >
        <legend>Working days</legend>
        {WEEKDAYS.map((d) => (
          <label key={d}>
            <input type="checkbox" checked={days === null || days.includes(d)} onChange={() => toggle(d)} />{' '}
            {d}
          </label>
        ))}
        {errors.fields.workingDays && (
          <p id="working-days-error" className="field-error" role="alert">
            {errors.fields.workingDays}
          </p>
        )}
      </fieldset>
      <Field id="settings-description" label="Description" error={errors.fields.description}>
        <input value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          Save
        </button>
      </div>
      <p role="status" className="note" hidden={message === null}>
        {message}
      </p>
      {errors.general && (
        <p className="form-error" role="alert">
          {errors.general}
        </p>
      )}
    </form>
  );
}
