// Overrides in a preview: a skipped occurrence is dropped (reason `override`, listed with explain), a moved
// one is listed at its new instant with a `moved` note (from its nominal instant), one with another payload
// carries a `payloadOverridden` note; an override applies only to an occurrence its calendars let run. The
// same list gives a saved schedule's preview and the first occurrence from its materializer's cursor.
// Fixed instants only; the host zone is not used.
import { describe, expect, it } from 'vitest';
import { applyCalendarRules } from '../../src/domain/calendar/apply-calendars.js';
import { normalizeCalendar } from '../../src/domain/calendar/calendar.js';
import { cursorFireAt, nextFireOf } from '../../src/domain/next-fire.js';
import { normalizeSchedule, type Schedule } from '../../src/domain/schedule.js';
import { previewSchedule } from '../../src/domain/schedule-preview.js';
import { compileSpec } from '../../src/domain/timing/compile-spec.js';
import type { PreviewOverride } from '../../src/domain/timing/preview-list.js';
import { previewSpec } from '../../src/domain/timing/preview-spec.js';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString();
const skip = (instant: string): PreviewOverride => ({ instant: at(instant), kind: 'skip', moveTo: null });
const move = (instant: string, to: string): PreviewOverride => ({
  instant: at(instant),
  kind: 'move',
  moveTo: at(to),
});
const payload = (instant: string): PreviewOverride => ({
  instant: at(instant),
  kind: 'payload',
  moveTo: null,
});

// Berlin, 09:00 local = 08:00Z in winter.
const FROM = at('2026-12-01T00:00:00Z');
const daily = (overrides: PreviewOverride[], extra: { count?: number; explain?: boolean } = {}) =>
  previewSpec('0 9 * * *', {
    tz: 'Europe/Berlin',
    from: FROM,
    count: extra.count ?? 4,
    explain: extra.explain ?? true,
    overrides,
  });

