// The bad input through the API, each answered with its own code and the field, and changing nothing
// (the calendar and the schedule read back as they were; the snapshot of schedules and runs unchanged): an
// unknown calendar name, a reversed or overlapping range, an .ics text that is not iCalendar or is over the
// size limit (the library's 1 MiB: the import route takes a body large enough for it to judge), an override of
// an instant that is not an occurrence, and a roll that can never find a working day.

import { ICS_MAX_BYTES } from 'punctual';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, scheduleBody, testApp, type TestApp } from '../support/app.js';

let t: TestApp;
let before: string;
beforeAll(async () => {
  t = await testApp();
  await req('PUT', '/v1/calendars/de', {
    tz: 'Europe/Berlin',
    dates: [{ start: '2026-12-25', label: 'Xmas' }],
  });
  await req('PUT', '/v1/calendars/closed', {
    tz: 'Asia/Kolkata',
    dates: [
      { start: '2027-01-01', end: '2027-12-31' },
      { start: '2028-01-01', end: '2028-12-31' },
    ],
  });
  expect((await req('PUT', '/v1/schedules/k', scheduleBody({ spec: '0 9 * * *' }))).statusCode).toBe(201);
  before = await t.snapshot();
});
afterAll(async () => {
  await t?.close();
});

function req(method: 'GET' | 'PUT' | 'POST', url: string, payload?: Record<string, unknown>) {
  return t.request({ method, url, as: 'acme', ...(payload === undefined ? {} : { payload }) });
}

/** A CRLF .ics text of more than `bytes` bytes (its JSON body is larger still: each CRLF is escaped). */
function icsOf(bytes: number): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0'];
  let size = 0;
  for (let i = 0; size <= bytes; i++) {
    const line = `X-PAD-${i}:${'x'.repeat(60)}`;
    lines.push(line);
    size += line.length + 2;
  }
  return `${[...lines, 'END:VCALENDAR'].join('\r\n')}\r\n`;
}

const CASES: [string, 'PUT' | 'POST', string, Record<string, unknown>, number, string, string][] = [
  [
    'a reversed range',
    'PUT',
    '/v1/calendars/de',
    { dates: [{ start: '2026-12-26', end: '2026-12-24' }] },
    400,
    'CALENDAR_RANGE_REVERSED',
    'dates[0].end',
  ],
  [
    'overlapping ranges',
    'PUT',
    '/v1/calendars/de',
    { dates: [{ start: '2026-12-24', end: '2026-12-26' }, '2026-12-26'] },
    400,
    'CALENDAR_RANGE_OVERLAP',
    'dates[1]',
  ],
  [
    'an .ics that is not iCalendar',
    'POST',
    '/v1/calendars/de/import',
    { ics: 'Subject: holidays\n\n25 Dec\n' },
    400,
    'CALENDAR_ICS_INVALID',
    'ics',
  ],
  [
    'an .ics over the size limit',
    'POST',
    '/v1/calendars/de/import',
    { ics: icsOf(ICS_MAX_BYTES) },
    413,
    'CALENDAR_ICS_TOO_LARGE',
    'ics',
  ],
  [
    'an unknown calendar in exclude',
    'PUT',
    '/v1/schedules/k',
    scheduleBody({ spec: '0 9 * * *', exclude: ['nope'] }),
    400,
    'CALENDAR_UNKNOWN',
    'exclude[0]',
  ],
  [
    'an unknown calendar in businessDays',
    'PUT',
    '/v1/schedules/k',
    scheduleBody({ spec: '0 9 * * *', businessDays: { calendar: 'nope', roll: 'next' } }),
    400,
    'CALENDAR_UNKNOWN',
    'businessDays.calendar',
  ],
  [
    'an unknown calendar in a preview',
    'POST',
    '/v1/preview',
    { spec: '0 9 * * *', exclude: ['nope'] },
    400,
    'CALENDAR_UNKNOWN',
    'exclude[0]',
  ],
  [
    'a roll that never finds a working day',
    'PUT',
    '/v1/schedules/k',
    scheduleBody({
      spec: '0 9 1 1 *',
      tz: 'Asia/Kolkata',
      businessDays: { calendar: 'closed', roll: 'next' },
    }),
    400,
    'CALENDAR_NO_WORKING_DAY',
    'businessDays.roll',
  ],
  [
    'an override of an instant that is not an occurrence',
    'PUT',
    '/v1/schedules/k/occurrences/2026-01-06T09:30:00Z',
    { kind: 'skip' },
    400,
    'OCCURRENCE_UNKNOWN',
    'instant',
  ],
];

describe('bad input over HTTP', () => {
  it.each(CASES)('%s: its own code with the field', async (_name, method, url, body, status, code, field) => {
    const res = await req(method, url, body);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
    expect(json(res).error).toMatchObject({ code, details: expect.objectContaining({ field }) });
  });

  it('changed nothing', async () => {
    expect(await t.snapshot()).toBe(before);
    expect(json(await req('GET', '/v1/calendars/de'))).toMatchObject({
      version: 1,
      dates: [{ start: '2026-12-25', end: '2026-12-25', label: 'Xmas' }],
    });
    expect(json(await req('GET', '/v1/schedules/k'))).toMatchObject({ version: 1, exclude: [] });
    expect(json(await req('GET', '/v1/schedules/k/occurrences?count=3')).occurrences).toMatchObject([
      { override: null },
      { override: null },
      { override: null },
    ]);
  });
});
