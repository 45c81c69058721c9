// @vitest-environment jsdom
// The History section of a schedule's page on a fake API: each revision with its change, actor and the
// changed fields as from → to; a rollback asks first, calls the API with the version and reports the new one.
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Api, Revision, Schedule } from '../src/api.ts';
import { HistoryPanel } from '../src/components/HistoryPanel.tsx';
import { SessionContext } from '../src/lib/context.ts';
import { createQueryClient } from '../src/lib/query.ts';

afterEach(cleanup);

const schedule = {
  key: 'reports.daily',
  tz: 'UTC',
  version: 2,
  state: 'active',
} as Schedule;

const REVISIONS: Revision[] = [
  {
    key: 'reports.daily',
    version: 2,
    at: '2026-01-05T10:00:00.000Z',
    actor: 'apiKey:7 (ci)',
    change: 'updated',
    fromVersion: null,
    state: 'active',
    diff: { spec: { from: '0 9 * * *', to: '0 10 * * *' }, payload: { from: { a: 1 }, to: null } },
  },
  {
    key: 'reports.daily',
    version: 1,
    at: '2026-01-05T09:00:00.000Z',
    actor: 'apiKey:7 (ci)',
    change: 'created',
    fromVersion: null,
    state: 'active',
    diff: { spec: { from: null, to: '0 9 * * *' } },
  },
];

function renderPanel(api: Partial<Api>, onChanged = vi.fn()) {
  render(
    createElement(
      SessionContext.Provider,
      { value: { api: api as Api, tenant: {} as never, signOut: () => {} } },
      createElement(
        QueryClientProvider,
        { client: createQueryClient() },
        createElement(HistoryPanel, { schedule, now: Date.parse('2026-01-05T11:00:00Z'), onChanged }),
      ),
    ),
  );
  return onChanged;
}

describe('HistoryPanel', () => {
  it('lists the revisions with their diffs and rolls back after confirming', async () => {
    const api = {
      revisions: vi.fn(async () => ({ items: REVISIONS, nextCursor: null })),
      rollback: vi.fn(async () => ({
        schedule: { ...schedule, version: 3 },
        changed: true,
        fromVersion: 1,
      })),
    };
    const onChanged = renderPanel(api);
    await screen.findByText('Version 2');
    const v2 = document.querySelector('li[data-version="2"]')!;
    expect(v2.textContent).toContain('updated');
    expect(v2.textContent).toContain('by apiKey:7 (ci)');
    expect(v2.textContent).toContain('"0 9 * * *" → "0 10 * * *"');
    expect(v2.textContent).toContain('{"a":1} → null');
    // The current version offers no rollback; the earlier one does.
    expect(v2.querySelector('button')).toBeNull();
    const button = document.querySelector('li[data-version="1"] button') as HTMLButtonElement;
    fireEvent.click(button);
    expect(api.rollback).not.toHaveBeenCalled();
    fireEvent.click(await screen.findByRole('button', { name: 'Roll back' }));
    await waitFor(() => expect(api.rollback).toHaveBeenCalledWith('reports.daily', 1));
    await screen.findByText('Rolled back to version 1: now version 3.');
    expect(onChanged).toHaveBeenCalled();
  });
});
