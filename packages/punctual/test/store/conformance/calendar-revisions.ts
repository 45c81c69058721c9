// Conformance: calendar revisions (an optional part, run for a store with calendars). Each change (create,
// update, a put marked as a rollback, delete) writes one revision with the calendar write: actor, instant,
// diff (dates added and removed with labels, working days, zone, description) and full content; an unchanged
// or refused write writes none; pages newest first; the newest REVISIONS_KEPT are kept; the history outlives
// a delete and a calendar created again continues its version numbers. Speaks only the contract.

import { expect, it } from 'vitest';
import { normalizeCalendar, type CalendarInput } from '../../../src/domain/calendar/calendar.js';
import { REVISIONS_KEPT } from '../../../src/domain/schedule-revision.js';
import type { CalendarStore } from '../../../src/store/calendar-store.js';
import type { Store } from '../../../src/store/store.js';
import { OTHER_TENANT, T0, TENANT } from '../../support/fixtures.js';
import { create, rejectsWithCode, type Ctx } from './helpers.js';

const HOLIDAYS: CalendarInput = {
  name: 'de-holidays',
  tz: 'Europe/Berlin',
  dates: [
    { start: '2026-12-24', end: '2026-12-26', label: 'Weihnachten' },
    { start: '2027-01-01', label: 'Neujahr' },
  ],
  workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
};

