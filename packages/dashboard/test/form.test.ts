// The schedule form's logic: what the body sent to PUT /v1/schedules/{key} holds for a given form, what the
// browser refuses before sending, and that a saved schedule shown in the form saves back unchanged.
import { describe, expect, it } from 'vitest';
import type { Schedule } from '../src/api.ts';
import {
  buildBody,
  emptyForm,
  FIELD_PATHS,
  fieldId,
  formatDurationText,
  formFromSchedule,
  keepUnedited,
  keyProblem,
  parseDurationText,
  parseHeaders,
} from '../src/lib/form.ts';

const schedule: Schedule = {
  key: 'reports.monthly',
  spec: '0 9 1 * *',
  tz: 'Europe/Paris',
  description: 'At 09:00, on day 1 of the month, Europe/Paris',
  summary: null,
  labels: {},
  dst: { gap: 'shift', repeat: 'first' },
  exclude: [],
  businessDays: null,
  expect: null,
  target: {
    webhook: {
      url: 'https://example.com/hook',
      method: 'PUT',
      headers: { 'X-Team': 'sales' },
      timeoutMs: 5_000,
    },
  },
  payload: { team: 'sales' },
  policies: {
    retry: { maxAttempts: 5, backoff: 'fixed', delayMs: 30_000, maxDelayMs: 3_600_000, jitter: false },
    timeoutMs: 60_000,
    overlap: 'skip',
    misfire: 'runAll',
    catchupWindowMs: 86_400_000,
    maxCatchup: 1000,
    deadlineMs: 5_400_000,
    priority: 3,
    maxChecks: 10,
    checkHorizonMs: 2_592_000_000,
  },
  startAt: '2026-01-05T08:00:00.000Z',
  endAt: null,
  maxRuns: 12,
  jitterMs: 30_000,
  state: 'active',
  version: 4,
  nextFireAt: '2026-02-01T08:00:00.000Z',
  firedCount: 1,
  materializedCount: 1,
  lastFiredAt: null,
  lastSucceededAt: null,
  note: null,
  pausedUntil: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
};

describe('buildBody', () => {
  it('leaves empty fields out so the service defaults apply', () => {
    const f = { ...emptyForm('UTC'), spec: ' 0 9 * * 1-5 ', webhookUrl: 'https://example.com/x' };
    expect(buildBody(f)).toEqual({
      body: { spec: '0 9 * * 1-5', tz: 'UTC', target: { webhook: { url: 'https://example.com/x' } } },
      errors: {},
    });
  });

  it('sends a handler target when the kind is handler', () => {
    const f = {
      ...emptyForm('UTC'),
      spec: '@every 15m',
      targetKind: 'handler' as const,
      handler: 'send-report',
      webhookUrl: 'ignored',
    };
    expect(buildBody(f).body.target).toEqual({ handler: 'send-report' });
  });

  it('converts durations to milliseconds and numbers to numbers', () => {
    const f = {
      ...emptyForm('UTC'),
      spec: '* * * * *',
      webhookUrl: 'https://e.x',
      retryMaxAttempts: '0',
      retryDelay: '30s',
      retryMaxDelay: '1h30m',
      retryJitter: 'false' as const,
      timeout: '250ms',
      deadline: '2d',
      priority: '-5',
      overlap: 'skip' as const,
      maxRuns: '3',
      jitter: '45s',
    };
    const { body, errors } = buildBody(f);
    expect(errors).toEqual({});
    expect(body.policies).toEqual({
      retry: { maxAttempts: 0, delayMs: 30_000, maxDelayMs: 5_400_000, jitter: false },
      timeoutMs: 250,
      overlap: 'skip',
      deadlineMs: 172_800_000,
      priority: -5,
    });
    expect(body.maxRuns).toBe(3);
    expect(body.jitter).toBe('45s');
  });

  it('leaves range checks to the API (0 attempts is sent as typed)', () => {
    const f = { ...emptyForm('UTC'), spec: '* * * * *', webhookUrl: 'https://e.x', retryMaxAttempts: '0' };
    expect(buildBody(f).body.policies?.retry?.maxAttempts).toBe(0);
  });

  it('reports what the browser can tell is wrong, by API path', () => {
    const f = {
      ...emptyForm('UTC'),
      spec: '* * * * *',
      webhookUrl: 'https://e.x',
      payload: '{"team": ',
      retryMaxAttempts: '2.5',
      timeout: 'soon',
      webhookHeaders: 'no colon here',
    };
    const { errors, body } = buildBody(f);
    expect(Object.keys(errors).sort()).toEqual(
      ['payload', 'policies.retry.maxAttempts', 'policies.timeoutMs', 'target.webhook.headers'].sort(),
    );
    expect(errors.payload).toMatch(/^is not valid JSON/);
    expect(errors['target.webhook.headers']).toBe('line 1 must read "Name: value"');
    expect(body.payload).toBeUndefined();
  });

  it('reads start and end as wall times in the schedule zone', () => {
    const f = {
      ...emptyForm('America/New_York'),
      spec: '* * * * *',
      webhookUrl: 'https://e.x',
      startAt: '2026-07-01T09:00',
      endAt: '2027-01-01T00:00',
    };
    const { body } = buildBody(f);
    expect(body.startAt).toBe('2026-07-01T13:00:00.000Z');
    expect(body.endAt).toBe('2027-01-01T05:00:00.000Z');
  });

  it('cannot read a wall time without a valid zone', () => {
    const f = {
      ...emptyForm('Not/AZone'),
      spec: '* * * * *',
      webhookUrl: 'https://e.x',
      startAt: '2026-07-01T09:00',
    };
    expect(buildBody(f).errors.startAt).toBe('needs a valid time zone to be read in');
  });

  it('keeps any JSON value as the payload', () => {
    for (const [text, value] of [
      ['42', 42],
      ['"x"', 'x'],
      ['[1, {"a": null}]', [1, { a: null }]],
      ['null', null],
    ] as const) {
      const f = { ...emptyForm('UTC'), spec: '* * * * *', webhookUrl: 'https://e.x', payload: text };
      expect(buildBody(f).body.payload).toEqual(value);
    }
  });
});

