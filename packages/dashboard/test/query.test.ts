// The dashboard's query client: polling pauses while the tab is hidden, the previous data stays while a
// query's key changes (filters, pages), and a request the service refused (4xx) is not retried.
import { keepPreviousData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api.ts';
import { createQueryClient, queryKeys } from '../src/lib/query.ts';

describe('createQueryClient', () => {
  const q = createQueryClient().getDefaultOptions().queries!;

  it('pauses polling in a hidden tab and keeps the previous data while a key changes', () => {
    expect(q.refetchIntervalInBackground).toBe(false);
    expect(q.placeholderData).toBe(keepPreviousData);
  });

  it('retries a network error or a 5xx once, never a 4xx', () => {
    const retry = q.retry as (count: number, error: unknown) => boolean;
    expect(retry(0, new ApiError(0, 'NETWORK', 'down'))).toBe(true);
    expect(retry(0, new ApiError(503, 'NOT_READY', 'starting'))).toBe(true);
    expect(retry(1, new ApiError(503, 'NOT_READY', 'starting'))).toBe(false);
    expect(retry(0, new ApiError(404, 'SCHEDULE_NOT_FOUND', 'gone'))).toBe(false);
    expect(retry(0, new ApiError(401, 'UNAUTHORIZED', 'no'))).toBe(false);
  });

  it('puts every API read under one prefix, so a change invalidates them all', () => {
    for (const key of [
      queryKeys.schedules({}),
      queryKeys.schedule('k'),
      queryKeys.scheduleRuns('k', {}),
      queryKeys.runs({}),
      queryKeys.run('1'),
      queryKeys.metrics,
    ]) {
      expect(key[0]).toBe(queryKeys.all[0]);
    }
  });
});
