// Every run of the tenant, newest first, filtered by state, schedule and time range (typed in the viewer's
// zone), with a timeline of outcomes over the last 24 hours. Both refresh themselves while the tab is visible.
import { useEffect, useState } from 'react';
import { RUN_STATES, type Run, type RunState } from '../api.ts';
import { Field } from '../components/Field.tsx';
import { Layout } from '../components/Layout.tsx';
import { Pager } from '../components/Pager.tsx';
import { RunsTable } from '../components/RunsTable.tsx';
import { Status } from '../components/Status.tsx';
import { Timeline } from '../components/Timeline.tsx';
import { useSession } from '../lib/context.ts';
import { useCursors } from '../lib/pager.ts';
import { useDebounced, useNow } from '../lib/hooks.ts';
import { queryKeys, usePolled } from '../lib/query.ts';
import { useQuery } from '../lib/router.ts';
import { timelineBuckets } from '../lib/runs.ts';
import { isoOf, viewerZone, wallTimeToInstant } from '../lib/time.ts';

/** Pages of 1000 read for the timeline at most (a busier tenant sees the first 5000 runs of the day). */
const TIMELINE_PAGES = 5;

export function Runs() {
  const { api } = useSession();
  const now = useNow(30_000);
  const tz = viewerZone();
  const [query, setQuery] = useQuery();
  const [schedule, setSchedule] = useState(query.schedule ?? '');
  const debouncedSchedule = useDebounced(schedule.trim(), 300);
  useEffect(() => {
    if ((query.schedule ?? '') !== debouncedSchedule) setQuery({ schedule: debouncedSchedule });
  }, [debouncedSchedule, query.schedule, setQuery]);

  const state = RUN_STATES.includes(query.state as RunState) ? (query.state as RunState) : undefined;
  const fromMs = query.from ? wallTimeToInstant(query.from, tz) : null;
  const toMs = query.to ? wallTimeToInstant(query.to, tz) : null;
  const scheduleKey = query.schedule?.trim() || undefined;
  const filterKey = JSON.stringify([state, scheduleKey, fromMs, toMs]);
  const cursors = useCursors(filterKey);

  const runQuery = {
    state,
    scheduleKey,
    from: fromMs === null ? undefined : isoOf(fromMs),
    to: toMs === null ? undefined : isoOf(toMs),
    cursor: cursors.cursor,
    limit: 50,
  };
  const runs = usePolled(queryKeys.runs(runQuery), (signal) => api.listRuns(runQuery, signal), 3_000);

  const timeline = usePolled(
    queryKeys.runs({ timeline: scheduleKey ?? null }),
    async (signal) => {
      const t = Date.now();
      const items: Run[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await api.listRuns(
          { scheduleKey, from: isoOf(t - 86_400_000), to: isoOf(t + 3_600_000), cursor, limit: 1000 },
          signal,
        );
        items.push(...page.items);
        cursor = page.nextCursor ?? undefined;
        pages++;
      } while (cursor && pages < TIMELINE_PAGES);
      return { buckets: timelineBuckets(items, t), truncated: cursor !== undefined };
    },
    15_000,
  );

  return (
    <Layout title="Runs">
      <h1>Runs</h1>
      {timeline.data && (
        <Timeline
          buckets={timeline.data.buckets}
          note={
            timeline.data.truncated ? `counting the latest ${TIMELINE_PAGES * 1000} runs only` : undefined
          }
        />
      )}
      <form className="filters" role="search" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
        <Field id="runs-filter-state" label="State">
          <select value={state ?? ''} onChange={(e) => setQuery({ state: e.target.value })}>
            <option value="">any</option>
            {RUN_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Field>
        <Field id="runs-filter-schedule" label="Schedule key">
          <input
            type="search"
            value={schedule}
            onChange={(e) => setSchedule(e.target.value)}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <Field id="runs-filter-from" label={`Scheduled from (${tz})`}>
          <input
            type="text"
            inputMode="numeric"
            placeholder="YYYY-MM-DDTHH:MM"
            autoComplete="off"
            spellCheck={false}
            className="mono"
            value={query.from ?? ''}
            onChange={(e) => setQuery({ from: e.target.value })}
          />
        </Field>
        <Field id="runs-filter-to" label={`Scheduled before (${tz})`}>
          <input
            type="text"
            inputMode="numeric"
            placeholder="YYYY-MM-DDTHH:MM"
            autoComplete="off"
            spellCheck={false}
            className="mono"
            value={query.to ?? ''}
            onChange={(e) => setQuery({ to: e.target.value })}
          />
        </Field>
      </form>
      <Status loading={runs.loading} error={runs.error} updatedAt={runs.updatedAt} />
      {runs.data && <RunsTable runs={runs.data.items} caption="Runs of the tenant" showSchedule now={now} />}
      {(cursors.page > 1 || runs.data?.nextCursor) && (
        <Pager
          label="Run pages"
          page={cursors.page}
          hasNext={Boolean(runs.data?.nextCursor)}
          onPrev={cursors.prev}
          onNext={() => runs.data?.nextCursor && cursors.next(runs.data.nextCursor)}
        />
      )}
    </Layout>
  );
}
