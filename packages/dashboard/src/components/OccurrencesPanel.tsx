// A schedule's upcoming occurrences as they will really run (GET /v1/schedules/{key}/preview with explain,
// its calendars and overrides applied), joined with its overrides (GET /v1/schedules/{key}/occurrences) for
// their notes: each at the instant it runs (rolled off a non-working day, moved by an override), one an
// excluded date or a skip drops shown struck through with why, and buttons to skip one, move one, give one
// another payload, or undo its override, always naming its nominal `scheduledFor`. It only shows the
// service's answers and sends the user's requests; whether an instant may be changed is the service's
// decision (its error is shown).
import { useState } from 'react';
import type { PreviewDropped, PreviewNote, Schedule } from '../api.ts';
import { useSession } from '../lib/context.ts';
import { describeError } from '../lib/errors.ts';
import { queryKeys, usePolled } from '../lib/query.ts';
import { upcomingRows, type UpcomingRow } from '../lib/upcoming.ts';
import { Instant } from './Instant.tsx';
import { noteText } from './PreviewPanel.tsx';
import { Status } from './Status.tsx';

export interface OccurrencesPanelProps {
  schedule: Schedule;
  now: number;
  /** Called after a change (the page reloads its reads). */
  onChanged: () => void;
}

/** How many occurrences the list shows (those that run). */
const LISTED = 10;

/** Why a dropped occurrence does not run, in the words of the preview's drop reasons. */
function droppedText(d: PreviewDropped): string {
  const label = d.label ? `: ${d.label}` : '';
  if (d.reason === 'calendar') return `excluded by calendar ${d.calendar ?? ''}${label}`;
  if (d.reason === 'notWorkingDay') return `not a working day of ${d.calendar ?? ''}${label}`;
  return 'skipped by override';
}

function noteWords(n: PreviewNote): string {
  return n.kind === 'moved' ? `${noteText(n)} from ${n.from}` : noteText(n);
}

/** What happens to an occurrence, in the words of the preview's notes and drop reasons. */
export function rowText(r: UpcomingRow): string {
  const why = r.override?.note ? ` (${r.override.note})` : '';
  const parts = r.dropped ? [droppedText(r.dropped)] : r.notes.map(noteWords);
  return parts.length === 0 ? '' : `${parts.join('; ')}${r.overridden ? why : ''}`;
}

type Form = { instant: string; kind: 'move' | 'payload' } | null;

export function OccurrencesPanel({ schedule, now, onChanged }: OccurrencesPanelProps) {
  const { api } = useSession();
  const key = schedule.key;
  const base = [...queryKeys.schedule(key), schedule.version, schedule.state];
  const preview = usePolled(
    [...base, 'upcoming'],
    (signal) => api.schedulePreview(key, LISTED, signal, { explain: true }),
    30_000,
  );
  // Overrides of occurrences a calendar pushes beyond the first ten are found further on.
  const list = usePolled([...base, 'occurrences'], (signal) => api.occurrences(key, 30, signal), 30_000);
  const [error, setError] = useState<unknown>(null);
  const [form, setForm] = useState<Form>(null);
  const [value, setValue] = useState('');
  const act = async (fn: () => Promise<unknown>): Promise<void> => {
    setError(null);
    try {
      await fn();
      setForm(null);
      onChanged();
    } catch (e) {
      setError(e);
    }
  };
  const open = (instant: string, kind: 'move' | 'payload'): void => {
    setForm({ instant, kind });
    setValue('');
  };
  const submit = (instant: string, kind: 'move' | 'payload'): Promise<void> => {
    if (kind === 'move') return act(() => api.overrideOccurrence(key, instant, { kind, moveTo: value }));
    let payload: unknown;
    try {
      payload = JSON.parse(value);
    } catch {
      setError(new Error('The payload must be JSON, such as {"report": "daily"}.'));
      return Promise.resolve();
    }
    return act(() => api.overrideOccurrence(key, instant, { kind, payload }));
  };
  const rows = preview.data && list.data ? upcomingRows(preview.data, list.data.occurrences) : undefined;
  return (
    <section aria-labelledby="occurrences-heading" data-testid="occurrences">
      <h2 id="occurrences-heading">Upcoming occurrences</h2>
      <p className="muted">As they will run: calendars and overrides applied.</p>
      <Status loading={preview.loading || list.loading} error={preview.error ?? list.error} />
      {error !== null && <p className="form-error">{describeError(error)}</p>}
      <ol className="occurrences">
        {rows?.map((r) => {
          const text = rowText(r);
          return (
            <li
              key={r.scheduledFor}
              data-scheduled-for={r.scheduledFor}
              data-dropped={r.dropped?.reason ?? ''}
              data-override={r.overridden ? 'true' : ''}
            >
              {r.at === null ? (
                <s>
                  <Instant value={r.scheduledFor} tz={schedule.tz} both={false} now={now} />
                </s>
              ) : (
                <Instant value={r.at} tz={schedule.tz} both={false} now={now} />
              )}
              {text && <span className="muted"> ({text})</span>}{' '}
              {r.overridden ? (
                <button type="button" onClick={() => act(() => api.removeOverride(key, r.scheduledFor))}>
                  Undo
                </button>
              ) : r.dropped === null ? (
                <>
                  <button
                    type="button"
                    onClick={() => act(() => api.overrideOccurrence(key, r.scheduledFor, { kind: 'skip' }))}
                  >
                    Skip
                  </button>{' '}
                  <button type="button" onClick={() => open(r.scheduledFor, 'move')}>
                    Move…
                  </button>{' '}
                  <button type="button" onClick={() => open(r.scheduledFor, 'payload')}>
                    Payload…
                  </button>
                </>
              ) : null}
              {form?.instant === r.scheduledFor && (
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    void submit(r.scheduledFor, form.kind);
                  }}
                >
                  <label>
                    {form.kind === 'move' ? 'Run at (ISO-8601 instant)' : 'Payload of this occurrence (JSON)'}{' '}
                    {form.kind === 'move' ? (
                      <input
                        value={value}
                        onChange={(e) => setValue(e.target.value)}
                        placeholder={r.scheduledFor}
                      />
                    ) : (
                      <textarea value={value} onChange={(e) => setValue(e.target.value)} rows={3} />
                    )}
                  </label>{' '}
                  <button type="submit">{form.kind === 'move' ? 'Move' : 'Save payload'}</button>
                </form>
              )}
            </li>
          );
        })}
      </ol>
      {rows && rows.length === 0 && <p className="muted">No occurrence ahead.</p>}
    </section>
  );
}
