// A schedule's upcoming occurrences with their overrides (GET /v1/schedules/{key}/occurrences): each nominal
// instant, when it runs, what an override did to it in the preview's words ("moved by an override", "skipped
// by override"), and buttons to skip one, move one to another instant, or undo its override. It only shows
// the service's answers and sends the user's requests; whether an instant may be changed is the service's
// decision (its error is shown).
import { useState } from 'react';
import type { Occurrence, Schedule } from '../api.ts';
import { useSession } from '../lib/context.ts';
import { describeError } from '../lib/errors.ts';
import { queryKeys, usePolled } from '../lib/query.ts';
import { Instant } from './Instant.tsx';
import { noteText } from './PreviewPanel.tsx';
import { Status } from './Status.tsx';

export interface OccurrencesPanelProps {
  schedule: Schedule;
  now: number;
  /** Called after a change (the page reloads its reads). */
  onChanged: () => void;
}

/** What an override does to an occurrence, in the words of the preview's notes and drop reasons. */
export function overrideText(o: Occurrence): string {
  const ov = o.override;
  if (ov === null) return '';
  const why = ov.note ? ` (${ov.note})` : '';
  if (ov.kind === 'skip') return `skipped by override${why}`;
  if (ov.kind === 'move')
    return `${noteText({ kind: 'moved', from: o.scheduledFor })} from ${o.scheduledFor}${why}`;
  return `${noteText({ kind: 'payloadOverridden' })}${why}`;
}

export function OccurrencesPanel({ schedule, now, onChanged }: OccurrencesPanelProps) {
  const { api } = useSession();
  const key = schedule.key;
  const list = usePolled(
    [...queryKeys.schedule(key), 'occurrences', schedule.version, schedule.state],
    (signal) => api.occurrences(key, 10, signal),
    30_000,
  );
  const [error, setError] = useState<unknown>(null);
  const [moving, setMoving] = useState<string | null>(null);
  const [moveTo, setMoveTo] = useState('');
  const act = async (fn: () => Promise<unknown>): Promise<void> => {
    setError(null);
    try {
      await fn();
      setMoving(null);
      onChanged();
    } catch (e) {
      setError(e);
    }
  };
  return (
    <section aria-labelledby="occurrences-heading" data-testid="occurrences">
      <h2 id="occurrences-heading">Upcoming occurrences</h2>
      <Status loading={list.loading} error={list.error} />
      {error !== null && <p className="form-error">{describeError(error)}</p>}
      <ol className="occurrences">
        {list.data?.occurrences.map((o) => (
          <li key={o.scheduledFor} data-override={o.override?.kind ?? ''}>
            <Instant value={o.at ?? o.scheduledFor} tz={schedule.tz} both={false} now={now} />
            {o.override && <span className="muted"> ({overrideText(o)})</span>}{' '}
            {o.override ? (
              <button type="button" onClick={() => act(() => api.removeOverride(key, o.scheduledFor))}>
                Undo
              </button>
            ) : (
              <>
                <button
                  type="button"
                  onClick={() => act(() => api.overrideOccurrence(key, o.scheduledFor, { kind: 'skip' }))}
                >
                  Skip
                </button>{' '}
                <button type="button" onClick={() => setMoving(o.scheduledFor)}>
                  Move…
                </button>
              </>
            )}
            {moving === o.scheduledFor && (
              <form
                onSubmit={(e) => {
                  e.preventDefault();
                  void act(() => api.overrideOccurrence(key, o.scheduledFor, { kind: 'move', moveTo }));
                }}
              >
                <label>
                  Run at (ISO-8601 instant){' '}
                  <input
                    value={moveTo}
                    onChange={(e) => setMoveTo(e.target.value)}
                    placeholder={o.scheduledFor}
                  />
                </label>{' '}
                <button type="submit">Move</button>
              </form>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
