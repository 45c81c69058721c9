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
});
