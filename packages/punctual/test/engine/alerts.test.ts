// Alerts as the engine raises them, on an in-memory SQLite store and a TestClock: a heartbeat check alerts
// when heartbeats stop and resolves when they resume; dead runs of a schedule open one run_dead alert that
// its next success resolves; each transition is sent once per channel. Waits on events, never sleeps.

import { afterEach, describe, expect, it } from 'vitest';
import type { ClaimedAlertDelivery } from '../../src/domain/alert.js';
import type { AlertStore } from '../../src/store/alert-store.js';
import type { AlertSender } from '../../src/targets/alert-channel-sender.js';
import { harness, type Harness } from '../support/harness.js';

let h: Harness;
afterEach(async () => h?.close());

const T = '2026-01-05T00:00:00.000Z';
const MIN = 60_000;

function recordingSender(): { send: AlertSender; sent: ClaimedAlertDelivery[] } {
  const sent: ClaimedAlertDelivery[] = [];
  return {
    sent,
    send: async (c) => {
      sent.push(c);
      return { ok: true };
    },
  };
}

const alerts = (h: Harness): AlertStore => h.s.store as unknown as AlertStore;

describe('alerts raised by the engine', () => {
  it('a heartbeat check alerts when heartbeats stop and resolves when they resume', async () => {
    const { send, sent } = recordingSender();
    h = await harness({ start: T, alerts: { sender: send } });
    const t0 = h.clock.now();
    await alerts(h).putAlertChannel(
      'default',
      { name: 'ops', kind: 'webhook', url: 'https://a.example.com/' },
      t0,
    );
    await alerts(h).putCheck('default', { name: 'backup', kind: 'heartbeat', every: '10m' }, t0);
    h.s.alertsChanged();
    // Heartbeats every 5 minutes keep it quiet.
    for (let i = 0; i < 4; i++) {
      await h.clock.advance(5 * MIN);
      await alerts(h).recordHeartbeat('default', 'backup', h.clock.now());
      h.s.alertsChanged();
    }
    expect(await alerts(h).listAlerts({ tenantId: 'default', limit: 10 })).toEqual([]);
    const lastBeat = h.clock.now();
    // They stop: the alert opens when the interval since the last one has passed, not before.
    const opened = h.waitFor('alert:opened');
    const sentOpen = h.waitFor('alert:delivery');
    await h.clock.advance(10 * MIN - 1);
    expect(await alerts(h).listAlerts({ tenantId: 'default', limit: 10 })).toEqual([]);
    await h.clock.advance(1);
    const { alert } = await opened;
    expect(alert).toMatchObject({
      kind: 'heartbeat_missed',
      subjectKind: 'check',
      subject: 'backup',
      state: 'open',
    });
    expect(alert.openedAt).toBe(lastBeat + 10 * MIN);
    expect((await sentOpen).outcome).toBe('delivered');
    // Silence goes on: no second alert.
    await h.clock.advance(60 * MIN);
    expect(await alerts(h).listAlerts({ tenantId: 'default', limit: 10 })).toHaveLength(1);
    // They resume: the alert resolves, and the channel hears it once.
    const delivered = h.waitFor('alert:delivery', (d) => d.delivery.transition === 'resolved');
    await alerts(h).recordHeartbeat('default', 'backup', h.clock.now());
    h.s.alertsChanged();
    await delivered;
    const got = await alerts(h).getAlert('default', alert.id);
    expect(got?.alert).toMatchObject({ state: 'resolved', resolvedAt: h.clock.now() });
    expect(sent.map((c) => [c.channel?.name, c.delivery.transition, c.alert.kind])).toEqual([
      ['ops', 'opened', 'heartbeat_missed'],
      ['ops', 'resolved', 'heartbeat_missed'],
    ]);
    expect(got?.deliveries.map((d) => [d.state, d.attempts])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ]);
  });

  it('dead runs of a schedule open one run_dead alert; its next success resolves it', async () => {
    const { send, sent } = recordingSender();
    h = await harness({ start: T, alerts: { sender: send } });
    await alerts(h).putAlertChannel(
      'default',
      { name: 'ops', kind: 'slack', url: 'https://a.example.com/' },
      h.clock.now(),
    );
    let failing = true;
    h.s.handle('job', () => {
      if (failing) throw new Error('down');
      return 'ok';
    });
    await h.s.put({
      key: 'job',
      spec: '@every 1s',
      target: { handler: 'job' },
      policies: { retry: { maxAttempts: 1, backoff: 'fixed', delayMs: 100, jitter: false } },
    });
    const opened = h.waitFor('alert:opened');
    await h.drive(opened, 500);
    await h.clock.advance(5000);
    expect(h.of('run:dead').length).toBeGreaterThan(3);
    const open = await alerts(h).listAlerts({ tenantId: 'default', scheduleKey: 'job', limit: 10 });
    expect(open.map((a) => [a.kind, a.state])).toEqual([['run_dead', 'open']]);
    failing = false;
    const resolved = h.waitFor('alert:resolved');
    const resolvedSent = h.waitFor('alert:delivery', (d) => d.delivery.transition === 'resolved');
    await h.drive(resolvedSent, 500);
    expect((await resolved).alert.kind).toBe('run_dead');
    const all = await alerts(h).listAlerts({ tenantId: 'default', scheduleKey: 'job', limit: 10 });
    expect(all.map((a) => [a.kind, a.state])).toEqual([['run_dead', 'resolved']]);
    expect(sent.map((c) => c.delivery.transition)).toEqual(['opened', 'resolved']);
  });
});