describe('previewSpec with overrides', () => {
  it('drops a skipped occurrence with reason override and lists the next one in its place', () => {
    const p = daily([skip('2026-12-02T08:00:00Z')]);
    expect(p.next.map(iso)).toEqual([
      '2026-12-01T08:00:00.000Z',
      '2026-12-03T08:00:00.000Z',
      '2026-12-04T08:00:00.000Z',
      '2026-12-05T08:00:00.000Z',
    ]);
    expect(p.dropped).toEqual([{ at: at('2026-12-02T08:00:00Z'), reason: 'override' }]);
    expect(daily([skip('2026-12-02T08:00:00Z')], { explain: false }).dropped).toBeUndefined();
  });

  it('lists a moved occurrence at its new instant, in order, with a moved note from its nominal instant', () => {
    const p = daily([move('2026-12-02T08:00:00Z', '2026-12-03T13:00:00Z')]);
    expect(p.occurrences).toEqual([
      { at: at('2026-12-01T08:00:00Z'), notes: [] },
      { at: at('2026-12-03T08:00:00Z'), notes: [] },
      { at: at('2026-12-03T13:00:00Z'), notes: [{ kind: 'moved', from: at('2026-12-02T08:00:00Z') }] },
      { at: at('2026-12-04T08:00:00Z'), notes: [] },
    ]);
    expect(p.dropped).toEqual([]);
  });

  it('a move to after the listed ones is cut off by count; a move from beyond the search into it is listed', () => {
    const later = daily([move('2026-12-02T08:00:00Z', '2026-12-20T08:30:00Z')]);
    expect(later.next.map(iso)).toEqual([
      '2026-12-01T08:00:00.000Z',
      '2026-12-03T08:00:00.000Z',
      '2026-12-04T08:00:00.000Z',
      '2026-12-05T08:00:00.000Z',
    ]);
    const earlier = daily([move('2026-12-24T08:00:00Z', '2026-12-02T12:00:00Z')]);
    expect(earlier.occurrences[2]).toEqual({
      at: at('2026-12-02T12:00:00Z'),
      notes: [{ kind: 'moved', from: at('2026-12-24T08:00:00Z') }],
    });
    // An occurrence moved from before `from` to after it still comes.
    const fromBefore = daily([move('2026-11-30T08:00:00Z', '2026-12-01T10:00:00Z')]);
    expect(fromBefore.next.map(iso).slice(0, 2)).toEqual([
      '2026-12-01T08:00:00.000Z',
      '2026-12-01T10:00:00.000Z',
    ]);
    // An override of an instant that is no occurrence moves nothing.
    expect(daily([move('2026-11-30T08:30:00Z', '2026-12-01T10:00:00Z')]).next.map(iso)[1]).toBe(
      '2026-12-02T08:00:00.000Z',
    );
  });

  it('notes a payload override and keeps the instant', () => {
    const p = daily([payload('2026-12-03T08:00:00Z')], { count: 3 });
    expect(p.occurrences[2]).toEqual({
      at: at('2026-12-03T08:00:00Z'),
      notes: [{ kind: 'payloadOverridden' }],
    });
  });

  it('keeps DST notes on an overridden occurrence (New York, the repeated hour)', () => {
    const p = previewSpec('30 1 * * *', {
      tz: 'America/New_York',
      from: at('2026-10-31T12:00:00Z'),
      count: 2,
      dst: { repeat: 'both' },
      overrides: [{ instant: at('2026-11-01T06:30:00Z'), kind: 'payload', moveTo: null }],
    });
    expect(p.occurrences.map((o) => [iso(o.at), o.notes])).toEqual([
      ['2026-11-01T05:30:00.000Z', [{ kind: 'dstRepeat', pass: 1 }]],
      ['2026-11-01T06:30:00.000Z', [{ kind: 'dstRepeat', pass: 2 }, { kind: 'payloadOverridden' }]],
    ]);
  });

  it('with calendars: an excluded occurrence stays dropped by its calendar; a rolled one moved drops its roll note', () => {
    const cal = normalizeCalendar({
      name: 'work',
      tz: 'Asia/Tokyo',
      dates: [{ start: '2026-12-02', label: 'closed' }],
      workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
    });
    const calendars = applyCalendarRules(
      { exclude: ['work'], businessDays: { calendar: 'work', roll: 'next' } },
      (n) => (n === 'work' ? cal : undefined),
    );
    // 09:00 Tokyo = 00:00Z. 2026-12-05 is a Saturday: it rolls to Monday the 7th.
    const p = previewSpec('0 9 * * *', {
      tz: 'Asia/Tokyo',
      from: at('2026-12-01T12:00:00Z'),
      count: 3,
      explain: true,
      calendars,
      overrides: [skip('2026-12-02T00:00:00Z'), move('2026-12-05T00:00:00Z', '2026-12-04T06:00:00Z')],
    });
    expect(p.occurrences.map((o) => [iso(o.at), o.notes])).toEqual([
      ['2026-12-03T00:00:00.000Z', []],
      ['2026-12-04T00:00:00.000Z', []],
      ['2026-12-04T06:00:00.000Z', [{ kind: 'moved', from: at('2026-12-05T00:00:00Z') }]],
    ]);
    // The skip override of the closed day is not what drops it: its calendar is.
    expect(p.dropped).toEqual([
      { at: at('2026-12-02T00:00:00Z'), reason: 'calendar', calendar: 'work', label: 'closed' },
    ]);
  });
});

