// @vitest-environment jsdom
// The upcoming occurrences of a schedule's page on a fake API, as they will run: the schedule's preview
// (with explain) gives the list, an excluded date struck through with its calendar, a rolled occurrence at
// its rolled instant, a moved one at its new instant, a skipped one struck through; the overrides list gives
// the overrides' notes. Skip, move, payload and undo go to the API with the nominal instant, whatever
// instant the occurrence runs at.
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Api, Occurrence, Preview, Schedule } from '../src/api.ts';
import { OccurrencesPanel } from '../src/components/OccurrencesPanel.tsx';
import { SessionContext } from '../src/lib/context.ts';
import { createQueryClient } from '../src/lib/query.ts';
import { upcomingRows } from '../src/lib/upcoming.ts';

afterEach(cleanup);

const schedule = { key: 'reports.daily', tz: 'UTC', version: 1, state: 'active' } as Schedule;

const override = (kind: 'skip' | 'move' | 'payload', moveTo: string | null = null) => ({
  instant: '',
  kind,
  moveTo,
  payload: kind === 'payload' ? { x: 1 } : null,
  note: kind === 'skip' ? 'holiday' : null,
  createdAt: '2026-01-05T08:00:00.000Z',
});

// Daily at 09:00 UTC from Mon 5 Jan 2026: the 5th skipped by an override, the 6th moved to 11:00, the 7th
// excluded by a calendar, the 8th with another payload, Sat 10th rolled to Mon 12th 09:00, the 9th as is.
const PREVIEW: Preview = {
  description: 'At 09:00, every day, UTC',
  next: [],
  occurrences: [
    {
      at: '2026-01-06T11:00:00.000Z',
      notes: [{ kind: 'moved', from: '2026-01-06T09:00:00.000Z' }],
    },
    { at: '2026-01-08T09:00:00.000Z', notes: [{ kind: 'payloadOverridden' }] },
    { at: '2026-01-09T09:00:00.000Z', notes: [] },
    {
      at: '2026-01-12T09:00:00.000Z',
      notes: [{ kind: 'rolled', rule: 'next', calendar: 'office', from: '2026-01-10T09:00:00.000Z' }],
    },
  ],
  dropped: [
    { at: '2026-01-05T09:00:00.000Z', reason: 'override' },
    { at: '2026-01-07T09:00:00.000Z', reason: 'calendar', calendar: 'holidays', label: 'Epiphany' },
    { at: '2026-01-04T09:00:00.000Z', reason: 'beforeStart' },
  ],
  dst: { gap: 'shift', repeat: 'first' },
};

