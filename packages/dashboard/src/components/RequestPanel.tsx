// The request the schedule form's Save sends: its method and path (once a key is typed), the If-Match of an
// edit, the body as JSON, and the fields left out of it until fixed. It only shows what the form built; it
// never sends anything.
import type { BuiltBody } from '../lib/form.ts';
import { JsonView } from './JsonView.tsx';

export interface RequestPanelProps {
  /** The schedule's key ('' while none is typed). */
  requestKey: string;
  /** The version an edit sends as If-Match (undefined: a create). */
  version: number | undefined;
  built: BuiltBody;
}

export function RequestPanel({ requestKey, version, built }: RequestPanelProps) {
  return (
    <details className="raw" open>
      <summary>Request that Save sends</summary>
      <p className="mono small">
        {requestKey === '' ? (
          <span className="muted">PUT /v1/schedules/… (type a key)</span>
        ) : (
          `PUT /v1/schedules/${encodeURIComponent(requestKey)}`
        )}
        {version !== undefined && (
          <>
            <br />
            If-Match: {version}
          </>
        )}
      </p>
      <JsonView value={built.body} label="Request body as JSON" />
      {Object.keys(built.errors).length > 0 && (
        <p className="muted small">Left out until fixed: {Object.keys(built.errors).join(', ')}.</p>
      )}
    </details>
  );
}