describe('formFromSchedule', () => {
  it('shows every value of a saved schedule', () => {
    const f = formFromSchedule(schedule);
    expect(f.key).toBe('reports.monthly');
    expect(f.tz).toBe('Europe/Paris');
    expect(f.webhookHeaders).toBe('X-Team: sales');
    expect(f.retryDelay).toBe('30s');
    expect(f.deadline).toBe('1h30m');
    expect(f.startAt).toBe('2026-01-05T09:00');
    expect(formFromSchedule({ ...schedule, startAt: '2026-01-05T08:00:30.000Z' }).startAt).toBe(
      '2026-01-05T09:00:30',
    );
    expect(f.jitter).toBe('30s');
    expect(JSON.parse(f.payload)).toEqual({ team: 'sales' });
  });

  it('saves back what it showed', () => {
    const { body, errors } = buildBody(formFromSchedule(schedule));
    expect(errors).toEqual({});
    expect(body).toEqual({
      spec: schedule.spec,
      tz: schedule.tz,
      target: schedule.target,
      payload: schedule.payload,
      policies: schedule.policies,
      startAt: schedule.startAt,
      maxRuns: 12,
      jitter: '30s',
      dst: { gap: 'shift', repeat: 'first' },
    });
  });

  it('shows the DST choice in force, and none for a spec without one', () => {
    expect(formFromSchedule(schedule)).toMatchObject({ dstGap: 'shift', dstRepeat: 'first' });
    const every = formFromSchedule({ ...schedule, spec: '@every 1h', dst: null });
    expect(every).toMatchObject({ dstGap: '', dstRepeat: '' });
    expect(buildBody(every).body.dst).toBeUndefined();
  });

  it('shows and saves back the calendars: exclude names and the business-day rule', () => {
    const withCalendars = {
      ...schedule,
      exclude: ['de-holidays', 'office'],
      businessDays: { calendar: 'de-work', roll: 'next' as const },
    };
    const f = formFromSchedule(withCalendars);
    expect(f).toMatchObject({
      exclude: 'de-holidays, office',
      businessDaysCalendar: 'de-work',
      businessDaysRoll: 'next',
    });
    expect(buildBody(f).body).toMatchObject({
      exclude: ['de-holidays', 'office'],
      businessDays: { calendar: 'de-work', roll: 'next' },
    });
    const none = buildBody(formFromSchedule(schedule)).body;
    expect(none.exclude).toBeUndefined();
    expect(none.businessDays).toBeUndefined();
  });
});

