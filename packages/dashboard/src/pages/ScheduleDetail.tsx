// One schedule: its spec, description, policies and payload; its next 10 fire times as they will really run
// (its calendars and overrides applied, with their notes); a chart of lateness
// and duration of its last runs; its runs (updating live); and the actions (pause, resume, trigger,
// backfill, delete); its History of changes (with rollback). The latest run's reason answers "why didn't it
// run?" at the top.
import { useEffect, useMemo, useRef, useState } from 'react';
import { isApiError, RUN_STATES, type RunState } from '../api.ts';
import { Field } from '../components/Field.tsx';
import { AlertsPanel } from '../components/AlertsPanel.tsx';
import { HistoryPanel } from '../components/HistoryPanel.tsx';
import { Instant } from '../components/Instant.tsx';
import { NextFire } from '../components/NextFire.tsx';
import { JsonView } from '../components/JsonView.tsx';
import { Layout } from '../components/Layout.tsx';
import { Link } from '../components/Link.tsx';
import { Pager } from '../components/Pager.tsx';
import { PreviewPanel } from '../components/PreviewPanel.tsx';
import { OccurrencesPanel } from '../components/OccurrencesPanel.tsx';
import { RunsTable } from '../components/RunsTable.tsx';
import { ScheduleActions } from '../components/ScheduleActions.tsx';
import { TargetView } from '../components/TargetView.tsx';
import { StateBadge } from '../components/StateBadge.tsx';
import { Status } from '../components/Status.tsx';
import { TimeChart } from '../components/TimeChart.tsx';
import { useSession } from '../lib/context.ts';
import { useCursors } from '../lib/pager.ts';
import { useNow } from '../lib/hooks.ts';
import { queryKeys, useInvalidate, usePolled } from '../lib/query.ts';
import { paths } from '../lib/router.ts';
import { durationMs, isFinal, latenessMs, reasonText } from '../lib/runs.ts';
import { policyRows, targetText } from '../lib/schedules.ts';
import { formatDuration, formatSeconds } from '../lib/time.ts';

