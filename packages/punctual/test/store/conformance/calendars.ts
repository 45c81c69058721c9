// Conformance: a tenant's calendars (CalendarStore), an optional part of a store: conformance.ts runs this
// group only for a store that has it (hasCalendars). Covers create/replace with versions, the
// expectedVersion compare-and-set, the refusal to delete a calendar a schedule names, a schedule's
// calendar rules kept and read back, the re-planning of pending runs after a change (started runs
// untouched), and tenant isolation. Speaks only the contract, never SQL; instants are fixed.

import { expect, it } from 'vitest';
import { normalizeCalendar, type CalendarInput } from '../../../src/domain/calendar/calendar.js';
import type { CalendarStore } from '../../../src/store/calendar-store.js';
import type { Store } from '../../../src/store/store.js';
import { MINUTE, OTHER_TENANT, T0, TENANT } from '../../support/fixtures.js';
import { addRuns, claimOne, create, rejectsWithCode, runOf, type Ctx } from './helpers.js';

export { hasCalendars } from '../../../src/store/calendar-store.js';

const HOLIDAYS: CalendarInput = {
  name: 'de-holidays',
  tz: 'Europe/Berlin',
  dates: [{ start: '2026-12-24', end: '2026-12-26', label: 'Weihnachten' }],
  workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
};

