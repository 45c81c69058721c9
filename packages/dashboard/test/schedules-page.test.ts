// @vitest-environment jsdom
// The schedules page as a component on a fake API: every row's recent outcomes come from one runs listing
// (never one request per schedule), a row whose target the page cannot read shows its own message while the
// others render, and a paused schedule's next fire time reads "paused".
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Api, Run, Schedule, Target } from '../src/api.ts';
import { SessionContext } from '../src/lib/context.ts';
import { createQueryClient } from '../src/lib/query.ts';
import { Schedules } from '../src/pages/Schedules.tsx';

afterEach(cleanup);

const TARGETS: Target[] = [
  { handler: 'cleanup' },
  { webhook: { url: 'https://example.com/hook' } },
  { redis: { connection: 'main', stream: 'orders' } },
  { nats: { connection: 'bus', subject: 'jobs' } },
  { amqp: { connection: 'rabbit', routingKey: 'emails' } },
  { script: { source: 'export default () => 1;' } },
];

function schedule(i: number, overrides: Partial<Schedule> = {}): Schedule {
  return {
    key: `job.${String(i).padStart(2, '0')}`,
    spec: '0 6 1 1 *',
    tz: 'UTC',
    description: 'At 06:00, on January 1, UTC',
    summary: null,
    labels: {},
    dst: { gap: 'shift', repeat: 'first' },
    exclude: [],
    businessDays: null,
    expect: null,
    target: TARGETS[i % TARGETS.length] as Target,
    payload: null,
    policies: {} as Schedule['policies'],
    startAt: null,
    endAt: null,
    maxRuns: null,
    jitterMs: 0,
    state: 'active',
    version: 1,
    nextFireAt: '2027-01-01T06:00:00.000Z',
    firedCount: 0,
    materializedCount: 0,
    lastFiredAt: null,
    lastSucceededAt: null,
    note: null,
    pausedUntil: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

function run(key: string, state: Run['state'], n: number): Run {
  return { id: `${key}-${n}`, scheduleKey: key, state, scheduledFor: '2026-01-01T00:00:00.000Z' } as Run;
}

function renderPage(api: Partial<Api>) {
  return render(
    createElement(
      SessionContext.Provider,
      {
        value: {
          api: api as Api,
          tenant: {
            name: 'acme',
            state: 'active',
            quotas: { maxSchedules: null, maxRunsPerMinute: null, requestsPerSecond: null },
            webhookSecret: 'whsec_x',
            previousSecretExpiresAt: null,
            createdAt: '2026-01-01T00:00:00.000Z',
          },
          signOut: () => {},
        },
      },
      createElement(QueryClientProvider, { client: createQueryClient() }, createElement(Schedules)),
    ),
  );
}

describe('Schedules page', () => {
  it('reads every row from one schedules listing and one runs listing', async () => {
    const items = Array.from({ length: 24 }, (_, i) => schedule(i));
    items[3] = schedule(3, { state: 'paused' });
    // A shape this dashboard does not know, as a newer service could send.
    items[5] = schedule(5, { target: { email: { to: 'ops@example.com' } } as unknown as Target });
    const api = {
      listSchedules: vi.fn(async () => ({ items, nextCursor: null })),
      listRuns: vi.fn(async () => ({
        items: [run('job.00', 'dead', 2), run('job.00', 'succeeded', 1), run('job.01', 'succeeded', 1)],
        nextCursor: null,
      })),
      scheduleRuns: vi.fn(async () => {
        throw new Error('one request per schedule');
      }),
      alerts: vi.fn(async () => ({ items: [] })),
    };
    renderPage(api);
    await screen.findByText('job.23');
    await waitFor(() =>
      expect(document.querySelector('tr[data-key="job.00"] td[data-label="Last outcome"]')?.textContent).toBe(
        'dead',
      ),
    );
    expect(api.listSchedules).toHaveBeenCalledTimes(1);
    expect(api.listRuns).toHaveBeenCalledTimes(1);
    expect(api.scheduleRuns).not.toHaveBeenCalled();
    const cell = (key: string, label: string) =>
      document.querySelector(`tr[data-key="${key}"] td[data-label="${label}"]`)?.textContent;
    expect(cell('job.02', 'Recent')).toBe('no runs yet');
    expect(cell('job.03', 'Next fire time')).toBe('paused');
    expect(cell('job.02', 'Target')).toBe('redis main → stream orders');
    expect(cell('job.05', 'Target')).toBe('email');
    expect(screen.getByTestId('spark-legend').textContent).toMatch(/succeeded/);
  });
});
