// The schedules of the tenant: search by key prefix, filter by state and target, page through any number of
// them, and see for each its next fire time (in its zone and the viewer's), its last outcome and a spark
// line of recent outcomes. Refreshes itself while the tab is visible.
import { useEffect, useMemo, useState } from 'react';
import {
  SCHEDULE_STATES,
  TARGET_KINDS,
  type RunState,
  type Schedule,
  type ScheduleState,
  type TargetKind,
} from '../api.ts';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';
import { Field } from '../components/Field.tsx';
import { NextFire } from '../components/NextFire.tsx';
import { Layout } from '../components/Layout.tsx';
import { Link } from '../components/Link.tsx';
import { Pager } from '../components/Pager.tsx';
import { KeyText } from '../components/KeyText.tsx';
import { SparkLegend, Sparkline } from '../components/Sparkline.tsx';
import { StateBadge } from '../components/StateBadge.tsx';
import { AlertsPanel } from '../components/AlertsPanel.tsx';
import { Status } from '../components/Status.tsx';
import { useSession } from '../lib/context.ts';
import { useCursors } from '../lib/pager.ts';
import { useDebounced, useNow } from '../lib/hooks.ts';
import { queryKeys, usePolled } from '../lib/query.ts';
import { paths, useQuery } from '../lib/router.ts';
import { recentOutcomesByKey } from '../lib/runs.ts';
import { targetText } from '../lib/schedules.ts';

const PAGE_SIZES = [25, 50, 100];
/** How many of the tenant's latest runs the Recent column is drawn from. */
const RECENT_RUNS = 500;

export function Schedules() {
  const { api } = useSession();
  const now = useNow();
  const [query, setQuery] = useQuery();
  const [search, setSearch] = useState(query.q ?? '');
  const debounced = useDebounced(search, 300);
  useEffect(() => {
    if ((query.q ?? '') !== debounced) setQuery({ q: debounced });
  }, [debounced, query.q, setQuery]);

  const state = SCHEDULE_STATES.includes(query.state as ScheduleState)
    ? (query.state as ScheduleState)
    : undefined;
  const target = TARGET_KINDS.includes(query.target as TargetKind) ? (query.target as TargetKind) : undefined;
  const limit = PAGE_SIZES.includes(Number(query.limit)) ? Number(query.limit) : 25;
  const keyPrefix = query.q?.trim() || undefined;
  const filterKey = JSON.stringify([state, target, limit, keyPrefix]);
  const cursors = useCursors(filterKey);

  const listQuery = { state, target, keyPrefix, limit, cursor: cursors.cursor };
  const list = usePolled(
    queryKeys.schedules(listQuery),
    (signal) => api.listSchedules(listQuery, signal),
    10_000,
  );

  // One request for the outcomes of every row (never one per schedule): the tenant's latest runs, grouped.
  const recent = usePolled(
    queryKeys.runs({ recent: RECENT_RUNS }),
    (signal) => api.listRuns({ limit: RECENT_RUNS }, signal),
    10_000,
  );
  const outcomes = useMemo(() => {
    const items = recent.data?.items;
    if (!items) return undefined;
    return recentOutcomesByKey(items);
  }, [recent.data]);

  const items: Schedule[] = list.data?.items ?? [];
  return (
    <Layout title="Schedules">
      <div className="page-head">
        <h1>Schedules</h1>
        <Link className="button primary" href={paths.scheduleNew()}>
          New schedule
        </Link>
      </div>
      <form
        className="filters"
        role="search"
        aria-label="Filter schedules"
        onSubmit={(e) => e.preventDefault()}
      >
        <Field id="filter-key" label="Key starts with">
          <input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="reports."
          />
        </Field>
        <Field id="filter-state" label="State">
          <select value={state ?? ''} onChange={(e) => setQuery({ state: e.target.value })}>
            <option value="">any</option>
            {SCHEDULE_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Field>
        <Field id="filter-target" label="Target">
          <select value={target ?? ''} onChange={(e) => setQuery({ target: e.target.value })}>
            <option value="">any</option>
            {TARGET_KINDS.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Field>
        <Field id="filter-limit" label="Per page">
          <select
            value={String(limit)}
            onChange={(e) => setQuery({ limit: e.target.value === '25' ? '' : e.target.value })}
          >
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </Field>
      </form>
      <AlertsPanel now={now} />
      <Status loading={list.loading} error={list.error} updatedAt={list.updatedAt} />
      {!list.loading && items.length === 0 && !list.error && (
        <p className="empty">
          {keyPrefix || state || target ? 'No schedule matches these filters.' : 'No schedules yet. '}
          {!(keyPrefix || state || target) && <Link href={paths.scheduleNew()}>Create the first one.</Link>}
        </p>
      )}
      {items.length > 0 && (
        <div className="table-wrap">
          <table className="cards" data-testid="schedules-table">
            <caption className="visually-hidden">Schedules, page {cursors.page}</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Description</th>
                <th scope="col">Time zone</th>
                <th scope="col">Target</th>
                <th scope="col">State</th>
                <th scope="col" className="next-cell">
                  Next fire time
                </th>
                <th scope="col">Last outcome</th>
                <th scope="col">Recent</th>
              </tr>
            </thead>
            <tbody>
              {items.map((s) => {
                const recent = outcomes === undefined ? undefined : (outcomes.get(s.key) ?? []);
                const last = recent && recent.length > 0 ? (recent[recent.length - 1] as RunState) : null;
                return (
                  <ErrorBoundary
                    key={s.key}
                    what={`schedule ${s.key}`}
                    fallback={(e) => (
                      <tr data-key={s.key} className="row-error">
                        <td data-label="Key">
                          <Link href={paths.schedule(s.key)} className="key">
                            {s.key}
                          </Link>
                        </td>
                        <td colSpan={7} className="status-error" role="alert">
                          This row could not be shown: {e.message}
                        </td>
                      </tr>
                    )}
                  >
                    <tr data-key={s.key}>
                      <td data-label="Key" className="key-cell">
                        <Link href={paths.schedule(s.key)} className="key">
                          <KeyText value={s.key} />
                        </Link>
                      </td>
                      <td data-label="Description" className="wrap">
                        {s.description}
                      </td>
                      <td data-label="Time zone">{s.tz}</td>
                      <td data-label="Target">{targetText(s.target)}</td>
                      <td data-label="State">
                        <StateBadge state={s.state} title={s.note ?? undefined} />
                      </td>
                      <td data-label="Next fire time" className="next-cell">
                        <NextFire schedule={s} now={now} />
                      </td>
                      <td data-label="Last outcome">
                        {recent === undefined ? (
                          <span className="muted">…</span>
                        ) : (
                          <StateBadge state={last} />
                        )}
                      </td>
                      <td data-label="Recent">
                        <Sparkline outcomes={recent} />
                      </td>
                    </tr>
                  </ErrorBoundary>
                );
              })}
            </tbody>
          </table>
          <SparkLegend />
        </div>
      )}
      {(cursors.page > 1 || list.data?.nextCursor) && (
        <Pager
          label="Schedule pages"
          page={cursors.page}
          hasNext={Boolean(list.data?.nextCursor)}
          onPrev={cursors.prev}
          onNext={() => list.data?.nextCursor && cursors.next(list.data.nextCursor)}
        />
      )}
    </Layout>
  );
}
