// The NATS JetStream target against the real local server (PUNCTUAL_TEST_NATS_URL): a schedule fires through
// the engine and a consumer reads one message whose Nats-Msg-Id and body carry the occurrence; an outage (a
// TCP proxy dropped and restored, the shared server untouched) makes the run retry until the reconnected
// connection succeeds; the same occurrence published twice is acknowledged as a duplicate and stored once.
// Every test creates its own stream for its own subject and deletes it afterwards.

import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { natsTarget } from '../../../src/targets/brokers/nats-target.js';
import type { TargetDriver } from '../../../src/targets/target.js';
import { harness, type Harness } from '../../support/harness.js';
import {
  LOCAL_NATS,
  REAL_RESTART,
  delivery,
  driveRetries,
  nextAttempt,
  hostPort,
  serviceUrl,
  startProxy,
  startService,
  stopService,
  unique,
  viaPort,
  SCHEDULED,
  type TcpProxy,
} from './broker-support.js';

const TRACE = {
  traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
  spanId: '00f067aa0ba902b7',
  headers: {
    traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    tracestate: 'vendor=1',
  },
};
const url = serviceUrl('PUNCTUAL_TEST_NATS_URL', 'NATS (JetStream)');

describe.runIf(url)('nats target', () => {
  const NATS = url!;
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const streams: string[] = [];
  let h: Harness | undefined;
  let driver: TargetDriver | undefined;
  let proxy: TcpProxy | undefined;

  /** A subject for this test and a stream of its own capturing the subject the connection's prefix makes. */
  const subjectWithStream = async (
    tenant = 'acme',
  ): Promise<{ name: string; subject: string; stream: string }> => {
    const name = unique('orders');
    const subject = `ptest.${tenant}.${name}`;
    const stream = unique('PTEST').replace(/-/g, '_');
    await jsm.streams.add({ name: stream, subjects: [subject], duplicate_window: 120_000_000_000 });
    streams.push(stream);
    return { name, subject, stream };
  };
  const connections = (u = NATS) => ({
    events: { kind: 'nats' as const, url: u, prefix: 'ptest.', perTenantPrefix: true },
  });

  beforeAll(async () => {
    nc = await connect({ servers: NATS, maxReconnectAttempts: -1, reconnectTimeWait: 200 });
    jsm = await jetstreamManager(nc);
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    await driver?.close?.();
    driver = undefined;
    await proxy?.close();
    proxy = undefined;
    for (const s of streams.splice(0)) await jsm.streams.delete(s).catch(() => {});
  });
  afterAll(async () => {
    await nc?.close();
  });

  it('fires a schedule through the engine: a consumer reads the message, id and body', async () => {
    h = await harness({ targets: [natsTarget({ connections: connections() })] });
    const { name, subject, stream } = await subjectWithStream('default');
    await h.s.put({
      key: 'order-events',
      spec: '@in 1s',
      target: { nats: { connection: 'events', subject: name } },
      payload: { order: 42 },
    });
    const succeeded = h.waitFor('run:succeeded');
    await h.clock.advance(1000);
    const { run } = await succeeded;
    expect(run.result).toEqual({ stream, seq: 1, duplicate: false, subject });

    const consumer = await jetstream(nc).consumers.get(stream);
    const msg = await consumer.next({ expires: 5000 });
    expect(msg).not.toBeNull();
    expect(msg!.subject).toBe(subject);
    expect(msg!.headers?.get('Nats-Msg-Id')).toBe(run.occurrenceId);
    expect(msg!.json()).toEqual({
      id: run.occurrenceId,
      scheduleKey: 'order-events',
      scheduledFor: new Date(run.scheduledFor).toISOString(),
      firedAt: new Date(run.scheduledFor).toISOString(),
      attempt: 1,
      payload: { order: 42 },
    });
  });

  it('retries while NATS is unreachable and succeeds once the connection is back', async () => {
    proxy = await startProxy(hostPort(NATS));
    h = await harness({
      targets: [natsTarget({ connections: connections(viaPort(NATS, proxy.port)), connectTimeoutMs: 1500 })],
    });
    const { name, stream } = await subjectWithStream('default');
    const target = { nats: { connection: 'events', subject: name } };
    const policies = { retry: { maxAttempts: 20, backoff: 'fixed' as const, delayMs: 1000, jitter: false } };

    await h.s.put({ key: 'warm-up', spec: '@in 1s', target, policies });
    const warm = h.waitFor('run:succeeded');
    await h.clock.advance(1000);
    await warm;

    await proxy.down();
    await h.s.put({ key: 'order-events', spec: '@in 1s', target, payload: { order: 7 }, policies });
    const retrying = h.waitFor('run:retrying');
    await h.clock.advance(1000);
    const { run } = await retrying;
    expect(run.error).toMatchObject({ code: 'BROKER_UNAVAILABLE' });
    expect(run.error!.message).toMatch(/^nats connection "events": /);

    // Still down on the next attempt: the client knows it is disconnected and the publish waits for it.
    const again = await nextAttempt(h, run.id, 1000);
    expect(again.event).toBe('retrying');
    expect(again.run.error).toMatchObject({ code: 'BROKER_UNAVAILABLE' });

    await proxy.up(); // the client reconnects on its own
    expect(await driveRetries(h, run.id, 1000)).toBe('succeeded');

    const detail = await h.s.getRun(run.id);
    expect(detail!.attempts[0]).toMatchObject({ outcome: 'retry', error: { code: 'BROKER_UNAVAILABLE' } });
    expect(detail!.attempts.at(-1)!.outcome).toBe('succeeded');
    const info = await jsm.streams.info(stream);
    expect(info.state.messages).toBe(2); // the warm-up and this occurrence, once
    const last = await jsm.streams.getMessage(stream, { last_by_subj: info.config.subjects[0]! });
    expect(last!.header.get('Nats-Msg-Id')).toBe(run.occurrenceId);
  });

  it.runIf(REAL_RESTART)(
    'reconnects after a real NATS restart (opt-in: PUNCTUAL_TEST_BROKER_RESTART=1)',
    async () => {
      h = await harness({ targets: [natsTarget({ connections: connections(), connectTimeoutMs: 1500 })] });
      const { name, stream } = await subjectWithStream('default');
      const target = { nats: { connection: 'events', subject: name } };
      const policies = {
        retry: { maxAttempts: 20, backoff: 'fixed' as const, delayMs: 1000, jitter: false },
      };
      await h.s.put({ key: 'warm-up', spec: '@in 1s', target, policies });
      const warm = h.waitFor('run:succeeded');
      await h.clock.advance(1000);
      await warm;

      let runId: string;
      try {
        await stopService(LOCAL_NATS);
        await h.s.put({ key: 'order-events', spec: '@in 1s', target, policies });
        const retrying = h.waitFor('run:retrying');
        await h.clock.advance(1000);
        const { run } = await retrying;
        expect(run.error).toMatchObject({ code: 'BROKER_UNAVAILABLE' });
        runId = run.id;
      } finally {
        await startService(LOCAL_NATS); // never leave the shared server stopped
      }
      expect(await driveRetries(h, runId, 1000)).toBe('succeeded');
      const { run } = (await h.s.getRun(runId))!;
      // The stream is on disk: it survived the restart with the warm-up, and holds this occurrence once.
      const info = await jsm.streams.info(stream);
      expect(info.state.messages).toBe(2);
      const last = await jsm.streams.getMessage(stream, { seq: 2 });
      expect(last!.header.get('Nats-Msg-Id')).toBe(run.occurrenceId);
    },
  );

  it('drops a duplicate delivery of the same occurrence: acknowledged as duplicate, stored once', async () => {
    driver = natsTarget({ connections: connections() });
    const { name, stream } = await subjectWithStream();
    const d = delivery({ nats: { connection: 'events', subject: name } });
    const first = await driver.deliver(d);
    const second = await driver.deliver(d);
    expect(first).toMatchObject({ type: 'ok', result: { stream, seq: 1, duplicate: false } });
    expect(second).toMatchObject({ type: 'ok', result: { stream, seq: 1, duplicate: true } });
    const info = await jsm.streams.info(stream);
    expect(info.state.messages).toBe(1);
    const stored = await jsm.streams.getMessage(stream, { seq: 1 });
    expect(stored!.header.get('Nats-Msg-Id')).toBe(d.run.occurrenceId);
  });

  it("sends the attempt's trace context as message headers when the delivery is traced", async () => {
    driver = natsTarget({ connections: connections() });
    const { name, stream } = await subjectWithStream();
    const d = { ...delivery({ nats: { connection: 'events', subject: name } }), trace: TRACE };
    expect(await driver.deliver(d)).toMatchObject({ type: 'ok', result: { duplicate: false } });
    const stored = await jsm.streams.getMessage(stream, { seq: 1 });
    expect(stored!.header.get('Nats-Msg-Id')).toBe(d.run.occurrenceId);
    expect(stored!.header.get('traceparent')).toBe(TRACE.headers.traceparent);
    expect(stored!.header.get('tracestate')).toBe(TRACE.headers.tracestate);
  });

  it('takes the message id from the target idTemplate: two schedules with one key are stored once', async () => {
    driver = natsTarget({ connections: connections() });
    const { name, stream } = await subjectWithStream();
    const target = {
      nats: { connection: 'events', subject: name, idTemplate: '{key}-{scheduledForSeconds}' },
    };
    const a = delivery(target);
    const b = delivery(target);
    expect(a.run.occurrenceId).not.toBe(b.run.occurrenceId);
    expect(await driver.deliver(a)).toMatchObject({ type: 'ok', result: { duplicate: false } });
    expect(await driver.deliver(b)).toMatchObject({ type: 'ok', result: { duplicate: true } });
    const stored = await jsm.streams.getMessage(stream, { seq: 1 });
    const id = `order-events-${Math.floor(SCHEDULED / 1000)}`;
    expect(stored!.header.get('Nats-Msg-Id')).toBe(id);
    expect(JSON.parse(new TextDecoder().decode(stored!.data))).toMatchObject({ id });
  });

  it('retries with BROKER_PUBLISH_FAILED when no stream takes the subject', async () => {
    driver = natsTarget({ connections: connections(), publishTimeoutMs: 2000 });
    const o = await driver.deliver(delivery({ nats: { connection: 'events', subject: unique('nowhere') } }));
    expect(o).toMatchObject({ type: 'retry', error: { code: 'BROKER_PUBLISH_FAILED' } });
  });

  it('never waits past the attempt signal when the server does not answer', async () => {
    proxy = await startProxy(hostPort(NATS));
    proxy.stall(true);
    driver = natsTarget({ connections: connections(viaPort(NATS, proxy.port)), connectTimeoutMs: 60_000 });
    const signal = AbortSignal.timeout(300);
    const t0 = Date.now();
    const o = await driver.deliver(delivery({ nats: { connection: 'events', subject: 'x' } }, { signal }));
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(o).toMatchObject({ type: 'retry', error: { code: 'BROKER_UNAVAILABLE' } });
    expect((o as { error: { message: string } }).error.message).toMatch(/aborted/);
  });

  it('refuses wildcard subjects and unknown connections at save time', async () => {
    h = await harness({ targets: [natsTarget({ connections: connections() })] });
    for (const subject of ['orders.*', 'orders.>', 'a..b', 'a b']) {
      await expect(
        h.s.put({ key: 'k', spec: '@in 1s', target: { nats: { connection: 'events', subject } } }),
      ).rejects.toMatchObject({
        code: 'BROKER_DESTINATION_INVALID',
        details: { field: 'target.nats.subject' },
      });
    }
    await expect(
      h.s.put({ key: 'k', spec: '@in 1s', target: { nats: { connection: 'nope', subject: 'a' } } }),
    ).rejects.toMatchObject({ code: 'BROKER_NOT_CONFIGURED', details: { field: 'target.nats.connection' } });
  });
});
