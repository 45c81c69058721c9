// The polite live region of a page: loading, "updated at", and errors of background refreshes are announced
// here without moving focus.
import { describeError } from '../lib/errors.ts';
import { formatInstant, viewerZone } from '../lib/time.ts';

export interface StatusProps {
  loading?: boolean;
  error?: unknown;
  updatedAt?: number | null;
  message?: string | null | undefined;
}

export function Status({ loading, error, updatedAt, message }: StatusProps) {
  let text = '';
  if (error !== undefined && error !== null) text = describeError(error);
  else if (message) text = message;
  else if (loading) text = 'Loading…';
  else if (updatedAt) text = `Updated ${formatInstant(updatedAt, viewerZone(), { weekday: false })}`;
  const bad = error !== undefined && error !== null;
  return (
    <p className={`status${bad ? ' status-error' : ''}`} role="status" aria-live="polite">
      {text}
    </p>
  );
}
