// parseIcs on fixture files: all-day events with exclusive DTEND, folded lines, escaped text, yearly RRULEs
// expanded over the horizon (Feb 29 only in leap years, EXDATE honoured), overlapping events merged, and what
// is not iCalendar, unbalanced or too large refused with its own code.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isPunctualError } from '../../src/errors.js';
import { ICS_MAX_BYTES, parseIcs, unfoldIcs } from '../../src/domain/calendar/ics-import.js';
import { normalizeCalendar } from '../../src/domain/calendar/calendar.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`./ics-fixtures/${name}`, import.meta.url), 'utf8');
const from = Date.parse('2026-06-01T00:00:00Z');

function codeOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (isPunctualError(e)) return e.code;
    throw e;
  }
  return 'accepted';
}

describe('parseIcs', () => {
  it('reads a holiday feed: labels, ranges, yearly events within the horizon, skipped events reported', () => {
    const r = parseIcs(fixture('de-holidays.ics'), { from, horizonYears: 2 });
    expect(r.tz).toBe('Europe/Berlin');
    const xmas = 'Weihnachten (1. und 2. Feiertag), bundesweit';
    expect(r.dates).toEqual([
      { start: '2026-01-01', label: 'Neujahr' },
      { start: '2026-10-03', label: 'Tag der Deutschen Einheit' },
      { start: '2026-12-25', end: '2026-12-26', label: xmas },
      { start: '2027-01-01', label: 'Neujahr' },
      { start: '2027-03-26', label: 'Karfreitag' },
      { start: '2027-12-25', end: '2027-12-26', label: xmas },
      { start: '2028-01-01', label: 'Neujahr' },
      { start: '2028-12-25', end: '2028-12-26', label: xmas },
    ]);
    expect(r.skipped.map((s) => s.summary)).toEqual(['Team meeting', 'Weekly thing']);
    // What it gives is a valid calendar.
    const cal = normalizeCalendar({ name: 'de', tz: r.tz ?? 'UTC', dates: r.dates });
    expect(cal.dates).toHaveLength(8);
  });

  it('takes CRLF lines, merges events sharing days, and expands Feb 29 only in leap years minus EXDATE', () => {
    const r = parseIcs(fixture('crlf-overlaps.ics'), {
      from: Date.parse('2026-01-01T00:00:00Z'),
      horizonYears: 10,
    });
    expect(r.dates).toEqual([
      { start: '2026-12-24', end: '2026-12-26', label: 'Christmas Eve / Office closed' },
      { start: '2032-02-29', label: 'Leap day' },
      { start: '2036-02-29', label: 'Leap day' },
    ]);
  });

  it('refuses what is not iCalendar, an unclosed component, a bad all-day date and an oversized text', () => {
    expect(codeOf(() => parseIcs(fixture('not-ics.ics'), { from }))).toBe('CALENDAR_ICS_INVALID');
    expect(codeOf(() => parseIcs(fixture('unbalanced.ics'), { from }))).toBe('CALENDAR_ICS_INVALID');
    const badDate =
      'BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:2026-12-25\nEND:VEVENT\nEND:VCALENDAR\n';
    expect(codeOf(() => parseIcs(badDate, { from }))).toBe('CALENDAR_ICS_INVALID');
    const huge = `BEGIN:VCALENDAR\n${'X-PAD:'.padEnd(ICS_MAX_BYTES, 'x')}\nEND:VCALENDAR\n`;
    expect(codeOf(() => parseIcs(huge, { from }))).toBe('CALENDAR_ICS_TOO_LARGE');
  });

  it('unfolds a line continued with a tab or a space', () => {
    expect(unfoldIcs('SUMMARY:Tag der\r\n  Deutschen\r\n\tEinheit\r\n')).toEqual([
      'SUMMARY:Tag der DeutschenEinheit',
    ]);
  });
});
