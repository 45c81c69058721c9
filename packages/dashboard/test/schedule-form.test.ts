// @vitest-environment jsdom
// The create/edit form as a component: the preview follows the spec as it is typed, the raw request follows
// every field, an API error lands next to the field it names (aria-invalid, described by the message), and a
// browser-side problem stops the request before it is sent.
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, type Api, type Schedule, type ScheduleInput } from '../src/api.ts';
import { SessionContext } from '../src/lib/context.ts';
import { createQueryClient } from '../src/lib/query.ts';
import { ScheduleForm } from '../src/pages/ScheduleForm.tsx';

// The preview answers after a 5 ms debounce; on a loaded machine jsdom's first renders take seconds, so
// waitFor gets more than its 1 s default (it still returns as soon as the condition holds).
configure({ asyncUtilTimeout: 10_000 });

function fakeApi(
  overrides: Partial<Api> = {},
): Api & { puts: { key: string; body: ScheduleInput; version?: number }[] } {
  const puts: { key: string; body: ScheduleInput; version?: number }[] = [];
  const api = {
    puts,
    preview: vi.fn(async ({ spec, tz }: { spec: string; tz?: string }) => {
      if (spec.split(' ').length < 5) {
        throw new ApiError(
          400,
          'SPEC_INVALID',
          `cron expression "${spec}": a cron expression has 5, 6 or 7 fields`,
          {
            field: 'spec',
          },
        );
      }
      return {
        description: `fires on ${spec} in ${tz ?? 'UTC'}`,
        next: ['2026-01-05T08:00:00.000Z', '2026-01-06T08:00:00.000Z'],
        occurrences: [
          { at: '2026-01-05T08:00:00.000Z', notes: [] },
          {
            at: '2026-01-06T08:00:00.000Z',
            notes: [{ kind: 'dstShifted', asked: '2026-01-06T02:30:00', used: '2026-01-06T03:00:00' }],
          },
        ],
        dst: null,
      };
    }),
    putSchedule: vi.fn(async (key: string, body: ScheduleInput, version?: number) => {
      puts.push({ key, body, ...(version === undefined ? {} : { version }) });
      if (body.policies?.retry?.maxAttempts === 0) {
        throw new ApiError(
          400,
          'SCHEDULE_INVALID',
          'policies.retry.maxAttempts must be an integer between 1 and 1000',
          {
            field: 'policies.retry.maxAttempts',
          },
        );
      }
      return { key } as Schedule;
    }),
    ...overrides,
  };
  return api as unknown as Api & { puts: typeof puts };
}

function renderForm(api: Api, props: { editKey?: string } = {}) {
  return render(
    createElement(
      SessionContext.Provider,
      {
        value: {
          api,
          tenant: {
            name: 'acme',
            quotas: { maxSchedules: null, maxRunsPerMinute: null, requestsPerSecond: null },
            webhookSecret: 'whsec_x',
            state: 'active',
            previousSecretExpiresAt: null,
            createdAt: '2026-01-01T00:00:00.000Z',
          },
          signOut: () => {},
        },
      },
      createElement(
        QueryClientProvider,
        { client: createQueryClient() },
        createElement(ScheduleForm, { ...props, previewDelayMs: 5 }),
      ),
    ),
  );
}

