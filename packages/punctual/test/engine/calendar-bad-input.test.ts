// The bad input, through the library with the injected clock, each refused with its own code and the
// field, and changing nothing: an unknown calendar name (schedule, preview), a reversed or overlapping range,
// an .ics text that is not iCalendar or is over the size limit, an override for an instant that is not an
// occurrence, and a roll that can never find a working day. Zones: Europe/Berlin, Asia/Kolkata,
// America/New_York, whatever the host's (npm run test:tz).

import { afterEach, describe, expect, it } from 'vitest';
import { ICS_MAX_BYTES } from '../../src/domain/calendar/ics-import.js';
import { isPunctualError } from '../../src/errors.js';
import { harness, type Harness } from '../support/harness.js';

let h: Harness | undefined;
afterEach(async () => h?.close());

async function refusal(p: Promise<unknown>): Promise<[string, Record<string, unknown>]> {
  try {
    await p;
  } catch (e) {
    if (isPunctualError(e)) return [e.code, (e.details ?? {}) as Record<string, unknown>];
    throw e;
  }
  return ['accepted', {}];
}

const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'BEGIN:VEVENT',
  'DTSTART;VALUE=DATE:20261225',
  'DTEND;VALUE=DATE:20261227',
  'SUMMARY:Christmas',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

describe('bad input: its own code with the field, and nothing changed', () => {
  it('calendars: a reversed or overlapping range, an .ics that is not iCalendar or is too large', async () => {
    h = await harness({ start: '2026-12-01T00:00:00Z' });
    await h.s.importCalendar('de', ICS, { tz: 'Europe/Berlin' });
    const before = await h.s.calendar('de');
    expect(before).toMatchObject({ version: 1, dates: [{ start: '2026-12-25', end: '2026-12-26' }] });

    expect(
      await refusal(h.s.putCalendar({ name: 'de', dates: [{ start: '2026-12-26', end: '2026-12-24' }] })),
    ).toEqual(['CALENDAR_RANGE_REVERSED', { field: 'dates[0].end', start: '2026-12-26', end: '2026-12-24' }]);
    expect(
      await refusal(
        h.s.putCalendar({ name: 'de', dates: [{ start: '2026-12-24', end: '2026-12-26' }, '2026-12-26'] }),
      ),
    ).toEqual(['CALENDAR_RANGE_OVERLAP', { field: 'dates[1]', overlaps: 'dates[0]' }]);
    expect(await refusal(h.s.importCalendar('de', 'Subject: holidays\n\n25 Dec\n'))).toEqual([
      'CALENDAR_ICS_INVALID',
      expect.objectContaining({ field: 'ics' }),
    ]);
    const huge = `BEGIN:VCALENDAR\r\n${'X-PAD:'.padEnd(ICS_MAX_BYTES, 'x')}\r\nEND:VCALENDAR\r\n`;
    expect(await refusal(h.s.importCalendar('de', huge))).toEqual([
      'CALENDAR_ICS_TOO_LARGE',
      expect.objectContaining({ field: 'ics', limit: ICS_MAX_BYTES }),
    ]);
    // A new calendar refused is not created either.
    expect((await refusal(h.s.importCalendar('other', 'not iCalendar')))[0]).toBe('CALENDAR_ICS_INVALID');
    expect(await h.s.calendar('de')).toEqual(before);
    expect((await h.s.calendars()).map((c) => c.name)).toEqual(['de']);
  });

  it('schedules: an unknown calendar name, a roll that never finds a working day, an override of no occurrence', async () => {
    h = await harness({ start: '2026-12-01T00:00:00Z' });
    h.s.handle('job', () => undefined);
    await h.s.putCalendar({
      name: 'closed',
      tz: 'Asia/Kolkata',
      dates: [
        { start: '2027-01-01', end: '2027-12-31' },
        { start: '2028-01-01', end: '2028-12-31' },
      ],
    });
    await h.s.put({ key: 'k', spec: '0 9 * * *', tz: 'Europe/Berlin', target: { handler: 'job' } });
    const before = await h.s.require('k');

    expect(
      await refusal(
        h.s.put({
          key: 'k',
          spec: '0 9 * * *',
          tz: 'Europe/Berlin',
          exclude: ['nope'],
          target: { handler: 'job' },
        }),
      ),
    ).toEqual(['CALENDAR_UNKNOWN', { field: 'exclude[0]', calendar: 'nope' }]);
    expect(
      await refusal(
        h.s.put({
          key: 'k',
          spec: '0 9 * * *',
          businessDays: { calendar: 'nope', roll: 'next' },
          target: { handler: 'job' },
        }),
      ),
    ).toEqual(['CALENDAR_UNKNOWN', { field: 'businessDays.calendar', calendar: 'nope' }]);
    // 2027 and 2028 are closed: 1 January 2027, rolled forward, meets no working day within 400 days.
    const [code, details] = await refusal(
      h.s.put({
        key: 'k',
        spec: '0 9 1 1 *',
        tz: 'Asia/Kolkata',
        businessDays: { calendar: 'closed', roll: 'next' },
        target: { handler: 'job' },
      }),
    );
    expect([code, details.field, details.calendar]).toEqual([
      'CALENDAR_NO_WORKING_DAY',
      'businessDays.roll',
      'closed',
    ]);
    expect(await refusal(h.s.overrideOccurrence('k', '2026-12-02T09:00:00+01:00', { kind: 'skip' }))).toEqual(
      ['accepted', {}],
    );
    expect(await refusal(h.s.overrideOccurrence('k', '2026-12-03T09:30:00+01:00', { kind: 'skip' }))).toEqual(
      ['OCCURRENCE_UNKNOWN', expect.objectContaining({ field: 'instant' })],
    );
    // The preview names the unknown calendar the same way.
    expect(
      await refusal(
        h.s.previewCalendars({ exclude: ['nope'], businessDays: undefined, calendars: undefined }),
      ),
    ).toEqual(['CALENDAR_UNKNOWN', { field: 'exclude[0]', calendar: 'nope' }]);

    const after = await h.s.require('k');
    expect(after.version).toBe(before.version);
    expect(after).toMatchObject({ spec: '0 9 * * *', tz: 'Europe/Berlin', calendarRules: null });
    expect(
      (await h.s.occurrences('k', { count: 3 })).occurrences.map((o) => o.override?.kind ?? null),
    ).toEqual([null, 'skip', null]);
  });
});
