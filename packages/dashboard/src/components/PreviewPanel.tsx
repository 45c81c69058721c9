// What a spec means: its description in words and its next fire times, each in the schedule's zone and in
// the viewer's, with what a DST rule did to it (the API's notes). Announced politely as it changes while
// the spec is typed.
import type { Preview, PreviewNote } from '../api.ts';
import { describeError } from '../lib/errors.ts';
import { Instant } from './Instant.tsx';

export interface PreviewPanelProps {
  preview: Preview | undefined;
  tz: string;
  error?: unknown;
  loading?: boolean;
  heading: string;
  now?: number;
  /** Shown instead of the list (for example when the schedule is paused). */
  note?: string | undefined;
}

/** A note in words, local times as the wall clock shows them. */
export function noteText(n: PreviewNote): string {
  const hm = (wall: string): string => wall.slice(11, 16);
  switch (n.kind) {
    case 'dstShifted':
      return `DST: ${hm(n.asked)} does not exist that day, runs at ${hm(n.used)}`;
    case 'dstRepeat':
      return n.pass === 1 ? 'DST: repeated hour, first pass' : 'DST: repeated hour, second pass';
    case 'rolled':
      return `moved off a non-working day (${n.calendar})`;
    case 'moved':
      return 'moved by an override';
    case 'payloadOverridden':
      return 'payload overridden';
  }
}

export function PreviewPanel({ preview, tz, error, loading, heading, now, note }: PreviewPanelProps) {
  return (
    <section className="preview" aria-labelledby="preview-heading">
      <h2 id="preview-heading">{heading}</h2>
      <p
        id="preview-description"
        className="preview-description"
        aria-live="polite"
        data-loading={loading ? 'true' : 'false'}
      >
        {error !== undefined && error !== null ? (
          <span className="error-text">{describeError(error)}</span>
        ) : preview ? (
          preview.description
        ) : loading ? (
          'Reading the spec…'
        ) : (
          'Type a spec to see when it fires.'
        )}
      </p>
      {note && <p className="note">{note}</p>}
      {preview && !error && preview.occurrences.length > 0 && (
        <ol className="preview-next" data-testid="preview-next">
          {preview.occurrences.map((o) => (
            <li key={o.at}>
              <Instant value={o.at} tz={tz} now={now} />
              {o.notes.length > 0 && (
                <span className="preview-notes muted" data-testid="preview-notes">
                  {' '}
                  ({o.notes.map(noteText).join('; ')})
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
      {preview && !error && preview.occurrences.length === 0 && <p className="muted">No fire times ahead.</p>}
    </section>
  );
}
