// Live data without a reload, on TanStack Query: the query client the App provides (refetch intervals pause
// while the tab is hidden and resume when it is shown; the previous data stays on screen while filters or
// pages change; a refused request is not retried), the query keys of every API read, and `usePolled`, the
// one hook pages read through. Mutations invalidate through `useInvalidate`. It never calls fetch itself.

import {
  keepPreviousData,
  QueryClient,
  useQuery,
  useQueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import { useCallback } from 'react';
import { isApiError } from '../api.ts';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Polling pauses while the tab is hidden; a focus brings the page up to date at once.
        refetchIntervalInBackground: false,
        refetchOnWindowFocus: true,
        placeholderData: keepPreviousData,
        // A 4xx will answer the same again; a network error or 5xx is worth one more try.
        retry: (count, error) =>
          count < 1 && !(isApiError(error) && error.status >= 400 && error.status < 500),
        staleTime: 1_000,
      },
      mutations: { retry: false },
    },
  });
}

/** The query keys of the API reads: everything of one tenant starts with 'api'. */
export const queryKeys = {
  all: ['api'] as const,
  schedules: (q: object) => ['api', 'schedules', q] as const,
  schedule: (key: string) => ['api', 'schedule', key] as const,
  scheduleRuns: (key: string, q: object) => ['api', 'schedule', key, 'runs', q] as const,
  /** A saved schedule's preview, per version (a change of the schedule asks again at once). */
  schedulePreview: (key: string, version: number) => ['api', 'schedule', key, 'preview', version] as const,
  preview: (q: object) => ['api', 'preview', q] as const,
  runs: (q: object) => ['api', 'runs', q] as const,
  run: (id: string) => ['api', 'run', id] as const,
  metrics: ['api', 'metrics'] as const,
  calendars: ['api', 'calendars'] as const,
  calendar: (name: string) => ['api', 'calendar', name] as const,
};

export interface Polled<T> {
  data: T | undefined;
  error: unknown;
  /** True until the first answer (or error). */
  loading: boolean;
  /** When data last arrived (epoch ms). */
  updatedAt: number | null;
  /** Reloads now. */
  refresh: () => void;
}

/**
 * Loads `load()` under `key` and reloads it every `intervalMs` while the tab is visible (0: once). A new key
 * keeps showing the previous key's data until its own arrives. `enabled: false` waits.
 */
export function usePolled<T>(
  key: QueryKey,
  load: (signal: AbortSignal) => Promise<T>,
  intervalMs: number,
  opts: { enabled?: boolean } = {},
): Polled<T> {
  const q = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => load(signal),
    refetchInterval: intervalMs > 0 ? intervalMs : false,
    enabled: opts.enabled ?? true,
  });
  const { refetch } = q;
  const refresh = useCallback(() => void refetch(), [refetch]);
  return {
    data: q.data,
    error: q.error ?? undefined,
    loading: q.isPending && q.fetchStatus !== 'idle',
    updatedAt: q.dataUpdatedAt > 0 ? q.dataUpdatedAt : null,
    refresh,
  };
}

/** After a change: every API read is stale and those on screen reload. */
export function useInvalidate(): () => Promise<void> {
  const client = useQueryClient();
  return useCallback(() => client.invalidateQueries({ queryKey: queryKeys.all }), [client]);
}
