// Conformance: alerting (AlertStore), an optional part of a store: conformance.ts runs this group only for a
// store that has it (hasAlerts). Covers channels and checks (bad bodies change nothing), heartbeats arming
// and evaluating checks, opening an alert once per condition even when openers race, resolving it, the
// outbox rows each transition writes per channel, and claiming and settling deliveries. Speaks only the
// contract, never SQL; instants are fixed.

import { expect, it } from 'vitest';
import type { AlertCondition } from '../../../src/domain/alert.js';
import { ALERT_DELIVERY_MAX_ATTEMPTS } from '../../../src/domain/alert.js';
import type { AlertStore } from '../../../src/store/alert-store.js';
import type { Store } from '../../../src/store/store.js';
import { OTHER_TENANT, T0, TENANT } from '../../support/fixtures.js';
import { rejectsWithCode, type Ctx } from './helpers.js';

export { hasAlerts } from '../../../src/store/alert-store.js';

const dead = (subject = 'nightly', tenantId = TENANT): AlertCondition => ({
  tenantId,
  kind: 'run_dead',
  subjectKind: 'schedule',
  subject,
  summary: `schedule "${subject}": a run is dead`,
  details: { runId: '7' },
});

export function alertTests(ctx: Ctx): void {
  const store = (): Store & AlertStore => ctx.store as Store & AlertStore;
  const hook = (name = 'ops', url = 'https://alerts.example.com/hook') =>
    store().putAlertChannel(TENANT, { name, kind: 'webhook', url }, T0);

  it('creates, replaces, lists and deletes channels; a bad body writes nothing', async () => {
    const { channel, created } = await hook();
    expect(created).toBe(true);
    expect(channel).toEqual({
      tenantId: TENANT,
      name: 'ops',
      kind: 'webhook',
      url: 'https://alerts.example.com/hook',
      routingKey: null,
      createdAt: T0,
      updatedAt: T0,
    });
    const again = await store().putAlertChannel(
      TENANT,
      { name: 'ops', kind: 'pagerduty', url: 'https://events.example.com/v2/enqueue', routingKey: 'rk-1' },
      T0 + 5,
    );
    expect(again.created).toBe(false);
    expect(again.channel).toMatchObject({
      kind: 'pagerduty',
      routingKey: 'rk-1',
      createdAt: T0,
      updatedAt: T0 + 5,
    });
    const details = await rejectsWithCode(
      store().putAlertChannel(
        TENANT,
        { name: 'ops', kind: 'pagerduty', url: 'https://x.example.com' },
        T0 + 9,
      ),
      'ALERT_CHANNEL_INVALID',
    );
    expect(details.field).toBe('routingKey');
    expect((await store().getAlertChannel(TENANT, 'ops'))?.routingKey).toBe('rk-1');
    expect(await store().listAlertChannels(OTHER_TENANT)).toEqual([]);
    expect((await store().listAlertChannels(TENANT)).map((c) => c.name)).toEqual(['ops']);
    expect(await store().deleteAlertChannel(OTHER_TENANT, 'ops')).toBe(false);
    expect(await store().deleteAlertChannel(TENANT, 'ops')).toBe(true);
    expect(await store().getAlertChannel(TENANT, 'ops')).toBeUndefined();
  });

  it('opens an alert once per condition, even when many openers race, and writes one delivery per channel', async () => {
    await hook('a');
    await hook('b');
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => store().openAlerts([dead()], T0 + 1000 + i)),
    );
    const opened = results.flat();
    expect(opened).toHaveLength(1);
    const alert = opened[0]!;
    expect(alert).toMatchObject({ kind: 'run_dead', subject: 'nightly', state: 'open', resolvedAt: null });
    expect(await store().listAlerts({ tenantId: TENANT, state: 'open', limit: 10 })).toEqual([alert]);
    const got = await store().getAlert(TENANT, alert.id);
    expect(got?.deliveries.map((d) => [d.channel, d.transition, d.state, d.attempts])).toEqual([
      ['a', 'opened', 'pending', 0],
      ['b', 'opened', 'pending', 0],
    ]);
    // Another tenant's alert is missing, as is a malformed id.
    expect(await store().getAlert(OTHER_TENANT, alert.id)).toBeUndefined();
    expect(await store().getAlert(TENANT, 'nope')).toBeUndefined();
  });

  it('resolves an open alert once, with a resolve delivery per channel; the next breach opens a new one', async () => {
    await hook();
    const [a] = await store().openAlerts([dead()], T0);
    const clear = {
      tenantId: TENANT,
      subjectKind: 'schedule' as const,
      subject: 'nightly',
      kinds: ['run_dead' as const],
    };
    const [first, second] = await Promise.all([
      store().resolveAlerts([clear], T0 + 10),
      store().resolveAlerts([clear], T0 + 11),
    ]);
    expect([...first!, ...second!]).toHaveLength(1);
    const got = await store().getAlert(TENANT, a!.id);
    expect(got?.alert.state).toBe('resolved');
    expect(got?.deliveries.map((d) => d.transition)).toEqual(['opened', 'resolved']);
    // Clearing another kind, or another subject, resolves nothing.
    const [b] = await store().openAlerts([dead()], T0 + 20);
    expect(b!.id).not.toBe(a!.id);
    expect(await store().resolveAlerts([{ ...clear, kinds: ['failure_rate'] }], T0 + 21)).toEqual([]);
    expect(await store().resolveAlerts([{ ...clear, subject: 'other' }], T0 + 21)).toEqual([]);
    expect(
      (await store().listAlerts({ tenantId: TENANT, scheduleKey: 'nightly', limit: 10 })).map((x) => x.id),
    ).toEqual([b!.id, a!.id]);
    expect(await store().listAlerts({ tenantId: TENANT, scheduleKey: 'other', limit: 10 })).toEqual([]);
    expect(await store().countOpenAlerts()).toEqual([{ tenantId: TENANT, kind: 'run_dead', count: 1 }]);
  });

  it('resolves, from a batch of clearances, exactly the subjects with an open alert of a cleared kind', async () => {
    const clear = (subject: string, tenantId = TENANT) => ({
      tenantId,
      subjectKind: 'schedule' as const,
      subject,
      kinds: ['run_dead' as const],
    });
    // Nothing open: a batch resolves nothing.
    expect(await store().resolveAlerts([clear('nightly'), clear('weekly')], T0)).toEqual([]);
    const opened = await store().openAlerts(
      [dead('nightly'), dead('weekly'), dead('nightly', OTHER_TENANT)],
      T0 + 1,
    );
    expect(opened).toHaveLength(3);
    const batch = [
      ...Array.from({ length: 50 }, (_, i) => clear(`quiet-${i}`)),
      clear('weekly'),
      { ...clear('nightly'), kinds: ['failure_rate' as const] },
      clear('nightly'),
    ];
    const resolved = await store().resolveAlerts(batch, T0 + 2);
    expect(resolved.map((a) => [a.tenantId, a.subject, a.state]).sort()).toEqual([
      [TENANT, 'nightly', 'resolved'],
      [TENANT, 'weekly', 'resolved'],
    ]);
    // The other tenant's alert on the same subject stays open.
    expect(
      (await store().listAlerts({ tenantId: OTHER_TENANT, state: 'open', limit: 10 })).map((a) => a.subject),
    ).toEqual(['nightly']);
    expect(await store().resolveAlerts(batch, T0 + 3)).toEqual([]);
  });

  it('arms a heartbeat check, opens heartbeat_missed when it lapses, and resolves it on the next heartbeat', async () => {
    const { check } = await store().putCheck(TENANT, { name: 'backup', kind: 'heartbeat', every: '10m' }, T0);
    expect(check).toMatchObject({ everyMs: 600_000, lastBeatAt: null, nextCheckAt: T0 + 600_000 });
    expect(await store().nextCheckAt()).toBe(T0 + 600_000);
    await rejectsWithCode(
      store().putCheck(TENANT, { name: 'backup', kind: 'heartbeat', every: '0.5s' }, T0),
      'CHECK_INVALID',
    );
    expect((await store().getCheck(TENANT, 'backup'))?.everyMs).toBe(600_000);
    expect(await store().recordHeartbeat(TENANT, 'backup', T0 + 60_000)).toMatchObject({
      lastBeatAt: T0 + 60_000,
      nextCheckAt: T0 + 660_000,
    });
    expect(await store().recordHeartbeat(OTHER_TENANT, 'backup', T0)).toBeUndefined();
    expect(await store().evaluateDueChecks(T0 + 659_999, 10)).toEqual([]);
    const [opened, again] = await Promise.all([
      store().evaluateDueChecks(T0 + 660_000, 10),
      store().evaluateDueChecks(T0 + 660_001, 10),
    ]);
    expect([...opened!, ...again!].map((a) => [a.kind, a.subject])).toEqual([['heartbeat_missed', 'backup']]);
    expect(await store().nextCheckAt()).toBeNull();
    await store().recordHeartbeat(TENANT, 'backup', T0 + 700_000);
    expect(await store().listAlerts({ tenantId: TENANT, state: 'open', limit: 10 })).toEqual([]);
    expect(await store().nextCheckAt()).toBe(T0 + 1_300_000);
    expect(await store().deleteCheck(TENANT, 'backup', T0 + 1)).toBe(true);
    expect(await store().listChecks(TENANT)).toEqual([]);
  });

  it('claims a delivery for one taker at a time and settles it against its claim', async () => {
    await hook();
    await store().openAlerts([dead()], T0);
    const [c1, c2] = await Promise.all([
      store().claimAlertDeliveries(T0, 60_000, 10),
      store().claimAlertDeliveries(T0, 60_000, 10),
    ]);
    const claims = [...c1!, ...c2!];
    expect(claims).toHaveLength(1);
    const claimed = claims[0]!;
    expect(claimed.channel?.name).toBe('ops');
    expect(await store().claimAlertDeliveries(T0 + 59_999, 60_000, 10)).toEqual([]);
    expect(await store().nextAlertDeliveryAt()).toBe(T0 + 60_000);
    // The lease lapses: another taker gets it, and the first claim can no longer settle it.
    const [retaken] = await store().claimAlertDeliveries(T0 + 60_000, 60_000, 10);
    expect(retaken?.delivery.id).toBe(claimed.delivery.id);
    expect(await store().settleAlertDelivery(claimed, { ok: true }, T0 + 60_001)).toEqual({
      settled: false,
      state: 'delivered',
    });
    expect(
      await store().settleAlertDelivery(retaken!, { ok: false, error: 'HTTP 500', retry: true }, T0 + 60_002),
    ).toEqual({ settled: true, state: 'pending' });
    const [third] = await store().claimAlertDeliveries(T0 + 70_000, 60_000, 10);
    expect(third?.delivery).toMatchObject({ attempts: 1, lastError: 'HTTP 500' });
    await store().settleAlertDelivery(third!, { ok: true }, T0 + 70_001);
    const got = await store().getAlert(TENANT, third!.alert.id);
    expect(got?.deliveries[0]).toMatchObject({ state: 'delivered', attempts: 2, deliveredAt: T0 + 70_001 });
    expect(await store().nextAlertDeliveryAt()).toBeNull();
  });

  it('gives a delivery up once its attempts are used up, or at once when it must not be retried', async () => {
    await hook();
    await store().openAlerts([dead('a')], T0);
    let now = T0;
    for (let i = 1; i <= ALERT_DELIVERY_MAX_ATTEMPTS; i++) {
      const [c] = await store().claimAlertDeliveries(now, 1000, 10);
      expect(c?.delivery.attempts).toBe(i - 1);
      const r = await store().settleAlertDelivery(c!, { ok: false, error: 'down', retry: true }, now);
      expect(r.state).toBe(i === ALERT_DELIVERY_MAX_ATTEMPTS ? 'failed' : 'pending');
      now += 3_600_000;
    }
    expect(await store().claimAlertDeliveries(now, 1000, 10)).toEqual([]);
    await store().openAlerts([dead('b')], now);
    const [b] = await store().claimAlertDeliveries(now, 1000, 10);
    expect(b?.alert.subject).toBe('b');
    expect(
      (await store().settleAlertDelivery(b!, { ok: false, error: 'refused', retry: false }, now)).state,
    ).toBe('failed');
    expect(await store().nextAlertDeliveryAt()).toBeNull();
  });
}
