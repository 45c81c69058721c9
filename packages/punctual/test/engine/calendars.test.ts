// The engine keeps to a schedule's calendars: an excluded date is recorded as skipped (reason `calendar`
// with the calendar's name), a rolled occurrence keeps its nominal scheduledFor and runs at the rolled
// instant, a schedule naming a missing calendar or never firing under its calendars is refused, and a
// calendar edit while runs are pending re-plans them. Injected clock, fixed instants, waits on events.
import { afterEach, describe, expect, it } from 'vitest';
import { isPunctualError } from '../../src/errors.js';
import { harness, type Harness } from '../support/harness.js';

let h: Harness | undefined;
afterEach(async () => h?.close());

const iso = (ms: number): string => new Date(ms).toISOString();
const HOUR = 3_600_000;
// Few engine timers per simulated hour: the tests move the clock by days.
const QUIET = { reapIntervalMs: HOUR, maxSleepMs: HOUR, clockSync: { intervalMs: HOUR } };

async function refusal(p: Promise<unknown>): Promise<[string, unknown]> {
  try {
    await p;
  } catch (e) {
    if (isPunctualError(e)) return [e.code, e.details];
    throw e;
  }
  return ['accepted', null];
}

describe('calendars in the engine', () => {
  it('skips an excluded date, recorded with the calendar name and label (Europe/Berlin)', async () => {
    h = await harness({ start: '2026-12-23T07:00:00.000Z', ...QUIET });
    const seen: string[] = [];
    h.s.handle('job', (ctx) => {
      seen.push(iso(ctx.run.scheduledFor));
    });
    await h.s.putCalendar({
      name: 'de',
      tz: 'Europe/Berlin',
      dates: [{ start: '2026-12-24', label: 'Heiligabend' }],
    });
    await h.s.put({
      key: 'daily',
      spec: '0 9 * * *',
      tz: 'Europe/Berlin',
      exclude: ['de'],
      target: { handler: 'job' },
    });
    await h.clock.advance(26 * HOUR);
    expect(seen).toEqual(['2026-12-23T08:00:00.000Z']);
    const skipped = h.of('run:skipped').map((e) => e.run);
    expect(skipped.map((r) => [iso(r.scheduledFor), r.reason, r.details])).toEqual([
      ['2026-12-24T08:00:00.000Z', 'calendar', { calendar: 'de', label: 'Heiligabend' }],
    ]);
  });

  it('rolls a weekend occurrence to Monday: nominal scheduledFor, due at the rolled instant (America/New_York)', async () => {
    h = await harness({ start: '2026-12-04T12:00:00.000Z', ...QUIET }); // a Friday
    const ran: [string, string][] = [];
    h.s.handle('job', (ctx) => {
      ran.push([iso(ctx.run.scheduledFor), iso(h!.clock.now())]);
    });
    await h.s.putCalendar({
      name: 'us-work',
      tz: 'America/New_York',
      workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
    });
    await h.s.put({
      key: 'saturday',
      spec: '0 10 * * 6',
      tz: 'America/New_York',
      businessDays: { calendar: 'us-work', roll: 'next' },
      target: { handler: 'job' },
    });
    await h.clock.advance(4 * 24 * HOUR);
    // Saturday 10:00 EST (15:00 UTC) runs on Monday 10:00 EST.
    expect(ran).toEqual([['2026-12-05T15:00:00.000Z', '2026-12-07T15:00:00.000Z']]);
  });

  it('rolls a weekend occurrence back to Friday and writes its run in time to start on Friday (Asia/Kolkata)', async () => {
    h = await harness({ start: '2026-12-01T00:00:00.000Z', ...QUIET }); // a Tuesday
    const ran: [string, string][] = [];
    h.s.handle('job', (ctx) => {
      ran.push([iso(ctx.run.scheduledFor), iso(h!.clock.now())]);
    });
    await h.s.putCalendar({
      name: 'in-work',
      tz: 'Asia/Kolkata',
      workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
    });
    await h.s.put({
      key: 'saturday',
      spec: '0 10 * * 6',
      tz: 'Asia/Kolkata',
      businessDays: { calendar: 'in-work', roll: 'previous' },
      target: { handler: 'job' },
    });
    await h.clock.advance(12 * 24 * HOUR);
    // Saturday 10:00 IST (04:30 UTC) runs on Friday 10:00 IST, on time, twice.
    expect(ran).toEqual([
      ['2026-12-05T04:30:00.000Z', '2026-12-04T04:30:00.000Z'],
      ['2026-12-12T04:30:00.000Z', '2026-12-11T04:30:00.000Z'],
    ]);
    // The schedule's next fire time is the rolled instant of the next one.
    const s = await h.s.require('saturday');
    expect(iso((await h.s.nextFireTimes([s])).get(s.id)!)).toBe('2026-12-18T04:30:00.000Z');
  });

  it('writes a rolled-back run at once when the schedule is saved shortly before its rolled instant', async () => {
    // Friday 04:00 UTC; the engine's loops sleep up to a day, so only the save's own nudge can be in time.
    h = await harness({ start: '2026-12-04T04:00:00.000Z', ...QUIET, maxSleepMs: 24 * HOUR });
    const ran: [string, string][] = [];
    h.s.handle('job', (ctx) => {
      ran.push([iso(ctx.run.scheduledFor), iso(h!.clock.now())]);
    });
    await h.s.putCalendar({
      name: 'in-work',
      tz: 'Asia/Kolkata',
      workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
    });
    await h.s.put({
      key: 'saturday',
      spec: '0 10 * * 6',
      tz: 'Asia/Kolkata',
      businessDays: { calendar: 'in-work', roll: 'previous' },
      target: { handler: 'job' },
    });
    await h.clock.advance(HOUR);
    expect(ran).toEqual([['2026-12-05T04:30:00.000Z', '2026-12-04T04:30:00.000Z']]);
  });

  it('refuses a schedule naming a missing calendar, or one that can never fire under its calendars', async () => {
    h = await harness({ start: '2026-12-04T12:00:00.000Z' });
    h.s.handle('job', () => undefined);
    expect(
      await refusal(h.s.put({ key: 'k', spec: '0 9 * * *', exclude: ['nope'], target: { handler: 'job' } })),
    ).toEqual(['CALENDAR_UNKNOWN', { field: 'exclude[0]', calendar: 'nope' }]);
    await h.s.putCalendar({ name: 'weekdays', workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'] });
    const [code] = await refusal(
      h.s.put({
        key: 'k',
        spec: '0 9 * * 0',
        businessDays: { calendar: 'weekdays', roll: 'skip' },
        target: { handler: 'job' },
      }),
    );
    expect(code).toBe('SPEC_NEVER_FIRES');
    expect(await h.s.get('k')).toBeUndefined();
    expect(await refusal(h.s.deleteCalendar('weekdays'))).toEqual(['accepted', null]);
  });

  it('a calendar edit while runs are pending re-plans them: a new holiday skips, a removed one runs', async () => {
    h = await harness({ start: '2026-12-20T00:00:00.000Z', lookaheadMs: 6 * HOUR, ...QUIET });
    const seen: string[] = [];
    h.s.handle('job', (ctx) => {
      seen.push(iso(ctx.run.scheduledFor));
    });
    await h.s.putCalendar({ name: 'office', tz: 'UTC', dates: ['2026-12-20'] });
    await h.s.put({ key: 'hourly', spec: '0 * * * *', exclude: ['office'], target: { handler: 'job' } });
    await h.quiesce();
    // 2026-12-20 is excluded: its occurrences within the look-ahead are recorded as skipped.
    const skippedBefore = h.of('run:skipped').length;
    expect(skippedBefore).toBeGreaterThan(0);
    // Move the holiday to the 21st while the 20th's occurrences are skipped and none is pending.
    const cancelledBefore = h.of('run:cancelled').length;
    const res = await h.s.putCalendar({ name: 'office', tz: 'UTC', dates: ['2026-12-21'] });
    expect(res.calendar.version).toBe(2);
    await h.clock.advance(2 * HOUR + 1);
    // The 20th runs now, from the current instant on: the skipped records of occurrences not yet past were
    // dropped and written again.
    expect(seen).toEqual([
      '2026-12-20T00:00:00.000Z',
      '2026-12-20T01:00:00.000Z',
      '2026-12-20T02:00:00.000Z',
    ]);
    expect(h.of('run:cancelled').length).toBe(cancelledBefore);
    // A run pending on a day that becomes a holiday is cancelled (calendarChanged) and recorded as skipped.
    await h.clock.advance(20 * HOUR); // 2026-12-20T22:00: the 21st's first hours are within look-ahead
    await h.s.putCalendar({ name: 'office', tz: 'UTC', dates: ['2026-12-20', '2026-12-21'] });
    await h.quiesce();
    const cancelled = h.of('run:cancelled').map((e) => e.run);
    expect(cancelled.length).toBeGreaterThan(0);
    expect(cancelled.every((r) => r.reason === 'calendarChanged')).toBe(true);
    await h.clock.advance(4 * HOUR);
    expect(seen.filter((s) => s.startsWith('2026-12-21'))).toEqual([]);
    expect(
      h
        .of('run:skipped')
        .map((e) => e.run)
        .filter((r) => iso(r.scheduledFor).startsWith('2026-12-21T0'))
        .every((r) => r.reason === 'calendar'),
    ).toBe(true);
  });
});