export function ScheduleDetail({ scheduleKey }: { scheduleKey: string }) {
  const { api } = useSession();
  const now = useNow();
  const schedule = usePolled(
    queryKeys.schedule(scheduleKey),
    (signal) => api.getSchedule(scheduleKey, signal),
    5_000,
  );
  const s = schedule.data;

  // As it will really run: the schedule's calendars and overrides applied by the service, with their notes.
  const preview = usePolled(
    queryKeys.schedulePreview(scheduleKey, s?.version ?? 0),
    (signal) => api.schedulePreview(scheduleKey, 10, signal),
    60_000,
    { enabled: s !== undefined },
  );

  const [stateFilter, setStateFilter] = useState<RunState | ''>('');
  const cursors = useCursors(`${scheduleKey}|${stateFilter}`);
  const runsQuery = { limit: 50, cursor: cursors.cursor, state: stateFilter || undefined };
  const runs = usePolled(
    queryKeys.scheduleRuns(scheduleKey, runsQuery),
    (signal) => api.scheduleRuns(scheduleKey, runsQuery, signal),
    2_000,
  );
  const history = usePolled(
    queryKeys.scheduleRuns(scheduleKey, { limit: 200 }),
    (signal) => api.scheduleRuns(scheduleKey, { limit: 200 }, signal),
    10_000,
  );
  // The chart and the latest outcome follow the runs table: reload them when a run there changes state.
  const runStates = (runs.data?.items ?? []).map((r) => `${r.id}:${r.state}`).join(',');
  const seenStates = useRef(runStates);
  const refreshHistory = history.refresh;
  useEffect(() => {
    if (seenStates.current === runStates) return;
    seenStates.current = runStates;
    refreshHistory();
  }, [runStates, refreshHistory]);

  const chart = useMemo(() => {
    const started = (history.data?.items ?? [])
      .filter((r) => r.startedAt !== null)
      .sort((a, b) => Date.parse(a.scheduledFor) - Date.parse(b.scheduledFor));
    const sec = (ms: number | null): number | null => (ms === null ? null : ms / 1000);
    return {
      times: started.map((r) => Date.parse(r.scheduledFor)),
      series: [
        {
          label: 'Late by (s)',
          values: started.map((r) => sec(latenessMs(r))),
          color: '#d97706',
          points: true,
          format: formatSeconds,
        },
        {
          label: 'Took (s)',
          values: started.map((r) => sec(durationMs(r))),
          color: '#2563eb',
          points: true,
          scale: 'y2' as const,
          format: formatSeconds,
        },
      ],
    };
  }, [history.data]);

  const latest = (history.data?.items ?? []).find((r) => isFinal(r.state));
  const invalidate = useInvalidate();
  const refreshAll = (): void => void invalidate();

  if (schedule.error && isApiError(schedule.error) && schedule.error.status === 404) {
    return (
      <Layout title={scheduleKey}>
        <h1>{scheduleKey}</h1>
        <p className="empty">
          There is no schedule with this key (it may have been deleted).{' '}
          <Link href={paths.schedules()}>All schedules</Link>
        </p>
      </Layout>
    );
  }

  return (
    <Layout title={scheduleKey}>
      <p className="crumbs">
        <Link href={paths.schedules()}>Schedules</Link> /
      </p>
      <div className="page-head">
        <h1>
          <span className="key">{scheduleKey}</span> {s && <StateBadge state={s.state} />}
        </h1>
      </div>
      <Status loading={schedule.loading} error={schedule.error} updatedAt={schedule.updatedAt} />
      {s && (
        <>
          {s.state === 'paused' && (
            <p className="note" data-testid="paused-note">
              Paused{s.note ? `: ${s.note}` : '.'} Occurrences are skipped until it is resumed.
            </p>
          )}
          <ScheduleActions schedule={s} onChanged={refreshAll} />
          <div className="grid-2">
            <section aria-labelledby="def-heading">
              <h2 id="def-heading">Definition</h2>
              <dl className="props">
                <dt>Spec</dt>
                <dd>
                  <code data-testid="schedule-spec">{s.spec}</code>
                </dd>
                <dt>Description</dt>
                <dd>{s.description}</dd>
                <dt>Time zone</dt>
                <dd>{s.tz}</dd>
                <dt>Target</dt>
                <dd>{targetText(s.target)}</dd>
                <dt>Next fire time</dt>
                <dd>
                  <NextFire schedule={s} now={now} />
                </dd>
                <dt>Starts</dt>
                <dd>
                  <Instant value={s.startAt} tz={s.tz} empty="at once" />
                </dd>
                <dt>Ends</dt>
                <dd>
                  <Instant value={s.endAt} tz={s.tz} empty="never" />
                </dd>
                <dt>Runs</dt>
                <dd>
                  {s.firedCount} executed
                  {s.maxRuns !== null
                    ? `; ${s.materializedCount} of at most ${s.maxRuns} occurrences written`
                    : ''}
                </dd>
                <dt>Jitter</dt>
                <dd>{s.jitterMs > 0 ? `up to ${formatDuration(s.jitterMs)}` : 'none'}</dd>
                <dt>Version</dt>
                <dd>
                  {s.version}, changed <Instant value={s.updatedAt} both={false} now={now} />
                </dd>
              </dl>
              <h3>Policies</h3>
              <dl className="props">
                {policyRows(s.policies).map(([k, v]) => (
                  <div key={k} className="prop">
                    <dt>{k}</dt>
                    <dd>{v}</dd>
                  </div>
                ))}
              </dl>
              <h3>Target and payload</h3>
              <TargetView target={s.target} />
              <JsonView value={s.payload ?? null} label="Payload" />
            </section>
            <PreviewPanel
              heading="Next 10 fire times"
              preview={preview.data}
              error={preview.error}
              loading={preview.loading}
              tz={s.tz}
              now={now}
              note={
                s.state === 'paused'
                  ? 'Paused: runs at these times are skipped until it is resumed.'
                  : s.state === 'completed'
                    ? 'Completed: it will not fire again.'
                    : undefined
              }
            />
          </div>
        </>
      )}
      <section aria-labelledby="chart-heading">
        <h2 id="chart-heading">Last runs</h2>
        {latest && (
          <p data-testid="latest-run">
            Latest finished run: <StateBadge state={latest.state} /> for{' '}
            <Instant value={latest.scheduledFor} tz={s?.tz} both={false} now={now} />
            {latest.error
              ? ` — ${latest.error.message}`
              : latest.reason
                ? ` — ${reasonText(latest.reason)}`
                : ''}
          </p>
        )}
        {chart.times.length > 0 ? (
          <TimeChart
            title={`Lateness and duration of the last ${chart.times.length} started runs, by scheduled time`}
            times={chart.times}
            series={chart.series}
            yLabel="late by (s)"
            y2Label="took (s)"
            fit="data"
          />
        ) : (
          <p className="muted">No run has started yet.</p>
        )}
      </section>
      <section aria-labelledby="runs-heading">
        <div className="page-head">
          <h2 id="runs-heading">Runs</h2>
          <Field id="runs-state" label="State" className="inline">
            <select value={stateFilter} onChange={(e) => setStateFilter(e.target.value as RunState | '')}>
              <option value="">any</option>
              {RUN_STATES.map((st) => (
                <option key={st} value={st}>
                  {st}
                </option>
              ))}
            </select>
          </Field>
          <Link href={paths.runs({ schedule: scheduleKey })}>All runs of this schedule</Link>
        </div>
        <Status loading={runs.loading} error={runs.error} />
        {runs.data && (
          <RunsTable runs={runs.data.items} caption={`Runs of ${scheduleKey}`} tz={s?.tz} now={now} />
        )}
        {(cursors.page > 1 || runs.data?.nextCursor) && (
          <Pager
            label="Run pages"
            page={cursors.page}
            hasNext={Boolean(runs.data?.nextCursor)}
            onPrev={cursors.prev}
            onNext={() => runs.data?.nextCursor && cursors.next(runs.data.nextCursor)}
          />
        )}
      </section>
      {s && s.state !== 'completed' && <OccurrencesPanel schedule={s} now={now} onChanged={refreshAll} />}
      {s && <AlertsPanel scheduleKey={s.key} now={now} tz={s.tz} />}
      {s && <HistoryPanel schedule={s} now={now} onChanged={refreshAll} />}
    </Layout>
  );
}