const T0 = at('2026-12-01T00:00:00Z');
function saved(over: Partial<Schedule> = {}): Schedule {
  const draft = normalizeSchedule(
    { key: 'daily', spec: '0 9 * * *', tz: 'Europe/Berlin', target: { handler: 't' } },
    { tenantId: 't', now: T0 },
  );
  return {
    ...draft,
    id: '1',
    state: 'active',
    version: 1,
    nextFireAt: at('2026-12-01T08:00:00Z'),
    materializedCount: 0,
    firedCount: 0,
    lastFiredAt: null,
    lastSucceededAt: null,
    pausedAt: null,
    pausedUntil: null,
    note: null,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}

describe('previewSchedule', () => {
  it("applies the saved schedule's overrides; a completed schedule has no occurrences", () => {
    const overrides = [skip('2026-12-01T08:00:00Z'), payload('2026-12-02T08:00:00Z')];
    const p = previewSchedule(saved(), { from: T0, count: 2, explain: true, calendars: null, overrides });
    expect(p.occurrences).toEqual([
      { at: at('2026-12-02T08:00:00Z'), notes: [{ kind: 'payloadOverridden' }] },
      { at: at('2026-12-03T08:00:00Z'), notes: [] },
    ]);
    expect(p.dropped).toEqual([{ at: at('2026-12-01T08:00:00Z'), reason: 'override' }]);
    expect(p.description).toContain('09:00');
    const done = previewSchedule(saved({ state: 'completed', nextFireAt: null }), {
      from: T0,
      count: 2,
      calendars: null,
      overrides,
    });
    expect(done.occurrences).toEqual([]);
  });
});

describe('previewSchedule with maxRuns', () => {
  it('lists no more than maxRuns leaves from the cursor; a skip override counts, as when written', () => {
    // 2 of 3 written: the 1st is pending (before the cursor), one more remains from the cursor on.
    const s = saved({ maxRuns: 3, materializedCount: 2, nextFireAt: at('2026-12-02T08:00:00Z') });
    const list = (overrides: PreviewOverride[]) =>
      previewSchedule(s, { from: T0, count: 5, calendars: null, overrides }).next.map(iso);
    expect(list([])).toEqual(['2026-12-01T08:00:00.000Z', '2026-12-02T08:00:00.000Z']);
    expect(list([skip('2026-12-02T08:00:00Z')])).toEqual(['2026-12-01T08:00:00.000Z']);
    // A move from beyond the last one allowed does not bring it back.
    expect(list([move('2026-12-05T08:00:00Z', '2026-12-01T12:00:00Z')])).toEqual([
      '2026-12-01T08:00:00.000Z',
      '2026-12-02T08:00:00.000Z',
    ]);
  });
});

describe('cursorFireAt', () => {
  const spec = compileSpec('0 9 * * *', { tz: 'Europe/Berlin', now: T0, validate: false });
  const cursor = at('2026-12-01T08:00:00Z');

  it('is the cursor itself without rules, the next occurrence after a skipped one, the new instant of a moved one', () => {
    expect(cursorFireAt(spec, cursor, null, [])).toBe(cursor);
    expect(iso(cursorFireAt(spec, cursor, null, [skip('2026-12-01T08:00:00Z')])!)).toBe(
      '2026-12-02T08:00:00.000Z',
    );
    expect(
      iso(cursorFireAt(spec, cursor, null, [move('2026-12-01T08:00:00Z', '2026-12-03T10:00:00Z')])!),
    ).toBe('2026-12-02T08:00:00.000Z');
    expect(
      iso(cursorFireAt(spec, cursor, null, [move('2026-12-01T08:00:00Z', '2026-12-01T10:00:00Z')])!),
    ).toBe('2026-12-01T10:00:00.000Z');
    // An override before the cursor is materialised already: its run is pending, not this answer.
    expect(cursorFireAt(spec, cursor, null, [move('2026-11-30T08:00:00Z', '2026-12-01T07:00:00Z')])).toBe(
      cursor,
    );
  });

  it('skips an excluded date and rolls a weekend to the previous working day (Berlin)', () => {
    const cal = normalizeCalendar({
      name: 'de',
      tz: 'Europe/Berlin',
      dates: [{ start: '2026-12-01', label: 'closed' }],
      workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
    });
    const find = (n: string) => (n === 'de' ? cal : undefined);
    const ex = applyCalendarRules({ exclude: ['de'], businessDays: null }, find);
    expect(iso(cursorFireAt(spec, cursor, ex, [])!)).toBe('2026-12-02T08:00:00.000Z');
    const prev = applyCalendarRules(
      { exclude: [], businessDays: { calendar: 'de', roll: 'previous' } },
      find,
    );
    // Saturday 2026-12-05 rolls to Friday the 4th.
    expect(iso(cursorFireAt(spec, at('2026-12-05T08:00:00Z'), prev, [])!)).toBe('2026-12-04T08:00:00.000Z');
  });

  it('nextFireOf takes the cursor as its calendars and overrides leave it', () => {
    const s = { state: 'active' as const, nextFireAt: cursor };
    expect(nextFireOf(s, null, at('2026-12-02T08:00:00Z'))).toBe(at('2026-12-02T08:00:00Z'));
    expect(nextFireOf(s, at('2026-12-01T09:00:00Z'), at('2026-12-02T08:00:00Z'))).toBe(
      at('2026-12-01T09:00:00Z'),
    );
    expect(nextFireOf(s, null, null)).toBeNull();
    expect(nextFireOf(s, null)).toBe(cursor);
  });
});