describe('every target kind', () => {
  const targets: Schedule['target'][] = [
    { handler: 'send-report' },
    { webhook: { url: 'https://example.com/hook' } },
    { redis: { connection: 'main', stream: 'events', maxLen: 1000 } },
    { redis: { connection: 'main', stream: 'events' } },
    { nats: { connection: 'bus', subject: 'reports.monthly' } },
    { amqp: { connection: 'rabbit', exchange: 'jobs', routingKey: 'reports' } },
    { amqp: { connection: 'rabbit', routingKey: 'reports' } },
    {
      script: {
        source: 'export default (ctx) => {\n  return ctx.payload;\n};\n',
        timeoutMs: 2_000,
        memoryMb: 16,
      },
    },
    { script: { source: '  export default () => 1' } },
    { command: { argv: ['/usr/bin/env', 'date', '-u'] } },
    {
      command: {
        argv: ['cd /srv && ./backup.sh |\n  gzip > /tmp/b.gz'],
        shell: true,
        cwd: '/srv',
        env: { MODE: 'full', EMPTY: '', WITH_EQ: 'a=b' },
        stdin: 'y\n',
        timeoutMs: 90_000,
      },
    },
    { command: { argv: ['/bin/true'], shell: false } },
  ];

  for (const target of targets) {
    it(`loads and saves back ${JSON.stringify(target).slice(0, 60)} unchanged`, () => {
      const f = formFromSchedule({ ...schedule, target });
      expect(f.targetKind).toBe(Object.keys(target)[0]);
      const { body, errors } = buildBody(f);
      expect(errors).toEqual({});
      expect(body.target).toEqual(target);
    });
  }

  it("reports a command's environment line that is not NAME=value under its own field", () => {
    const f = {
      ...emptyForm('UTC'),
      spec: '@every 1m',
      targetKind: 'command' as const,
      commandArgv: '/bin/true',
      commandEnv: 'MODE=full\njust words',
    };
    expect(buildBody(f).errors).toEqual({ 'target.command.env': 'line 2 must read "NAME=value"' });
  });

  it("reports a broker's number that is not one under its own field", () => {
    const f = { ...emptyForm('UTC'), spec: '@every 1m', targetKind: 'redis' as const, redisMaxLen: 'lots' };
    expect(buildBody(f).errors).toEqual({ 'target.redis.maxLen': 'must be a whole number' });
  });
});

describe('durations as typed', () => {
  it('parses units and bare milliseconds', () => {
    expect(parseDurationText('1500')).toBe(1500);
    expect(parseDurationText('30s')).toBe(30_000);
    expect(parseDurationText('5 min')).toBe(300_000);
    expect(parseDurationText('1h30m')).toBe(5_400_000);
    expect(parseDurationText('1.5s')).toBe(1500);
    expect(parseDurationText('2d')).toBe(172_800_000);
    expect(parseDurationText('soon')).toBeNull();
    expect(parseDurationText('5x')).toBeNull();
    expect(parseDurationText('')).toBeNull();
  });

  it('writes the shortest exact form', () => {
    expect(formatDurationText(5_400_000)).toBe('1h30m');
    expect(formatDurationText(1_500)).toBe('1s500ms');
    expect(formatDurationText(86_400_000)).toBe('1d');
    expect(formatDurationText(0)).toBe('0');
    for (const ms of [1, 999, 61_000, 90_061_001]) expect(parseDurationText(formatDurationText(ms))).toBe(ms);
  });
});

describe('small parts', () => {
  it('parses header lines', () => {
    expect(parseHeaders('X-A: 1\n\n  X-B :two: parts ')).toEqual({ 'X-A': '1', 'X-B': 'two: parts' });
    expect(parseHeaders('X-A: 1\nbroken')).toBe('line 2 must read "Name: value"');
  });

  it('checks keys as the API does', () => {
    expect(keyProblem('reports.monthly')).toBeNull();
    expect(keyProblem('check-shipped:order-42@eu')).toBeNull();
    expect(keyProblem('')).toBe('is required');
    expect(keyProblem('-leading')).not.toBeNull();
    expect(keyProblem('has space')).not.toBeNull();
  });

  it('names each control after its API path', () => {
    expect(fieldId(FIELD_PATHS.retryMaxAttempts)).toBe('field-policies-retry-maxAttempts');
    expect(new Set(Object.values(FIELD_PATHS)).size).toBe(Object.keys(FIELD_PATHS).length);
  });
});

describe('keepUnedited', () => {
  it('keeps the summary, labels, expectation and message id template the form has no control for', () => {
    const loaded: Schedule = {
      ...schedule,
      summary: 'Monthly report for sales',
      labels: { jobType: 'report' },
      expect: { successWithinMs: 900_000 },
      target: { webhook: { url: 'https://example.com/hook', idTemplate: '{key}-{scheduledForSeconds}' } },
    };
    const body = buildBody(formFromSchedule(loaded)).body;
    expect(keepUnedited(body, loaded)).toMatchObject({
      summary: 'Monthly report for sales',
      labels: { jobType: 'report' },
      expect: { successWithin: 900_000 },
      target: { webhook: { url: 'https://example.com/hook', idTemplate: '{key}-{scheduledForSeconds}' } },
    });
    // A target of another kind does not inherit the template; a new schedule keeps the body as it is.
    const other = { ...body, target: { nats: { connection: 'bus', subject: 'jobs' } } };
    expect(keepUnedited(other, loaded).target).toEqual({ nats: { connection: 'bus', subject: 'jobs' } });
    expect(keepUnedited(body, undefined)).toBe(body);
  });
});
