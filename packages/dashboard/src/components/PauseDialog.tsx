// Asks how to pause a schedule: an optional note (shown on the schedule) and whether the runs already
// scheduled are kept (they are skipped at their time) or cancelled now.
import { useState, type FormEvent } from 'react';
import { describeError } from '../lib/errors.ts';
import { Dialog } from './Dialog.tsx';
import { Field } from './Field.tsx';

export interface PauseDialogProps {
  open: boolean;
  scheduleKey: string;
  onClose: () => void;
  onPause: (body: { note?: string; cancelPending: boolean }) => Promise<void>;
}

export function PauseDialog({ open, scheduleKey, onClose, onPause }: PauseDialogProps) {
  const [note, setNote] = useState('');
  const [cancelPending, setCancelPending] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onPause({ cancelPending, ...(note.trim() === '' ? {} : { note: note.trim() }) });
      setNote('');
      setCancelPending(false);
      onClose();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} title={`Pause ${scheduleKey}`} onClose={onClose}>
      <form onSubmit={submit}>
        <Field
          id="pause-note"
          label="Note (why it is paused)"
          hint="Shown on the schedule until it is resumed."
        >
          <textarea value={note} onChange={(e) => setNote(e.target.value)} rows={3} maxLength={1000} />
        </Field>
        <fieldset>
          <legend>Runs already scheduled</legend>
          <label className="choice">
            <input
              type="radio"
              name="pending"
              checked={!cancelPending}
              onChange={() => setCancelPending(false)}
            />
            Keep them (each is skipped at its time while paused)
          </label>
          <label className="choice">
            <input
              type="radio"
              name="pending"
              checked={cancelPending}
              onChange={() => setCancelPending(true)}
            />
            Cancel them now
          </label>
        </fieldset>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Pausing…' : 'Pause'}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
