// One run: its state and why, its times (each with its zone), every attempt with timing and the response or
// error, its result, and the logs a script target recorded. Refreshes until the run is final; a run still
// scheduled or running can be cancelled.
import { useState } from 'react';
import { isApiError, type Attempt } from '../api.ts';
import { ErrorDetails } from '../components/ErrorDetails.tsx';
import { Instant } from '../components/Instant.tsx';
import { JsonView } from '../components/JsonView.tsx';
import { Layout } from '../components/Layout.tsx';
import { Link } from '../components/Link.tsx';
import { StateBadge } from '../components/StateBadge.tsx';
import { Status } from '../components/Status.tsx';
import { useSession } from '../lib/context.ts';
import { describeError } from '../lib/errors.ts';
import { useNow } from '../lib/hooks.ts';
import { queryKeys, useInvalidate, usePolled } from '../lib/query.ts';
import { paths } from '../lib/router.ts';
import { durationMs, isFinal, latenessMs, logsOf, reasonText } from '../lib/runs.ts';
import { formatDuration } from '../lib/time.ts';

function AttemptRow({ a }: { a: Attempt }) {
  const logs = logsOf(a.result);
  return (
    <tr>
      <td data-label="Attempt">{a.attempt}</td>
      <td data-label="Started">
        <Instant value={a.startedAt} />
      </td>
      <td data-label="Took">{formatDuration(Date.parse(a.finishedAt) - Date.parse(a.startedAt))}</td>
      <td data-label="Outcome">{a.outcome}</td>
      <td data-label="Response or error" className="wrap">
        {a.error ? (
          <>
            <span className="error-text">
              {a.error.code ? <code>{a.error.code}</code> : null} {a.error.message}
            </span>
            <ErrorDetails error={a.error} label={`attempt ${a.attempt}`} />
          </>
        ) : a.result !== null && a.result !== undefined ? (
          <JsonView value={a.result} label={`Result of attempt ${a.attempt}`} />
        ) : (
          <span className="muted">no result</span>
        )}
        {logs && (
          <pre className="logs" aria-label={`Logs of attempt ${a.attempt}`} tabIndex={0}>
            {logs.join('\n')}
          </pre>
        )}
      </td>
    </tr>
  );
}

export function RunDetail({ id }: { id: string }) {
  const { api } = useSession();
  const now = useNow();
  const run = usePolled(queryKeys.run(id), (signal) => api.getRun(id, signal), 2_000);
  const invalidate = useInvalidate();
  const [message, setMessage] = useState<string | null>(null);
  const r = run.data;

  if (run.error && isApiError(run.error) && run.error.status === 404) {
    return (
      <Layout title="Run">
        <h1>Run {id}</h1>
        <p className="empty">There is no run with this id.</p>
      </Layout>
    );
  }

  const cancel = async (): Promise<void> => {
    setMessage('Cancelling…');
    try {
      await api.cancelRun(id);
      setMessage('Cancelled.');
      await invalidate();
    } catch (e) {
      setMessage(`Cancel failed: ${describeError(e)}`);
    }
  };
  const runLogs = r ? logsOf(r.result) : null;

  return (
    <Layout title={`Run ${id}`}>
      <p className="crumbs">
        <Link href={paths.runs()}>Runs</Link> /{' '}
        {r && (
          <>
            <Link href={paths.schedule(r.scheduleKey)}>{r.scheduleKey}</Link> /
          </>
        )}
      </p>
      <h1>
        Run <span className="mono">{id}</span> {r && <StateBadge state={r.state} />}
      </h1>
      <Status loading={run.loading} error={run.error} updatedAt={run.updatedAt} message={message} />
      {r && (
        <>
          {!isFinal(r.state) && (
            <div className="toolbar">
              <button type="button" className="danger" onClick={() => void cancel()}>
                Cancel run
              </button>
            </div>
          )}
          <dl className="props">
            <dt>Schedule</dt>
            <dd>
              <Link href={paths.schedule(r.scheduleKey)}>{r.scheduleKey}</Link>
            </dd>
            <dt>Kind</dt>
            <dd>{r.kind}</dd>
            <dt>Occurrence id</dt>
            <dd className="mono">{r.occurrenceId}</dd>
            <dt>Scheduled for</dt>
            <dd>
              <Instant value={r.scheduledFor} now={now} />
            </dd>
            <dt>Due</dt>
            <dd>
              <Instant value={r.dueAt} now={now} />
            </dd>
            {r.expiresAt && (
              <>
                <dt>Expires</dt>
                <dd>
                  <Instant value={r.expiresAt} now={now} />
                </dd>
              </>
            )}
            <dt>Started</dt>
            <dd>
              <Instant value={r.startedAt} empty="not yet" />{' '}
              {latenessMs(r) !== null && (
                <span className="muted">(late by {formatDuration(latenessMs(r))})</span>
              )}
            </dd>
            <dt>Finished</dt>
            <dd>
              <Instant value={r.finishedAt} empty="not yet" />{' '}
              {durationMs(r) !== null && (
                <span className="muted">(took {formatDuration(durationMs(r))})</span>
              )}
            </dd>
            <dt>Attempts</dt>
            <dd>
              {r.attempt} of at most {r.maxAttempts}
              {r.checks > 0 ? `, ${r.checks} checks` : ''}
            </dd>
            <dt>Why</dt>
            <dd>{r.reason ? reasonText(r.reason) : <span className="muted">—</span>}</dd>
            {r.error && (
              <>
                <dt>Error</dt>
                <dd>
                  <span className="error-text">
                    {r.error.code ? <code>{r.error.code}</code> : null} {r.error.message}
                  </span>
                  <ErrorDetails error={r.error} label="the run" />
                </dd>
              </>
            )}
          </dl>
          <section aria-labelledby="attempts-heading">
            <h2 id="attempts-heading">Attempts</h2>
            {r.attempts.length === 0 ? (
              <p className="muted">No attempt yet.</p>
            ) : (
              <div className="table-wrap">
                <table className="cards">
                  <thead>
                    <tr>
                      <th scope="col">Attempt</th>
                      <th scope="col">Started</th>
                      <th scope="col">Took</th>
                      <th scope="col">Outcome</th>
                      <th scope="col">Response or error</th>
                    </tr>
                  </thead>
                  <tbody>
                    {r.attempts.map((a) => (
                      <AttemptRow key={`${a.attempt}-${a.startedAt}`} a={a} />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
          <section aria-labelledby="result-heading">
            <h2 id="result-heading">Result</h2>
            <JsonView value={r.result ?? null} label="Result of the run" />
            {runLogs && (
              <>
                <h3>Logs</h3>
                <pre className="logs" tabIndex={0} aria-label="Logs of the run">
                  {runLogs.join('\n')}
                </pre>
              </>
            )}
            {r.details !== null && r.details !== undefined && (
              <>
                <h3>Details</h3>
                <JsonView value={r.details} label="Details of the run" />
              </>
            )}
          </section>
        </>
      )}
    </Layout>
  );
}
