// When a schedule fires next, as the API shows it: its earliest pending run, else its next occurrence not
// yet materialised; null while paused. The schedule's own nextFireAt is the materializer's cursor, which
// runs ahead of the run already queued.

import { afterEach, describe, expect, it } from 'vitest';
import { nextFireOf } from '../../src/domain/next-fire.js';
import { harness, iso, type Harness } from '../support/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const HOUR = 3_600_000;
const T = Date.parse('2026-01-05T01:00:00Z');

describe('nextFireOf', () => {
  it('takes the earlier of the pending run and the cursor, and nothing while paused', () => {
    expect(nextFireOf({ state: 'active', nextFireAt: T + HOUR }, T)).toBe(T);
    expect(nextFireOf({ state: 'active', nextFireAt: T }, T + HOUR)).toBe(T); // a retry due later
    expect(nextFireOf({ state: 'active', nextFireAt: T }, undefined)).toBe(T);
    expect(nextFireOf({ state: 'active', nextFireAt: null }, null)).toBeNull();
    expect(nextFireOf({ state: 'completed', nextFireAt: null }, T)).toBe(T); // its last run is queued
    expect(nextFireOf({ state: 'paused', nextFireAt: T }, T)).toBeNull();
  });
});

describe('TenantApi.nextFireTimes', () => {
  it('shows the run already queued, not the next occurrence after it; null while paused', async () => {
    h = await harness({ start: '2026-01-05T00:00:30Z' });
    h.s.handle('t', () => {});
    await h.s.put({ key: 'hourly', spec: '0 * * * *', target: { handler: 't' } });
    const next = async (): Promise<string | null> => {
      const s = await h!.s.require('hourly');
      const at = (await h!.s.nextFireTimes([s])).get(s.id);
      expect(at).not.toBeUndefined();
      return at === null || at === undefined ? null : iso(at);
    };
    expect(await next()).toBe('2026-01-05T01:00:00.000Z');

    await h.clock.advance(HOUR - 35_000); // 00:59:55: the 01:00 run is written (look-ahead)
    expect(h.of('run:scheduled').map((e) => iso(e.run.scheduledFor))).toEqual(['2026-01-05T01:00:00.000Z']);
    const s = await h.s.require('hourly');
    expect(iso(s.nextFireAt!)).toBe('2026-01-05T02:00:00.000Z'); // the cursor has moved past it
    expect(await next()).toBe('2026-01-05T01:00:00.000Z');

    await h.s.pause('hourly');
    expect(await next()).toBeNull();
    await h.s.resume('hourly');
    expect(await next()).toBe('2026-01-05T01:00:00.000Z');
  });

  it('answers for a whole page with one store read, and leaves out schedules of another tenant', async () => {
    h = await harness({ start: '2026-01-05T00:00:30Z' });
    h.s.handle('t', () => {});
    await h.s.putMany([
      { key: 'a', spec: '0 * * * *', target: { handler: 't' } },
      { key: 'b', spec: '30 * * * *', target: { handler: 't' } },
    ]);
    await h.s.tenant('other').put({ key: 'c', spec: '0 * * * *', target: { handler: 't' } });
    const page = await h.s.list();
    const theirs = await h.s.tenant('other').require('c');
    let reads = 0;
    const store = h.s.store;
    const original = store.pendingDueAt.bind(store);
    store.pendingDueAt = (tenantId, ids) => {
      reads++;
      return original(tenantId, ids);
    };
    const got = await h.s.nextFireTimes([...page.items, theirs]);
    expect(reads).toBe(1);
    expect([...got.values()].map((v) => (v === null ? null : iso(v)))).toEqual([
      '2026-01-05T01:00:00.000Z',
      '2026-01-05T00:30:00.000Z',
    ]);
    expect(got.has(theirs.id)).toBe(false);
  });

  it('is the first occurrence its calendars and overrides let run, the one the engine then runs (Europe/Berlin)', async () => {
    // Thursday 2026-12-24 00:00 UTC; 09:00 Berlin is 08:00Z.
    h = await harness({ start: '2026-12-24T00:00:00Z', maxSleepMs: HOUR, reapIntervalMs: HOUR });
    const ran: [string, string][] = [];
    h.s.handle('t', (ctx) => {
      ran.push([iso(ctx.run.scheduledFor), iso(h!.clock.now())]);
    });
    await h.s.putCalendar({
      name: 'de',
      tz: 'Europe/Berlin',
      dates: [{ start: '2026-12-24', end: '2026-12-25', label: 'Weihnachten' }],
      workingDays: ['mon', 'tue', 'wed', 'thu', 'fri'],
    });
    await h.s.put({
      key: 'daily',
      spec: '0 9 * * *',
      tz: 'Europe/Berlin',
      exclude: ['de'],
      businessDays: { calendar: 'de', roll: 'next' },
      target: { handler: 't' },
    });
    const next = async (): Promise<string | null> => {
      const s = await h!.s.require('daily');
      const got = (await h!.s.nextFireTimes([s])).get(s.id);
      return got === null || got === undefined ? null : iso(got);
    };
    const s0 = await h.s.require('daily');
    expect(iso(s0.nextFireAt!)).toBe('2026-12-24T08:00:00.000Z'); // the cursor: an excluded date
    // 24th and 25th excluded; Saturday 26th rolls to Monday 28th, after Sunday 27th (which also rolls there).
    expect(await next()).toBe('2026-12-28T08:00:00.000Z');
    // Sunday's occurrence moved by an override to Saturday noon: that comes first.
    await h.s.overrideOccurrence('daily', '2026-12-27T08:00:00Z', {
      kind: 'move',
      moveTo: '2026-12-26T11:00:00Z',
    });
    expect(await next()).toBe('2026-12-26T11:00:00.000Z');
    await h.s.overrideOccurrence('daily', '2026-12-27T08:00:00Z', { kind: 'skip' });
    expect(await next()).toBe('2026-12-28T08:00:00.000Z');

    await h.clock.advance(5 * 24 * HOUR);
    // The first run is the one reported: Saturday's, rolled to Monday.
    expect(ran[0]).toEqual(['2026-12-26T08:00:00.000Z', '2026-12-28T08:00:00.000Z']);
  });
});