function type(label: string | RegExp, value: string): void {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

afterEach(() => {
  cleanup();
  history.replaceState(null, '', '/');
});

describe('ScheduleForm', () => {
  it('labels every control and shows the tenant', () => {
    renderForm(fakeApi());
    for (const el of document.querySelectorAll('input, select, textarea')) {
      const id = el.getAttribute('id');
      expect(id, el.outerHTML).toBeTruthy();
      expect(document.querySelector(`label[for="${id}"]`), el.outerHTML).not.toBeNull();
    }
    expect(screen.getByTestId('tenant-name').textContent).toContain('acme');
  });

  it('updates the description and next fire times as the spec is typed', async () => {
    const api = fakeApi();
    renderForm(api);
    type('Time zone', 'Europe/Paris');
    type('Spec', '0 9 *');
    await waitFor(() => expect(screen.getByLabelText('Spec').getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById('field-spec-error')?.textContent).toMatch(/5, 6 or 7 fields/);

    type('Spec', '0 9 * * 1-5');
    await waitFor(() =>
      expect(document.getElementById('preview-description')?.textContent).toBe(
        'fires on 0 9 * * 1-5 in Europe/Paris',
      ),
    );
    expect(screen.getByLabelText('Spec').getAttribute('aria-invalid')).toBeNull();
    const items = screen.getByTestId('preview-next').querySelectorAll('li');
    expect(items).toHaveLength(2);
    expect(items[0]?.textContent).toContain('Mon 2026-01-05 09:00:00 +01:00 Europe/Paris');
    expect(items[0]?.textContent).not.toContain('DST');
    expect(items[1]?.textContent).toContain('DST: 02:30 does not exist that day, runs at 03:00');

    type('Spec', '30 7 * * *');
    await waitFor(() =>
      expect(document.getElementById('preview-description')?.textContent).toBe(
        'fires on 30 7 * * * in Europe/Paris',
      ),
    );
  });

  it('sends the DST choice of the two selects with the preview and in the body', async () => {
    const api = fakeApi();
    renderForm(api);
    type('Spec', '30 2 * * *');
    fireEvent.change(screen.getByLabelText('A fixed time in a DST gap'), { target: { value: 'skip' } });
    fireEvent.change(screen.getByLabelText('A fixed time that occurs twice'), { target: { value: 'both' } });
    await waitFor(() =>
      expect(api.preview).toHaveBeenLastCalledWith(
        expect.objectContaining({ spec: '30 2 * * *', dst: { gap: 'skip', repeat: 'both' } }),
        expect.anything(),
      ),
    );
    const raw = screen.getByLabelText('Request body as JSON').textContent ?? '';
    expect(JSON.parse(raw).dst).toEqual({ gap: 'skip', repeat: 'both' });
  });

  it("previews with the form's calendars, and places an unknown calendar's error on its field", async () => {
    const api = fakeApi();
    const preview = api.preview as ReturnType<typeof vi.fn>;
    preview.mockImplementation(async (body: { exclude?: string[] }) => {
      if (body.exclude?.includes('nope')) {
        throw new ApiError(400, 'CALENDAR_UNKNOWN', 'exclude[1]: there is no calendar "nope"', {
          field: 'exclude[1]',
          calendar: 'nope',
        });
      }
      return { description: 'd', next: [], occurrences: [], dst: null };
    });
    renderForm(api);
    type('Spec', '0 9 * * *');
    type('Excluded calendars', 'de-holidays, office');
    type('Business days of', 'office');
    fireEvent.change(screen.getByLabelText('On a non-working day'), { target: { value: 'next' } });
    await waitFor(() =>
      expect(api.preview).toHaveBeenLastCalledWith(
        expect.objectContaining({
          spec: '0 9 * * *',
          exclude: ['de-holidays', 'office'],
          businessDays: { calendar: 'office', roll: 'next' },
        }),
        expect.anything(),
      ),
    );
    type('Excluded calendars', 'de-holidays, nope');
    await waitFor(() =>
      expect(document.getElementById('field-exclude-error')?.textContent ?? '').toContain('nope'),
    );
  });

  it('shows the request Save will send, as it is typed', () => {
    renderForm(fakeApi());
    type('Key', 'reports.daily');
    type('Spec', '0 9 * * *');
    type('Time zone', 'UTC');
    type('Webhook URL', 'https://example.com/hook');
    type('Timeout per attempt', '30s');
    const raw = screen.getByLabelText('Request body as JSON').textContent ?? '';
    expect(JSON.parse(raw)).toEqual({
      spec: '0 9 * * *',
      tz: 'UTC',
      target: { webhook: { url: 'https://example.com/hook' } },
      policies: { timeoutMs: 30_000 },
    });
    expect(document.querySelector('.raw')?.textContent).toContain('PUT /v1/schedules/reports.daily');
  });

  it("places the API's validation error next to its field and focuses it", async () => {
    const api = fakeApi();
    renderForm(api);
    type('Key', 'reports.daily');
    type('Spec', '0 9 * * *');
    type('Webhook URL', 'https://example.com/hook');
    type('Attempts per run', '0');
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    await waitFor(() =>
      expect(document.getElementById('field-policies-retry-maxAttempts-error')).not.toBeNull(),
    );
    const input = screen.getByLabelText('Attempts per run');
    expect(document.getElementById('field-policies-retry-maxAttempts-error')?.textContent).toBe(
      'Must be an integer between 1 and 1000',
    );
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toContain('field-policies-retry-maxAttempts-error');
    expect(document.activeElement).toBe(input);
    expect(api.puts[0]?.body.policies?.retry?.maxAttempts).toBe(0);

    // Editing the field clears the service's message; saving again succeeds and opens the schedule.
    type('Attempts per run', '3');
    expect(document.getElementById('field-policies-retry-maxAttempts-error')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    await waitFor(() => expect(location.pathname).toBe('/schedules/reports.daily'));
  });

  it('refuses to send what the browser can tell is wrong', async () => {
    const api = fakeApi();
    renderForm(api);
    type('Spec', '0 9 * * *');
    type('Webhook URL', 'https://example.com/hook');
    type('Payload (JSON)', '{"team": ');
    fireEvent.click(screen.getByRole('button', { name: 'Create schedule' }));
    await waitFor(() =>
      expect(document.getElementById('field-payload-error')?.textContent).toMatch(/^is not valid JSON/),
    );
    expect(document.getElementById('field-key-error')?.textContent).toBe('Key is required');
    expect(api.putSchedule).not.toHaveBeenCalled();
    expect(screen.getByTestId('form-status').textContent).toBe('Some fields need attention before saving.');
  });

  it('shows and edits a command target: program and arguments one per line, and its environment', async () => {
    const saved = {
      key: 'a.b',
      spec: '0 9 * * *',
      tz: 'Europe/Paris',
      description: 'At 09:00',
      summary: null,
      labels: {},
      target: {
        command: { argv: ['/usr/local/bin/backup', '--all'], env: { TARGET: 'nightly' }, timeoutMs: 600_000 },
      },
      payload: null,
      policies: {
        retry: { maxAttempts: 3, backoff: 'exponential', delayMs: 1000, maxDelayMs: 3_600_000, jitter: true },
        timeoutMs: 60_000,
        overlap: 'allow',
        misfire: 'runOnce',
        catchupWindowMs: 86_400_000,
        maxCatchup: 1000,
        deadlineMs: null,
        priority: 0,
        maxChecks: 10,
        checkHorizonMs: 2_592_000_000,
      },
      startAt: null,
      endAt: null,
      maxRuns: null,
      jitterMs: 0,
      state: 'active',
      version: 7,
      nextFireAt: null,
      firedCount: 0,
      note: null,
      pausedUntil: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    } as unknown as Schedule;
    const api = fakeApi({ getSchedule: vi.fn(async () => saved) });
    renderForm(api, { editKey: 'a.b' });
    await waitFor(() =>
      expect((screen.getByLabelText('Program and arguments') as HTMLTextAreaElement).value).toBe(
        '/usr/local/bin/backup\n--all',
      ),
    );
    expect((screen.getByLabelText('Environment') as HTMLTextAreaElement).value).toBe('TARGET=nightly');
    expect((screen.getByLabelText('Time limit') as HTMLInputElement).value).toBe('10m');
    expect(screen.queryByTestId('form-unsupported')).toBeNull();
    type('Program and arguments', '/usr/local/bin/backup\n--all\n--verbose');
    type('Standard input', 'yes\n');
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.puts).toHaveLength(1));
    expect(api.puts[0]!.body.target).toEqual({
      command: {
        argv: ['/usr/local/bin/backup', '--all', '--verbose'],
        env: { TARGET: 'nightly' },
        stdin: 'yes\n',
        timeoutMs: 600_000,
      },
    });
  });

  it('edits a saved schedule with If-Match and keeps its key', async () => {
    const saved = {
      key: 'a.b',
      spec: '0 9 * * *',
      tz: 'Europe/Paris',
      description: 'At 09:00',
      summary: null,
      labels: {},
      target: { handler: 'send-report' },
      payload: null,
      policies: {
        retry: { maxAttempts: 3, backoff: 'exponential', delayMs: 1000, maxDelayMs: 3_600_000, jitter: true },
        timeoutMs: 60_000,
        overlap: 'allow',
        misfire: 'runOnce',
        catchupWindowMs: 86_400_000,
        maxCatchup: 1000,
        deadlineMs: null,
        priority: 0,
        maxChecks: 10,
        checkHorizonMs: 2_592_000_000,
      },
      startAt: null,
      endAt: null,
      maxRuns: null,
      jitterMs: 0,
      state: 'active',
      version: 7,
      nextFireAt: null,
      firedCount: 0,
      note: null,
      pausedUntil: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    } as Schedule;
    const dryRunSchedule = vi.fn(async () => ({
      dryRun: true as const,
      outcome: 'updated' as const,
      currentVersion: 7,
      nextVersion: 8,
      diff: { policies: { from: { priority: 0 }, to: { priority: 5 } } },
      nextBefore: ['2026-01-05T08:00:00.000Z'],
      nextAfter: ['2026-01-05T08:00:00.000Z'],
      cancelled: [{ id: '9', scheduledFor: '2026-01-05T08:00:00.000Z' }],
      cancelledTruncated: false,
      droppedOverrides: [
        {
          instant: '2026-01-05T09:00:00.000Z',
          kind: 'skip' as const,
          moveTo: null,
          payload: null,
          note: null,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      ],
    }));
    const api = fakeApi({ getSchedule: vi.fn(async () => saved), dryRunSchedule });
    renderForm(api, { editKey: 'a.b' });
    await waitFor(() =>
      expect((screen.getByLabelText('Handler name') as HTMLInputElement).value).toBe('send-report'),
    );
    expect((screen.getByLabelText('Key') as HTMLInputElement).readOnly).toBe(true);
    type('Priority', '5');
    // "Check changes" shows the service's dry run and writes nothing.
    fireEvent.click(screen.getByRole('button', { name: 'Check changes' }));
    const dry = await screen.findByTestId('dry-run');
    expect(dryRunSchedule).toHaveBeenCalledWith(
      'a.b',
      expect.objectContaining({ policies: expect.objectContaining({ priority: 5 }) }),
      7,
    );
    expect(dry.textContent).toContain('would be updated as version 8');
    expect(dry.textContent).toContain('1 pending run(s) would be cancelled');
    expect(dry.textContent).toContain('{"priority":0} → {"priority":5}');
    expect(screen.getByTestId('dropped-overrides').textContent).toContain('skip of');
    expect(api.puts).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.puts).toHaveLength(1));
    expect(api.puts[0]).toMatchObject({
      key: 'a.b',
      version: 7,
      body: { target: { handler: 'send-report' }, policies: { priority: 5 } },
    });
  });
});