const OCCURRENCES: Occurrence[] = [
  { scheduledFor: '2026-01-05T09:00:00.000Z', at: null, override: override('skip') },
  {
    scheduledFor: '2026-01-06T09:00:00.000Z',
    at: '2026-01-06T11:00:00.000Z',
    override: override('move', '2026-01-06T11:00:00.000Z'),
  },
  { scheduledFor: '2026-01-07T09:00:00.000Z', at: '2026-01-07T09:00:00.000Z', override: null },
  { scheduledFor: '2026-01-08T09:00:00.000Z', at: '2026-01-08T09:00:00.000Z', override: override('payload') },
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

const fakeApi = () => ({
  schedulePreview: vi.fn(async () => PREVIEW),
  occurrences: vi.fn(async () => ({ occurrences: OCCURRENCES })),
  overrideOccurrence: vi.fn(async () => ({})),
  removeOverride: vi.fn(async () => {}),
});

const item = (scheduledFor: string): HTMLElement =>
  document.querySelector<HTMLElement>(`li[data-scheduled-for="${scheduledFor}"]`)!;

describe('upcomingRows', () => {
  it('lists what runs and the dropped occurrences in the order they run, by their nominal instant', () => {
    const rows = upcomingRows(PREVIEW, OCCURRENCES);
    expect(rows.map((r) => [r.scheduledFor, r.at, r.dropped?.reason ?? null, r.overridden])).toEqual([
      ['2026-01-05T09:00:00.000Z', null, 'override', true],
      ['2026-01-06T09:00:00.000Z', '2026-01-06T11:00:00.000Z', null, true],
      ['2026-01-07T09:00:00.000Z', null, 'calendar', false],
      ['2026-01-08T09:00:00.000Z', '2026-01-08T09:00:00.000Z', null, true],
      ['2026-01-09T09:00:00.000Z', '2026-01-09T09:00:00.000Z', null, false],
      ['2026-01-10T09:00:00.000Z', '2026-01-12T09:00:00.000Z', null, false],
    ]);
    expect(rows[0]!.override?.note).toBe('holiday');
  });
});

describe('OccurrencesPanel', () => {
  it('shows the occurrences as they will run, with calendars and overrides applied', async () => {
    const api = fakeApi();
    renderPanel(api);
    await screen.findByText(/skipped by override \(holiday\)/);
    expect(api.schedulePreview).toHaveBeenCalledWith('reports.daily', 10, expect.anything(), {
      explain: true,
    });
    const items = [...document.querySelectorAll<HTMLElement>('li[data-scheduled-for]')];
    expect(items.map((li) => li.dataset.scheduledFor)).toEqual([
      '2026-01-05T09:00:00.000Z',
      '2026-01-06T09:00:00.000Z',
      '2026-01-07T09:00:00.000Z',
      '2026-01-08T09:00:00.000Z',
      '2026-01-09T09:00:00.000Z',
      '2026-01-10T09:00:00.000Z',
    ]);
    // The excluded date: struck through, its calendar and label named, nothing to do on it.
    const excluded = item('2026-01-07T09:00:00.000Z');
    expect(excluded.dataset.dropped).toBe('calendar');
    expect(excluded.querySelector('s')).not.toBeNull();
    expect(excluded.textContent).toContain('excluded by calendar holidays: Epiphany');
    expect(within(excluded).queryAllByRole('button')).toEqual([]);
    // The moved one at its new instant, the rolled one at its rolled instant.
    const moved = item('2026-01-06T09:00:00.000Z');
    expect(moved.querySelector('time')?.getAttribute('datetime')).toBe('2026-01-06T11:00:00.000Z');
    expect(moved.textContent).toContain('moved by an override from 2026-01-06T09:00:00.000Z');
    const rolled = item('2026-01-10T09:00:00.000Z');
    expect(rolled.querySelector('time')?.getAttribute('datetime')).toBe('2026-01-12T09:00:00.000Z');
    expect(rolled.textContent).toContain('moved off a non-working day (office)');
    expect(item('2026-01-08T09:00:00.000Z').textContent).toContain('payload overridden');
    expect(item('2026-01-09T09:00:00.000Z').textContent).not.toContain('(');
  });

  it('skips, moves, overrides the payload and undoes through the API with the nominal instant', async () => {
    const api = fakeApi();
    const onChanged = renderPanel(api);
    await screen.findByText(/skipped by override \(holiday\)/);
    // Undo a move: the nominal instant, not where it runs.
    fireEvent.click(within(item('2026-01-06T09:00:00.000Z')).getByRole('button', { name: 'Undo' }));
    await waitFor(() =>
      expect(api.removeOverride).toHaveBeenCalledWith('reports.daily', '2026-01-06T09:00:00.000Z'),
    );
    // Skip the rolled one: its nominal Saturday, not the Monday it runs on.
    fireEvent.click(within(item('2026-01-10T09:00:00.000Z')).getByRole('button', { name: 'Skip' }));
    await waitFor(() =>
      expect(api.overrideOccurrence).toHaveBeenCalledWith('reports.daily', '2026-01-10T09:00:00.000Z', {
        kind: 'skip',
      }),
    );
    const plain = item('2026-01-09T09:00:00.000Z');
    fireEvent.click(within(plain).getByRole('button', { name: 'Move…' }));
    fireEvent.change(within(plain).getByLabelText(/Run at/), { target: { value: '2026-01-09T15:00:00Z' } });
    fireEvent.click(within(plain).getByRole('button', { name: 'Move' }));
    await waitFor(() =>
      expect(api.overrideOccurrence).toHaveBeenLastCalledWith('reports.daily', '2026-01-09T09:00:00.000Z', {
        kind: 'move',
        moveTo: '2026-01-09T15:00:00Z',
      }),
    );
    fireEvent.click(within(plain).getByRole('button', { name: 'Payload…' }));
    const box = within(plain).getByLabelText(/Payload of this occurrence/);
    fireEvent.change(box, { target: { value: 'not json' } });
    fireEvent.click(within(plain).getByRole('button', { name: 'Save payload' }));
    await screen.findByText(/The payload must be JSON/);
    expect(api.overrideOccurrence).toHaveBeenCalledTimes(2);
    fireEvent.change(box, { target: { value: '{"report":"weekly"}' } });
    fireEvent.click(within(plain).getByRole('button', { name: 'Save payload' }));
    await waitFor(() =>
      expect(api.overrideOccurrence).toHaveBeenLastCalledWith('reports.daily', '2026-01-09T09:00:00.000Z', {
        kind: 'payload',
        payload: { report: 'weekly' },
      }),
    );
    expect(onChanged).toHaveBeenCalledTimes(4);
  });
});