export function calendarRevisionTests(ctx: Ctx): void {
  const store = (): Store & CalendarStore => ctx.store as Store & CalendarStore;
  const put = (
    input: CalendarInput,
    now: number,
    opts: { actor?: string; fromVersion?: number; expectedVersion?: number; tenant?: string } = {},
  ) =>
    store().putCalendar({
      tenantId: opts.tenant ?? TENANT,
      draft: normalizeCalendar(input),
      now,
      expectedVersion: opts.expectedVersion,
      revision: { actor: opts.actor ?? 'key:1', fromVersion: opts.fromVersion },
    });
  const history = async (name = 'de-holidays', tenantId = TENANT) =>
    (await store().listCalendarRevisions({ tenantId, name, limit: 1000 })).items;

  it('writes a created revision with the full content and every date as added', async () => {
    await put(HOLIDAYS, T0);
    const [rev, ...rest] = await history();
    expect(rest).toEqual([]);
    expect(rev).toMatchObject({
      tenantId: TENANT,
      name: 'de-holidays',
      version: 1,
      at: T0,
      actor: 'key:1',
      change: 'created',
      fromVersion: null,
    });
    expect(rev!.content).toEqual(normalizeCalendar(HOLIDAYS));
    expect(rev!.diff).toEqual({
      dates: { added: normalizeCalendar(HOLIDAYS).dates, removed: [] },
      workingDays: { from: null, to: ['mon', 'tue', 'wed', 'thu', 'fri'] },
      tz: { from: null, to: 'Europe/Berlin' },
    });
  });

  it('diffs an update by dates added and removed (a relabel is both), and writes none when unchanged', async () => {
    await put(HOLIDAYS, T0);
    await put(HOLIDAYS, T0 + 1);
    await put(
      {
        ...HOLIDAYS,
        dates: [
          { start: '2026-12-24', end: '2026-12-26', label: 'Christmas' },
          { start: '2027-05-01', label: 'Tag der Arbeit' },
        ],
        workingDays: null,
        description: 'Berlin',
      },
      T0 + 2,
      { actor: 'key:2' },
    );
    const revs = await history();
    expect(revs.map((r) => [r.version, r.change, r.at])).toEqual([
      [2, 'updated', T0 + 2],
      [1, 'created', T0],
    ]);
    expect(revs[0]!.actor).toBe('key:2');
    expect(revs[0]!.diff).toEqual({
      dates: {
        added: [
          { start: '2026-12-24', end: '2026-12-26', label: 'Christmas' },
          { start: '2027-05-01', end: '2027-05-01', label: 'Tag der Arbeit' },
        ],
        removed: [
          { start: '2026-12-24', end: '2026-12-26', label: 'Weihnachten' },
          { start: '2027-01-01', end: '2027-01-01', label: 'Neujahr' },
        ],
      },
      workingDays: { from: ['mon', 'tue', 'wed', 'thu', 'fri'], to: null },
      description: { from: null, to: 'Berlin' },
    });
    const v1 = await store().getCalendarRevision(TENANT, 'de-holidays', 1);
    expect(v1?.content).toEqual(normalizeCalendar(HOLIDAYS));
    expect(await store().getCalendarRevision(TENANT, 'de-holidays', 3)).toBeUndefined();
  });

  it('marks a put carrying fromVersion as rolledBack', async () => {
    await put(HOLIDAYS, T0);
    await put({ ...HOLIDAYS, dates: [] }, T0 + 1);
    await put(HOLIDAYS, T0 + 2, { fromVersion: 1, expectedVersion: 2 });
    const [rev] = await history();
    expect(rev).toMatchObject({ version: 3, change: 'rolledBack', fromVersion: 1 });
    expect(rev!.content).toEqual(normalizeCalendar(HOLIDAYS));
  });

  it('writes no revision for a refused put or delete', async () => {
    await put(HOLIDAYS, T0);
    await rejectsWithCode(
      put({ ...HOLIDAYS, dates: [] }, T0 + 1, { expectedVersion: 5 }),
      'VERSION_CONFLICT',
    );
    await create(store(), { calendarRules: { exclude: ['de-holidays'], businessDays: null } });
    await rejectsWithCode(store().deleteCalendar(TENANT, 'de-holidays', { now: T0 + 2 }), 'CALENDAR_IN_USE');
    expect((await history()).map((r) => r.change)).toEqual(['created']);
  });

  it('keeps the history after a delete; a calendar created again continues its versions', async () => {
    await put(HOLIDAYS, T0);
    await put({ ...HOLIDAYS, tz: 'UTC' }, T0 + 1);
    await store().deleteCalendar(TENANT, 'de-holidays', { now: T0 + 2, actor: 'key:9' });
    const [deleted] = await history();
    expect(deleted).toMatchObject({
      version: 2,
      change: 'deleted',
      actor: 'key:9',
      at: T0 + 2,
      fromVersion: null,
    });
    expect(deleted!.content).toEqual({ ...normalizeCalendar(HOLIDAYS), tz: 'UTC' });
    expect(deleted!.diff.dates).toEqual({ added: [], removed: normalizeCalendar(HOLIDAYS).dates });
    const again = await put({ name: 'de-holidays' }, T0 + 3);
    expect(again).toMatchObject({ created: true, calendar: { version: 3 } });
    expect((await history()).map((r) => [r.version, r.change])).toEqual([
      [3, 'created'],
      [2, 'deleted'],
      [2, 'updated'],
      [1, 'created'],
    ]);
    // The newest revision of a version number is the one read back (the delete's, for version 2).
    expect((await store().getCalendarRevision(TENANT, 'de-holidays', 2))?.change).toBe('deleted');
  });

  it('pages newest first and keeps the newest REVISIONS_KEPT of a name', async () => {
    for (let i = 0; i <= REVISIONS_KEPT + 3; i++) await put({ name: 'n', description: `v${i}` }, T0 + i);
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await store().listCalendarRevisions({ tenantId: TENANT, name: 'n', cursor, limit: 30 });
      seen.push(...page.items.map((r) => r.version));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toHaveLength(REVISIONS_KEPT);
    expect(seen[0]).toBe(REVISIONS_KEPT + 4);
    expect(seen[seen.length - 1]).toBe(5);
  });

  it('keeps each tenant to its own revisions', async () => {
    await put(HOLIDAYS, T0);
    expect(await history('de-holidays', OTHER_TENANT)).toEqual([]);
    expect(await store().getCalendarRevision(OTHER_TENANT, 'de-holidays', 1)).toBeUndefined();
    await put(HOLIDAYS, T0, { tenant: OTHER_TENANT });
    expect(await history('de-holidays', OTHER_TENANT)).toHaveLength(1);
    expect(await history()).toHaveLength(1);
  });
}