export function calendarTests(ctx: Ctx): void {
  const store = (): Store & CalendarStore => ctx.store as Store & CalendarStore;
  const put = (
    input: CalendarInput,
    opts: { tenant?: string; now?: number; expectedVersion?: number } = {},
  ) =>
    store().putCalendar({
      tenantId: opts.tenant ?? TENANT,
      draft: normalizeCalendar(input),
      now: opts.now ?? T0,
      expectedVersion: opts.expectedVersion,
    });

  it('creates, reads back, keeps the version on an identical put and bumps it on a change', async () => {
    const created = await put(HOLIDAYS);
    expect(created).toMatchObject({ created: true, changed: true });
    expect(created.calendar).toEqual({
      tenantId: TENANT,
      name: 'de-holidays',
      tz: 'Europe/Berlin',
      dates: [{ start: '2026-12-24', end: '2026-12-26', label: 'Weihnachten' }],
      workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
      description: null,
      version: 1,
      createdAt: T0,
      updatedAt: T0,
    });
    expect(await store().getCalendar(TENANT, 'de-holidays')).toEqual(created.calendar);
    const same = await put(HOLIDAYS, { now: T0 + 1 });
    expect(same).toMatchObject({ created: false, changed: false, calendar: { version: 1, updatedAt: T0 } });
    const changed = await put({ ...HOLIDAYS, dates: ['2027-01-01'] }, { now: T0 + 2 });
    expect(changed.calendar).toMatchObject({ version: 2, createdAt: T0, updatedAt: T0 + 2 });
    expect(changed.calendar.dates).toEqual([{ start: '2027-01-01', end: '2027-01-01', label: null }]);
  });

  it('refuses a put or delete at another version, changing nothing', async () => {
    await put(HOLIDAYS);
    const d = await rejectsWithCode(
      put({ ...HOLIDAYS, dates: [] }, { expectedVersion: 2 }),
      'VERSION_CONFLICT',
    );
    expect(d).toMatchObject({ name: 'de-holidays', expected: 2, actual: 1 });
    await rejectsWithCode(put({ ...HOLIDAYS, name: 'new' }, { expectedVersion: 1 }), 'VERSION_CONFLICT');
    await rejectsWithCode(
      store().deleteCalendar(TENANT, 'de-holidays', { now: T0, expectedVersion: 3 }),
      'VERSION_CONFLICT',
    );
    expect((await store().getCalendar(TENANT, 'de-holidays'))?.version).toBe(1);
    expect(await store().getCalendar(TENANT, 'new')).toBeUndefined();
  });

  it('lists by name per tenant; another tenant sees nothing and cannot delete', async () => {
    await put({ name: 'b-cal' });
    await put({ name: 'a-cal' });
    await put({ name: 'theirs' }, { tenant: OTHER_TENANT });
    expect((await store().listCalendars(TENANT)).map((c) => c.name)).toEqual(['a-cal', 'b-cal']);
    expect(await store().getCalendar(OTHER_TENANT, 'a-cal')).toBeUndefined();
    await rejectsWithCode(store().deleteCalendar(OTHER_TENANT, 'a-cal', { now: T0 }), 'CALENDAR_NOT_FOUND');
    await store().deleteCalendar(TENANT, 'a-cal', { now: T0 });
    expect((await store().listCalendars(TENANT)).map((c) => c.name)).toEqual(['b-cal']);
  });

  it('keeps a schedule calendar rules and refuses to delete a calendar while one names it', async () => {
    await put(HOLIDAYS);
    await put({ name: 'work', workingDays: ['mon'] });
    const rules = { exclude: ['de-holidays'], businessDays: { calendar: 'work', roll: 'next' as const } };
    const s = await create(store(), { calendarRules: rules });
    expect(s.calendarRules).toEqual(rules);
    expect((await store().getSchedule(TENANT, s.key))?.calendarRules).toEqual(rules);
    const d = await rejectsWithCode(
      store().deleteCalendar(TENANT, 'de-holidays', { now: T0 }),
      'CALENDAR_IN_USE',
    );
    expect(d).toMatchObject({ name: 'de-holidays', schedules: [s.key] });
    expect(await store().calendarUsers(TENANT, 'de-holidays', 10)).toEqual([s.key]);
    expect(await store().calendarUsers(TENANT, 'work', 10)).toEqual([s.key]);
    expect(await store().calendarUsers(OTHER_TENANT, 'de-holidays', 10)).toEqual([]);
    await rejectsWithCode(store().deleteCalendar(TENANT, 'work', { now: T0 }), 'CALENDAR_IN_USE');
    // Once the schedule no longer names it, it can go.
    await create(store(), { calendarRules: null }, { now: T0 + 1 });
    expect(await store().calendarUsers(TENANT, 'de-holidays', 10)).toEqual([]);
    await store().deleteCalendar(TENANT, 'de-holidays', { now: T0 });
    expect(await store().getCalendar(TENANT, 'de-holidays')).toBeUndefined();
  });

  it('lists the schedules using a calendar by key, up to the limit', async () => {
    await put(HOLIDAYS);
    const rules = { exclude: ['de-holidays'], businessDays: null };
    for (const key of ['c', 'a', 'b']) await create(store(), { key, calendarRules: rules });
    await create(store(), { key: 'other', calendarRules: { exclude: ['de'], businessDays: null } });
    expect(await store().calendarUsers(TENANT, 'de-holidays', 10)).toEqual(['a', 'b', 'c']);
    expect(await store().calendarUsers(TENANT, 'de-holidays', 2)).toEqual(['a', 'b']);
  });

  it('re-plans the pending runs of the schedules using a calendar, never a started one', async () => {
    await put(HOLIDAYS);
    const user = await create(
      store(),
      { calendarRules: { exclude: ['de-holidays'], businessDays: null } },
      { nextFireAt: T0 + 10 * MINUTE },
    );
    const other = await create(store(), { key: 'no-calendar' });
    const times = [T0 + MINUTE, T0 + 2 * MINUTE, T0 + 3 * MINUTE];
    const runs = await addRuns(store(), user, times);
    const untouched = await addRuns(store(), other, times);
    const started = await claimOne(store(), T0 + MINUTE); // the first run of one of them starts
    const res = await store().rewindCalendarUsers({
      tenantId: TENANT,
      calendar: 'de-holidays',
      now: T0 + MINUTE,
      after: null,
      limit: 500,
    });
    expect(res.schedules).toBe(1);
    expect(res.last).toBeNull();
    const pendingOfUser = runs.filter((r) => r.id !== started.run.id);
    expect(res.transitions.map((t) => [t.run.id, t.from, t.to, t.run.reason])).toEqual(
      pendingOfUser.map((r) => [r.id, 'scheduled', 'cancelled', 'calendarChanged']),
    );
    expect((await runOf(store(), started.run)).state).toBe('running');
    for (const r of untouched.filter((u) => u.id !== started.run.id)) {
      expect((await runOf(store(), r)).state).toBe('scheduled');
    }
    // The schedule is back at its earliest cancelled occurrence, so the materializer writes it again.
    const after = await store().getSchedule(TENANT, user.key);
    expect(after?.nextFireAt).toBe(Math.min(...pendingOfUser.map((r) => r.scheduledFor)));
  });

  it('walks the users in batches', async () => {
    await put(HOLIDAYS);
    for (const key of ['u1', 'u2', 'u3']) {
      await create(store(), { key, calendarRules: { exclude: ['de-holidays'], businessDays: null } });
    }
    const first = await store().rewindCalendarUsers({
      tenantId: TENANT,
      calendar: 'de-holidays',
      now: T0,
      after: null,
      limit: 2,
    });
    expect(first.schedules).toBe(2);
    expect(first.last).not.toBeNull();
    const second = await store().rewindCalendarUsers({
      tenantId: TENANT,
      calendar: 'de-holidays',
      now: T0,
      after: first.last,
      limit: 2,
    });
    expect(second).toMatchObject({ schedules: 1, last: null });
  });
}
