// @vitest-environment jsdom
// The upcoming occurrences of a schedule's page on a fake API: each with what its override did (in the
// preview's words), and the buttons that skip one, move one and undo an override through the API.
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Api, Occurrence, Schedule } from '../src/api.ts';
import { OccurrencesPanel } from '../src/components/OccurrencesPanel.tsx';
import { SessionContext } from '../src/lib/context.ts';
import { createQueryClient } from '../src/lib/query.ts';

afterEach(cleanup);

const schedule = { key: 'reports.daily', tz: 'UTC', version: 1, state: 'active' } as Schedule;

const override = (kind: 'skip' | 'move', moveTo: string | null = null) => ({
  instant: '',
  kind,
  moveTo,
  payload: null,
  note: kind === 'skip' ? 'holiday' : null,
  createdAt: '2026-01-05T08:00:00.000Z',
});

const OCCURRENCES: Occurrence[] = [
  { scheduledFor: '2026-01-05T09:00:00.000Z', at: null, override: override('skip') },
  {
    scheduledFor: '2026-01-06T09:00:00.000Z',
    at: '2026-01-06T11:00:00.000Z',
    override: override('move', '2026-01-06T11:00:00.000Z'),
  },
  { scheduledFor: '2026-01-07T09:00:00.000Z', at: '2026-01-07T09:00:00.000Z', override: null },
];

function renderPanel(api: Partial<Api>, onChanged = vi.fn()) {
  render(
    createElement(
      SessionContext.Provider,
      { value: { api: api as Api, tenant: {} as never, signOut: () => {} } },
      createElement(
        QueryClientProvider,
        { client: createQueryClient() },
        createElement(OccurrencesPanel, { schedule, now: Date.parse('2026-01-05T08:30:00Z'), onChanged }),
      ),
    ),
  );
  return onChanged;
}

describe('OccurrencesPanel', () => {
  it('shows the overrides and skips, moves and undoes through the API', async () => {
    const api = {
      occurrences: vi.fn(async () => ({ occurrences: OCCURRENCES })),
      overrideOccurrence: vi.fn(async () => ({})),
      removeOverride: vi.fn(async () => {}),
    };
    const onChanged = renderPanel(api);
    await screen.findByText(/skipped by override \(holiday\)/);
    const items = document.querySelectorAll('li[data-override]');
    expect(items[1]!.textContent).toContain('moved by an override from 2026-01-06T09:00:00.000Z');
    fireEvent.click(items[0]!.querySelector('button')!);
    await waitFor(() =>
      expect(api.removeOverride).toHaveBeenCalledWith('reports.daily', '2026-01-05T09:00:00.000Z'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Skip' }));
    await waitFor(() =>
      expect(api.overrideOccurrence).toHaveBeenCalledWith('reports.daily', '2026-01-07T09:00:00.000Z', {
        kind: 'skip',
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Move…' }));
    fireEvent.change(screen.getByLabelText(/Run at/), { target: { value: '2026-01-07T15:00:00Z' } });
    fireEvent.click(screen.getByRole('button', { name: 'Move' }));
    await waitFor(() =>
      expect(api.overrideOccurrence).toHaveBeenLastCalledWith('reports.daily', '2026-01-07T09:00:00.000Z', {
        kind: 'move',
        moveTo: '2026-01-07T15:00:00Z',
      }),
    );
    expect(onChanged).toHaveBeenCalledTimes(3);
  });
});
