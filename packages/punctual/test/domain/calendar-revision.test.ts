// The calendar revision's pure parts: the diff of two versions (dates added and removed with their labels, a
// relabel as both, working days, zone, description; nothing for equal content) and the revision a write
// records (its change from the note and the sides given).
import { describe, expect, it } from 'vitest';
import { calendarRevisionOf, diffCalendars } from '../../src/domain/calendar/calendar-revision.js';
import { normalizeCalendar } from '../../src/domain/calendar/calendar.js';

const A = normalizeCalendar({
  name: 'de',
  tz: 'Europe/Berlin',
  dates: [{ start: '2026-12-24', end: '2026-12-26', label: 'Weihnachten' }, '2027-01-01'],
  workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
});

describe('diffCalendars', () => {
  it('is empty for the same content, whatever the object', () => {
    expect(diffCalendars(A, { ...A, dates: A.dates.map((d) => ({ ...d })) })).toEqual({});
  });

  it('lists dates added and removed, a relabel as both, and the other parts as from/to', () => {
    const B = normalizeCalendar({
      name: 'de',
      tz: 'UTC',
      dates: [{ start: '2026-12-24', end: '2026-12-26', label: 'Christmas' }, '2027-01-01', '2027-05-01'],
      description: 'x',
    });
    expect(diffCalendars(A, B)).toEqual({
      dates: {
        added: [
          { start: '2026-12-24', end: '2026-12-26', label: 'Christmas' },
          { start: '2027-05-01', end: '2027-05-01', label: null },
        ],
        removed: [{ start: '2026-12-24', end: '2026-12-26', label: 'Weihnachten' }],
      },
      workingDays: { from: ['mon', 'tue', 'wed', 'thu', 'fri'], to: null },
      tz: { from: 'Europe/Berlin', to: 'UTC' },
      description: { from: null, to: 'x' },
    });
  });

  it('lists every date as added on creation and as removed on deletion', () => {
    expect(diffCalendars(null, A).dates).toEqual({ added: A.dates, removed: [] });
    expect(diffCalendars(A, null)).toMatchObject({
      dates: { added: [], removed: A.dates },
      tz: { from: 'Europe/Berlin', to: null },
    });
  });
});

describe('calendarRevisionOf', () => {
  const v1 = { ...A, version: 1 };
  const v2 = { ...A, dates: [], version: 2 };
  it('names the change from the sides and the note', () => {
    expect(calendarRevisionOf('t', undefined, v1, { actor: 'k' }, 5)).toMatchObject({
      tenantId: 't',
      name: 'de',
      version: 1,
      at: 5,
      actor: 'k',
      change: 'created',
      fromVersion: null,
    });
    expect(calendarRevisionOf('t', v1, v2, undefined, 6)).toMatchObject({ change: 'updated', actor: null });
    expect(calendarRevisionOf('t', v2, { ...v1, version: 3 }, { fromVersion: 1 }, 7)).toMatchObject({
      change: 'rolledBack',
      fromVersion: 1,
      version: 3,
    });
    const deleted = calendarRevisionOf('t', v2, null, { actor: 'k' }, 8);
    expect(deleted).toMatchObject({ change: 'deleted', version: 2, fromVersion: null });
    expect(deleted.content).toEqual({
      name: 'de',
      tz: 'Europe/Berlin',
      dates: [],
      workingDays: A.workingDays,
      description: null,
    });
  });
});
