// @vitest-environment jsdom
// A calendar's page as a component on a fake API: the dates sorted with ranges as ranges and labels; adding a
// date puts the whole calendar at the version on screen, and the API's refusal lands on the field; deleting a
// calendar a schedule uses names the schedules (CALENDAR_IN_USE) and stays; the History tab lists the dates
// each version added and removed and rolls back after confirming.
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Api, type CalendarDetail as Detail, type CalendarRevision } from '../src/api.ts';
import { SessionContext } from '../src/lib/context.ts';
import { createQueryClient } from '../src/lib/query.ts';
import { CalendarDetail } from '../src/pages/CalendarDetail.tsx';

afterEach(cleanup);
beforeEach(() => history.replaceState(null, '', '/calendars/de-holidays'));

const CAL: Detail = {
  name: 'de-holidays',
  tz: 'Europe/Berlin',
  dates: [
    { start: '2027-01-01', end: '2027-01-01', label: null },
    { start: '2026-12-24', end: '2026-12-26', label: 'Weihnachten' },
  ],
  workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
  description: null,
  version: 2,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  usedBy: ['reports.daily'],
};

const REVISIONS: CalendarRevision[] = [
  {
    name: 'de-holidays',
    version: 2,
    at: '2026-01-02T00:00:00.000Z',
    actor: 'apiKey:3 (ops)',
    change: 'updated',
    fromVersion: null,
    diff: {
      dates: {
        added: [{ start: '2027-01-01', end: '2027-01-01', label: null }],
        removed: [{ start: '2027-05-01', end: '2027-05-01', label: 'Tag der Arbeit' }],
      },
      description: { from: null, to: 'x' },
    },
  },
  {
    name: 'de-holidays',
    version: 1,
    at: '2026-01-01T00:00:00.000Z',
    actor: 'apiKey:3 (ops)',
    change: 'created',
    fromVersion: null,
    diff: { tz: { from: null, to: 'Europe/Berlin' } },
  },
];

function renderPage(api: Partial<Api>) {
  render(
    createElement(
      SessionContext.Provider,
      { value: { api: api as Api, tenant: { name: 't' } as never, signOut: () => {} } },
      createElement(
        QueryClientProvider,
        { client: createQueryClient() },
        createElement(CalendarDetail, { name: 'de-holidays' }),
      ),
    ),
  );
}

describe('CalendarDetail', () => {
  it('shows the dates sorted with ranges as ranges, and puts an added date at the version on screen', async () => {
    const api = {
      getCalendar: vi.fn(async () => CAL),
      putCalendar: vi
        .fn()
        .mockRejectedValueOnce(
          new ApiError(400, 'CALENDAR_RANGE_REVERSED', 'dates[2].end: end 2027-04-01 is before start', {
            field: 'dates[2].end',
          }),
        )
        .mockResolvedValueOnce({ ...CAL, version: 3 }),
    };
    renderPage(api);
    await screen.findByText('2026-12-24 – 2026-12-26');
    const rows = [...document.querySelectorAll('[data-testid="dates-table"] tbody tr')];
    expect(rows.map((r) => r.getAttribute('data-start'))).toEqual(['2026-12-24', '2027-01-01']);
    expect(rows[0]!.textContent).toContain('Weihnachten');
    expect(rows[0]!.textContent).toContain('3');
    expect(screen.getByTestId('calendar-used-by').querySelector('a')?.getAttribute('href')).toBe(
      '/schedules/reports.daily',
    );

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2027-05-01' } });
    fireEvent.change(screen.getByLabelText('To (optional)'), { target: { value: '2027-04-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add date' }));
    const error = await screen.findByText('End 2027-04-01 is before start');
    expect(error.id).toBe('date-end-error');
    expect(api.putCalendar).toHaveBeenLastCalledWith(
      'de-holidays',
      expect.objectContaining({
        dates: [
          { start: '2027-01-01', end: '2027-01-01', label: null },
          { start: '2026-12-24', end: '2026-12-26', label: 'Weihnachten' },
          { start: '2027-05-01', end: '2027-04-01' },
        ],
      }),
      2,
    );
    fireEvent.change(screen.getByLabelText('To (optional)'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add date' }));
    await screen.findByText('Added 2027-05-01.');
  });

  it('names the schedules that use it when the delete is refused', async () => {
    const api = {
      getCalendar: vi.fn(async () => CAL),
      deleteCalendar: vi.fn(async () => {
        throw new ApiError(409, 'CALENDAR_IN_USE', 'in use', {
          name: 'de-holidays',
          schedules: ['reports.daily', 'payroll'],
        });
      }),
    };
    renderPage(api);
    await screen.findByText('2026-12-24 – 2026-12-26');
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = document.querySelector('dialog') as HTMLElement;
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Delete' }));
    const alert = await screen.findByTestId('calendar-in-use');
    expect(api.deleteCalendar).toHaveBeenCalledWith('de-holidays', 2);
    expect(alert.textContent).toContain('de-holidays cannot be deleted: schedules use it');
    expect([...alert.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      '/schedules/reports.daily',
      '/schedules/payroll',
    ]);
  });

  it('lists the dates each version added and removed, and rolls back after confirming', async () => {
    history.replaceState(null, '', '/calendars/de-holidays?tab=history');
    const api = {
      getCalendar: vi.fn(async () => CAL),
      calendarRevisions: vi.fn(async () => ({ items: REVISIONS, nextCursor: null })),
      rollbackCalendar: vi.fn(async () => ({
        calendar: { ...CAL, version: 3 },
        changed: true,
        fromVersion: 1,
      })),
    };
    renderPage(api);
    await screen.findByText('Version 2');
    const v2 = document.querySelector('li[data-version="2"]')!;
    expect(v2.querySelector('[data-added="2027-01-01"]')?.textContent).toContain('2027-01-01');
    expect(v2.querySelector('[data-removed="2027-05-01"]')?.textContent).toContain(
      '2027-05-01 Tag der Arbeit',
    );
    expect(v2.textContent).toContain('null → "x"');
    expect(v2.querySelector('button')).toBeNull();
    fireEvent.click(document.querySelector('li[data-version="1"] button') as HTMLButtonElement);
    fireEvent.click(await screen.findByRole('button', { name: 'Roll back' }));
    await waitFor(() => expect(api.rollbackCalendar).toHaveBeenCalledWith('de-holidays', 1));
    await screen.findByText('Rolled back to version 1: now version 3.');
  });
});
