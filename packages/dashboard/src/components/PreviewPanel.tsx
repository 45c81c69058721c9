// What a spec means: its description in words and its next fire times, each in the schedule's zone and in
// the viewer's. Announced politely as it changes while the spec is typed.
import type { Preview } from '../api.ts';
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
      {preview && !error && preview.next.length > 0 && (
        <ol className="preview-next" data-testid="preview-next">
          {preview.next.map((t) => (
            <li key={t}>
              <Instant value={t} tz={tz} now={now} />
            </li>
          ))}
        </ol>
      )}
      {preview && !error && preview.next.length === 0 && <p className="muted">No fire times ahead.</p>}
    </section>
  );
}
