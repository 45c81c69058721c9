// Deadline checks as the engine judges them, on an in-memory SQLite store and a TestClock: "a run of
// reports.daily must succeed by 09:15 Europe/Paris on working days". A window that closes without such a run
// opens one deadline_missed alert; the next window met resolves it. Waits on events, never sleeps.

import { afterEach, describe, expect, it } from 'vitest';
import type { AlertStore } from '../../src/store/alert-store.js';
import { harness, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

// Monday 5 January 2026, 00:00 UTC; 09:00 in Paris is 08:00 UTC.
const T = '2026-01-05T00:00:00.000Z';
const MIN = 60_000;
const alerts = (h: Harness): AlertStore => h.s.store as unknown as AlertStore;

describe('deadline checks', () => {
  it('a window closed without a successful run opens deadline_missed once; the next met window resolves it', async () => {
    h = await harness({ start: T });
    let failing = true;
    h.s.handle('report', () => {
      if (failing) throw new Error('down');
      return 'ok';
    });
    await h.s.put({
      key: 'reports.daily',
      spec: '5 9 * * 1-5',
      tz: 'Europe/Paris',
      target: { handler: 'report' },
      policies: { retry: { maxAttempts: 1, backoff: 'fixed', delayMs: 100, jitter: false } },
    });
    const { check } = await alerts(h).putCheck(
      'default',
      {
        name: 'report-by-0915',
        kind: 'deadline',
        schedule: 'reports.daily',
        spec: '0 9 * * 1-5',
        tz: 'Europe/Paris',
        within: '15m',
      },
      h.clock.now(),
    );
    h.s.alertsChanged();
    const mondayOpen = Date.parse('2026-01-05T08:00:00Z');
    expect(check).toMatchObject({
      kind: 'deadline',
      everyMs: null,
      windowStart: mondayOpen,
      nextCheckAt: mondayOpen + 15 * MIN,
    });
    // Monday: the run fails. Nothing opens before the window closes; at its close the alert opens.
    await h.drive(h.waitFor('run:dead'), 5 * MIN);
    expect(h.clock.now()).toBeLessThan(mondayOpen + 15 * MIN);
    const missed = async () =>
      (await alerts(h).listAlerts({ tenantId: 'default', limit: 10 }))
        .filter((a) => a.kind === 'deadline_missed')
        .map((a) => [a.kind, a.state]);
    expect(await missed()).toEqual([]);
    const opened = h.waitFor('alert:opened', (e) => e.alert.kind === 'deadline_missed');
    const { alert } = await h.drive(opened, 5 * MIN);
    expect(alert).toMatchObject({ subjectKind: 'check', subject: 'report-by-0915', state: 'open' });
    expect(alert.openedAt).toBe(mondayOpen + 15 * MIN);
    expect(alert.details).toMatchObject({ windowEnd: '2026-01-05T08:15:00.000Z' });
    expect((await alerts(h).getCheck('default', 'report-by-0915'))?.windowStart).toBe(
      Date.parse('2026-01-06T08:00:00Z'),
    );
    // Tuesday: it recovers; the alert resolves at the close of the window the run met.
    failing = false;
    const resolved = h.waitFor('alert:resolved', (e) => e.alert.kind === 'deadline_missed');
    const r = await h.drive(resolved, 5 * MIN);
    expect(r.alert.id).toBe(alert.id);
    expect(h.clock.now()).toBe(Date.parse('2026-01-06T08:15:00Z'));
    expect(await missed()).toEqual([['deadline_missed', 'resolved']]);
  });

  it('a deadline check takes no heartbeat, and deleting it resolves its alert', async () => {
    h = await harness({ start: T });
    await alerts(h).putCheck(
      'default',
      { name: 'd', kind: 'deadline', schedule: 'nothing.yet', spec: '0 * * * *', within: '5m' },
      h.clock.now(),
    );
    h.s.alertsChanged();
    expect(await alerts(h).recordHeartbeat('default', 'd', h.clock.now())).toBeUndefined();
    // The schedule does not exist: no run ever succeeds, the first window (opened at 00:00, as the check
    // was saved) closes missed.
    const opened = h.waitFor('alert:opened', (e) => e.alert.kind === 'deadline_missed');
    await h.drive(opened, MIN);
    expect(h.clock.now()).toBe(Date.parse('2026-01-05T00:05:00Z'));
    expect(await alerts(h).deleteCheck('default', 'd', h.clock.now())).toBe(true);
    const list = await alerts(h).listAlerts({ tenantId: 'default', limit: 10 });
    expect(list.map((a) => [a.kind, a.state])).toEqual([['deadline_missed', 'resolved']]);
  });
});
