// What a failed run's error carries beyond its code and message: a script's console output (`details.logs`)
// and its stack (`details.stack`), each in a collapsible monospace block. Shows nothing when the error has
// neither, and reads them defensively: the service caps their size, but the shape is not trusted here.
import type { RunError, RunErrorDetails } from '../api.ts';

/** The logs and stack of an error's details, when present and of the expected types. */
export function errorDetailsOf(error: RunError | null | undefined): RunErrorDetails {
  const d = (error as { details?: unknown } | null | undefined)?.details;
  if (typeof d !== 'object' || d === null) return {};
  const { logs, stack } = d as Record<string, unknown>;
  const out: RunErrorDetails = {};
  if (Array.isArray(logs) && logs.length > 0)
    out.logs = logs.map((l) => (typeof l === 'string' ? l : JSON.stringify(l)));
  if (typeof stack === 'string' && stack !== '') out.stack = stack;
  return out;
}

export function ErrorDetails({ error, label }: { error: RunError | null | undefined; label: string }) {
  const { logs, stack } = errorDetailsOf(error);
  if (!logs && !stack) return null;
  return (
    <div className="error-details">
      {logs && (
        <details open data-testid="error-logs">
          <summary>
            Script logs of {label} ({logs.length} lines)
          </summary>
          <pre className="logs" tabIndex={0} aria-label={`Script logs of ${label}`}>
            {logs.join('\n')}
          </pre>
        </details>
      )}
      {stack && (
        <details data-testid="error-stack">
          <summary>Stack of {label}</summary>
          <pre className="logs" tabIndex={0} aria-label={`Stack of ${label}`}>
            {stack}
          </pre>
        </details>
      )}
    </div>
  );
}
