// @vitest-environment jsdom
// The open alerts panel on a fake API: it asks for the open alerts (of one schedule on a schedule's page) and
// shows each one's kind, subject and summary, or says there is none.
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Alert, Api } from '../src/api.ts';
import { AlertsPanel } from '../src/components/AlertsPanel.tsx';
import { SessionContext } from '../src/lib/context.ts';
import { createQueryClient } from '../src/lib/query.ts';

afterEach(cleanup);

const ALERT: Alert = {
  id: '7',
  kind: 'run_dead',
  subjectKind: 'schedule',
  subject: 'reports.daily',
  state: 'open',
  openedAt: '2026-01-05T10:00:00.000Z',
  resolvedAt: null,
  summary: 'schedule "reports.daily": run 9 is dead after 3 attempt(s)',
  details: {},
};

function renderPanel(api: Partial<Api>, scheduleKey?: string) {
  render(
    createElement(
      SessionContext.Provider,
      { value: { api: api as Api, tenant: {} as never, signOut: () => {} } },
      createElement(
        QueryClientProvider,
        { client: createQueryClient() },
        createElement(AlertsPanel, {
          now: Date.parse('2026-01-05T11:00:00Z'),
          tz: 'UTC',
          ...(scheduleKey === undefined ? {} : { scheduleKey }),
        }),
      ),
    ),
  );
}

describe('AlertsPanel', () => {
  it("shows a schedule's open alerts", async () => {
    const alerts = vi.fn(async () => ({ items: [ALERT] }));
    renderPanel({ alerts }, 'reports.daily');
    await waitFor(() => expect(screen.getByText(/run 9 is dead/)).toBeTruthy());
    expect(alerts).toHaveBeenCalledWith(
      { state: 'open', limit: 20, schedule: 'reports.daily' },
      expect.anything(),
    );
    expect(screen.getByText('run dead')).toBeTruthy();
  });

  it('says when the tenant has no open alert', async () => {
    const alerts = vi.fn(async () => ({ items: [] }));
    renderPanel({ alerts });
    await waitFor(() => expect(screen.getByText('No open alert.')).toBeTruthy());
    expect(alerts).toHaveBeenCalledWith({ state: 'open', limit: 20 }, expect.anything());
  });
});
