// @vitest-environment jsdom
// A schedule's page shows its next 10 fire times as the service's schedule preview gives them (its calendars
// and overrides applied), with each occurrence's notes in words: a moved one says so, one with another
// payload says so. Fake API; every other read answers empty.
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import type { Api, Preview, Schedule } from '../src/api.ts';
import { SessionContext } from '../src/lib/context.ts';
import { createQueryClient } from '../src/lib/query.ts';
import { ScheduleDetail } from '../src/pages/ScheduleDetail.tsx';

afterEach(cleanup);
// The chart draws on a canvas jsdom does not have; it is not what this test looks at.
vi.mock('../src/components/TimeChart.tsx', () => ({ TimeChart: () => null }));

const SCHEDULE = {
  key: 'reports.daily',
  spec: '0 10 * * *',
  tz: 'UTC',
  description: 'At 10:00, every day, UTC',
  summary: null,
  labels: {},
  dst: { gap: 'shift', repeat: 'first' },
  exclude: ['closed'],
  businessDays: null,
  target: { handler: 'report' },
  payload: null,
  policies: {
    retry: { maxAttempts: 1, backoff: 'fixed', initialDelayMs: 1000, maxDelayMs: 1000 },
    timeoutMs: 30_000,
    overlap: 'allow',
    misfire: 'skip',
    catchupWindowMs: 3_600_000,
    maxCatchup: 10,
    deadlineMs: null,
    priority: 0,
  },
  startAt: null,
  endAt: null,
  maxRuns: null,
  jitterMs: 0,
  state: 'active',
  version: 3,
  nextFireAt: '2026-01-08T10:00:00.000Z',
  firedCount: 0,
  materializedCount: 0,
  lastFiredAt: null,
  lastSucceededAt: null,
  note: null,
  pausedUntil: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
} as unknown as Schedule;

const PREVIEW: Preview = {
  description: 'At 10:00, every day, UTC',
  next: ['2026-01-08T10:00:00.000Z', '2026-01-08T12:00:00.000Z', '2026-01-09T10:00:00.000Z'],
  occurrences: [
    { at: '2026-01-08T10:00:00.000Z', notes: [] },
    { at: '2026-01-08T12:00:00.000Z', notes: [{ kind: 'moved', from: '2026-01-06T10:00:00.000Z' }] },
    { at: '2026-01-09T10:00:00.000Z', notes: [{ kind: 'payloadOverridden' }] },
  ],
  dst: { gap: 'shift', repeat: 'first' },
};

it("lists the schedule preview's occurrences with their override notes, not the bare spec's", async () => {
  const schedulePreview = vi.fn(async () => PREVIEW);
  const preview = vi.fn(async () => PREVIEW);
  const known: Partial<Api> = {
    getSchedule: vi.fn(async () => SCHEDULE),
    schedulePreview,
    preview,
  };
  // Every other read of the page answers an empty page.
  const api = new Proxy(known, {
    get: (target, name: string) =>
      target[name as keyof Api] ?? (async () => ({ items: [], occurrences: [], nextCursor: null })),
  }) as Api;
  render(
    createElement(
      SessionContext.Provider,
      { value: { api, tenant: {} as never, signOut: () => {} } },
      createElement(
        QueryClientProvider,
        { client: createQueryClient() },
        createElement(ScheduleDetail, { scheduleKey: 'reports.daily' }),
      ),
    ),
  );
  await waitFor(() => expect(screen.getByTestId('preview-next').querySelectorAll('li')).toHaveLength(3));
  const notes = screen.getAllByTestId('preview-notes').map((n) => n.textContent);
  expect(notes).toEqual([' (moved by an override)', ' (payload overridden)']);
  expect(schedulePreview).toHaveBeenCalledWith('reports.daily', 10, expect.anything());
  // The spec alone is not what the page previews: it would ignore the calendars and overrides.
  expect(preview).not.toHaveBeenCalled();
});
