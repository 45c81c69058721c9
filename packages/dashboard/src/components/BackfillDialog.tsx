// Asks for the range of a backfill: every occurrence of the spec from `from` (inclusive) to `to` becomes a
// run. Both ends are typed as wall times in the schedule's zone, which the labels name.
import { useState, type FormEvent } from 'react';
import { mapApiError } from '../lib/errors.ts';
import { isoOf, wallTimeToInstant } from '../lib/time.ts';
import { Dialog } from './Dialog.tsx';
import { Field } from './Field.tsx';

/** Wall times typed as ISO 8601 (a datetime-local control would follow the browser's locale). */
const ISO_INPUT = {
  type: 'text',
  inputMode: 'numeric',
  placeholder: 'YYYY-MM-DDTHH:MM',
  autoComplete: 'off',
  spellCheck: false,
  className: 'mono',
} as const;

export interface BackfillDialogProps {
  open: boolean;
  scheduleKey: string;
  tz: string;
  onClose: () => void;
  onBackfill: (body: { from: string; to: string }) => Promise<void>;
}

export function BackfillDialog({ open, scheduleKey, tz, onClose, onBackfill }: BackfillDialogProps) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const f = wallTimeToInstant(from, tz);
    const t = wallTimeToInstant(to, tz);
    const local: Record<string, string> = {};
    if (f === null) local.from = 'Enter a date and time';
    if (t === null) local.to = 'Enter a date and time';
    setErrors(local);
    setGeneral(null);
    if (f === null || t === null) return;
    setBusy(true);
    try {
      await onBackfill({ from: isoOf(f), to: isoOf(t) });
      onClose();
    } catch (err) {
      const mapped = mapApiError(err, ['from', 'to']);
      setErrors(mapped.fields);
      setGeneral(mapped.general);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} title={`Backfill ${scheduleKey}`} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <p>Creates one run for every occurrence in the range (it must lie in the past).</p>
        <Field
          id="backfill-from"
          label={`From (${tz})`}
          error={errors.from}
          hint="Inclusive. ISO 8601, e.g. 2026-01-05T09:00."
        >
          <input {...ISO_INPUT} value={from} onChange={(e) => setFrom(e.target.value)} />
        </Field>
        <Field id="backfill-to" label={`To (${tz})`} error={errors.to} hint="Exclusive.">
          <input {...ISO_INPUT} value={to} onChange={(e) => setTo(e.target.value)} />
        </Field>
        {general && (
          <p className="field-error" role="alert">
            {general}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Creating runs…' : 'Backfill'}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
