// Import of an .ics file into a calendar: a file picker, read in the browser and sent to the import route
// (its all-day events replace the calendar's dates), then what was imported and what was left out. The
// API's refusal (not iCalendar, too large) is shown at the file field.
import { useRef, useState, type FormEvent } from 'react';
import type { Calendar, CalendarImport as Imported } from '../api.ts';
import { useSession } from '../lib/context.ts';
import { mapApiError, type MappedErrors } from '../lib/errors.ts';
import { Field } from './Field.tsx';

const FIELDS = ['ics', 'tz', 'horizonYears'] as const;

export function CalendarImport({
  calendar,
  onChanged,
}: {
  calendar: Calendar;
  onChanged: () => Promise<void>;
}) {
  const { api } = useSession();
  const file = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<MappedErrors>({ fields: {}, general: null });
  const [result, setResult] = useState<Imported | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const f = file.current?.files?.[0];
    if (f === undefined) {
      setErrors({ fields: { ics: 'Choose an .ics file.' }, general: null });
      return;
    }
    setBusy(true);
    try {
      const ics = await f.text();
      const res = await api.importCalendar(
        calendar.name,
        { ics, tz: calendar.tz, workingDays: calendar.workingDays, description: calendar.description },
        calendar.version,
      );
      setResult(res);
      setErrors({ fields: {}, general: null });
      await onChanged();
    } catch (err) {
      setErrors(mapApiError(err, FIELDS));
      setResult(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      aria-labelledby="import-heading"
      onSubmit={(e) => void submit(e)}
      noValidate
      data-testid="calendar-import"
    >
      <h2 id="import-heading">Import an .ics file</h2>
      <Field
        id="import-file"
        label="iCalendar file"
        hint="its all-day events replace the dates (labels from their summary)"
        error={errors.fields.ics ?? errors.fields.tz}
      >
        <input type="file" ref={file} accept=".ics,text/calendar" />
      </Field>
      <div className="actions">
        <button type="submit" disabled={busy}>
          Import
        </button>
      </div>
      {errors.general && (
        <p className="form-error" role="alert">
          {errors.general}
        </p>
      )}
      {result && (
        <div role="status" className="note" data-testid="import-result">
          <p>
            Imported {result.dates.length} date{result.dates.length === 1 ? '' : 's'}: now version{' '}
            {result.version}.
          </p>
          {result.skipped.length > 0 && (
            <>
              <p>Left out:</p>
              <ul>
                {result.skipped.map((s, i) => (
                  <li key={i}>
                    {s.summary ?? '(no summary)'}: {s.why}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </form>
  );
}
