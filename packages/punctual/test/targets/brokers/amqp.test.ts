// The RabbitMQ target against the real local broker (PUNCTUAL_TEST_AMQP_URL): a schedule fires through the
// engine and a consumer gets one persistent JSON message whose message_id is the occurrence id; an outage (a
// TCP proxy dropped and restored: RabbitMQ itself is slow to restart and shared) makes the run retry until a
// rebuilt connection is confirmed; the same occurrence published twice reaches the consumer twice with the
// same message_id; unroutable messages and unknown exchanges retry. Each test uses its own queue and exchange.

import amqp from 'amqplib';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { amqpTarget } from '../../../src/targets/brokers/amqp-target.js';
import type { TargetDriver } from '../../../src/targets/target.js';
import { harness, type Harness } from '../../support/harness.js';
import {
  delivery,
  driveRetries,
  hostPort,
  nextAttempt,
  serviceUrl,
  startProxy,
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
const url = serviceUrl('PUNCTUAL_TEST_AMQP_URL', 'RabbitMQ');

describe.runIf(url)('amqp target', () => {
  const AMQP = url!;
  let admin: ChannelModel;
  let ch: Channel;
  const queues: string[] = [];
  const exchanges: string[] = [];
  let h: Harness | undefined;
  let driver: TargetDriver | undefined;
  let proxy: TcpProxy | undefined;

  /** A queue for this test, named as the connection's prefix makes a tenant's routing key. */
  const queue = async (tenant = 'acme'): Promise<{ name: string; queue: string }> => {
    const name = unique('orders');
    const q = `ptest.${tenant}.${name}`;
    await ch.assertQueue(q, { durable: false });
    queues.push(q);
    return { name, queue: q };
  };
  /** Waits for `n` messages on a queue (bounded). */
  const consume = async (q: string, n: number): Promise<ConsumeMessage[]> => {
    const got: ConsumeMessage[] = [];
    let tag = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${got.length} of ${n} messages on ${q}`)), 5000);
      void ch
        .consume(q, (m) => {
          if (!m) return;
          got.push(m);
          ch.ack(m);
          if (got.length === n) {
            clearTimeout(timer);
            resolve();
          }
        })
        .then((r) => (tag = r.consumerTag), reject);
    });
    await ch.cancel(tag);
    return got;
  };
  const connections = (u = AMQP) => ({
    rabbit: { kind: 'amqp' as const, url: u, prefix: 'ptest.', perTenantPrefix: true },
  });

  beforeAll(async () => {
    admin = await amqp.connect(AMQP);
    ch = await admin.createChannel();
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
    await driver?.close?.();
    driver = undefined;
    await proxy?.close();
    proxy = undefined;
  });
  afterAll(async () => {
    for (const q of queues) await ch.deleteQueue(q).catch(() => {});
    for (const x of exchanges) await ch.deleteExchange(x).catch(() => {});
    await admin?.close();
  });

  it('fires a schedule through the engine: a persistent JSON message with message_id = occurrence id', async () => {
    h = await harness({ targets: [amqpTarget({ connections: connections() })] });
    const { name, queue: q } = await queue('default');
    await h.s.put({
      key: 'order-events',
      spec: '@in 1s',
      target: { amqp: { connection: 'rabbit', routingKey: name } },
      payload: { order: 42 },
    });
    const succeeded = h.waitFor('run:succeeded');
    await h.clock.advance(1000);
    const { run } = await succeeded;
    expect(run.result).toEqual({ confirmed: true, exchange: '', routingKey: q });

    const [msg] = await consume(q, 1);
    expect(msg!.properties).toMatchObject({
      messageId: run.occurrenceId,
      contentType: 'application/json',
      deliveryMode: 2,
      appId: 'punctual',
    });
    expect(JSON.parse(msg!.content.toString())).toEqual({
      id: run.occurrenceId,
      scheduleKey: 'order-events',
      scheduledFor: new Date(run.scheduledFor).toISOString(),
      firedAt: new Date(run.scheduledFor).toISOString(),
      attempt: 1,
      payload: { order: 42 },
    });
  });

  it('retries while RabbitMQ is unreachable and succeeds on a rebuilt connection', async () => {
    proxy = await startProxy(hostPort(AMQP));
    h = await harness({
      targets: [amqpTarget({ connections: connections(viaPort(AMQP, proxy.port)), connectTimeoutMs: 3000 })],
    });
    const { name, queue: q } = await queue('default');
    const target = { amqp: { connection: 'rabbit', routingKey: name } };
    const policies = { retry: { maxAttempts: 20, backoff: 'fixed' as const, delayMs: 1000, jitter: false } };

    await h.s.put({ key: 'warm-up', spec: '@in 1s', target, policies });
    const warm = h.waitFor('run:succeeded');
    await h.clock.advance(1000);
    await warm;
    const accepted = proxy.accepted;

    await proxy.down(); // the connection drops; new ones are refused
    await h.s.put({ key: 'order-events', spec: '@in 1s', target, payload: { order: 7 }, policies });
    const retrying = h.waitFor('run:retrying');
    await h.clock.advance(1000);
    const { run } = await retrying;
    expect(run.error).toMatchObject({ code: 'BROKER_UNAVAILABLE' });
    expect(run.error!.message).toMatch(/^amqp connection "rabbit": /);
    const again = await nextAttempt(h, run.id, 1000);
    expect(again.event).toBe('retrying');
    expect(again.run.error).toMatchObject({ code: 'BROKER_UNAVAILABLE' });

    await proxy.up();
    expect(await driveRetries(h, run.id, 1000)).toBe('succeeded');
    expect(proxy.accepted).toBe(accepted + 1); // one new connection, opened by the next publish

    const detail = await h.s.getRun(run.id);
    expect(detail!.attempts[0]).toMatchObject({ outcome: 'retry', error: { code: 'BROKER_UNAVAILABLE' } });
    expect(detail!.attempts.at(-1)!.outcome).toBe('succeeded');
    const msgs = await consume(q, 2);
    expect(msgs.map((m) => m.properties.messageId)).toEqual([expect.stringContaining(':'), run.occurrenceId]);
  });

  it('delivers a duplicate of the same occurrence with the same message_id (the consumer deduplicates)', async () => {
    driver = amqpTarget({ connections: connections() });
    const { name, queue: q } = await queue();
    const d = delivery({ amqp: { connection: 'rabbit', routingKey: name } });
    expect(await driver.deliver(d)).toMatchObject({ type: 'ok', result: { confirmed: true } });
    expect(await driver.deliver(d)).toMatchObject({ type: 'ok', result: { confirmed: true } });
    const msgs = await consume(q, 2);
    expect(msgs.map((m) => m.properties.messageId)).toEqual([d.run.occurrenceId, d.run.occurrenceId]);
    expect(msgs[0]!.content.equals(msgs[1]!.content)).toBe(true);
  });

  it('takes message_id and the body id from the target idTemplate', async () => {
    driver = amqpTarget({ connections: connections() });
    const { name, queue: q } = await queue();
    const d = delivery({
      amqp: { connection: 'rabbit', routingKey: name, idTemplate: 'job:{key}:{scheduledFor}' },
    });
    expect(await driver.deliver(d)).toMatchObject({ type: 'ok', result: { confirmed: true } });
    const [msg] = await consume(q, 1);
    expect(msg!.properties.messageId).toBe(`job:order-events:${SCHEDULED}`);
    expect(JSON.parse(msg!.content.toString())).toMatchObject({ id: `job:order-events:${SCHEDULED}` });
  });

  it("sends the attempt's trace context as message headers when the delivery is traced", async () => {
    driver = amqpTarget({ connections: connections() });
    const { name, queue: q } = await queue();
    const traced = { ...delivery({ amqp: { connection: 'rabbit', routingKey: name } }), trace: TRACE };
    expect(await driver.deliver(traced)).toMatchObject({ type: 'ok' });
    expect(
      await driver.deliver(delivery({ amqp: { connection: 'rabbit', routingKey: name } })),
    ).toMatchObject({
      type: 'ok',
    });
    const msgs = await consume(q, 2);
    expect(msgs[0]!.properties.headers).toMatchObject(TRACE.headers);
    expect(msgs[1]!.properties.headers?.traceparent).toBeUndefined();
  });

  it('publishes to a named exchange under the prefix, with the routing key as given', async () => {
    driver = amqpTarget({ connections: connections() });
    const ex = unique('events');
    const exchange = `ptest.acme.${ex}`;
    await ch.assertExchange(exchange, 'topic', { durable: false });
    exchanges.push(exchange);
    const { queue: q } = await queue();
    await ch.bindQueue(q, exchange, 'order.*');
    const d = delivery({ amqp: { connection: 'rabbit', exchange: ex, routingKey: 'order.created' } });
    expect(await driver.deliver(d)).toEqual({
      type: 'ok',
      result: { confirmed: true, exchange, routingKey: 'order.created' },
    });
    const [msg] = await consume(q, 1);
    expect(msg!.fields.routingKey).toBe('order.created');
    expect(msg!.properties.messageId).toBe(d.run.occurrenceId);
  });

  it('retries an unroutable message and a missing exchange with BROKER_PUBLISH_FAILED, then recovers', async () => {
    driver = amqpTarget({ connections: connections() });
    const unroutable = await driver.deliver(
      delivery({ amqp: { connection: 'rabbit', routingKey: unique('none') } }),
    );
    expect(unroutable).toMatchObject({ type: 'retry', error: { code: 'BROKER_PUBLISH_FAILED' } });
    expect((unroutable as { error: { message: string } }).error.message).toMatch(/unroutable.*NO_ROUTE/);

    const missing = await driver.deliver(
      delivery({ amqp: { connection: 'rabbit', exchange: unique('nope'), routingKey: 'x' } }),
    );
    expect(missing).toMatchObject({ type: 'retry', error: { code: 'BROKER_PUBLISH_FAILED' } });
    expect((missing as { error: { message: string } }).error.message).toMatch(/NOT_FOUND/);

    // The channel the broker closed is rebuilt at the next publish.
    const { name, queue: q } = await queue();
    const d = delivery({ amqp: { connection: 'rabbit', routingKey: name } });
    expect(await driver.deliver(d)).toMatchObject({ type: 'ok' });
    expect((await consume(q, 1))[0]!.properties.messageId).toBe(d.run.occurrenceId);
  });

  it('with an operator-fixed exchange, prefixes the routing key and refuses a target exchange', async () => {
    driver = amqpTarget({
      connections: {
        fixed: { kind: 'amqp', url: AMQP, prefix: 'ptest.', perTenantPrefix: true, exchange: 'amq.topic' },
      },
    });
    expect(() =>
      driver!.validate!({ amqp: { connection: 'fixed', exchange: 'other', routingKey: 'a' } }, null),
    ).toThrow(expect.objectContaining({ code: 'BROKER_DESTINATION_INVALID' }));
    const { queue: q } = await queue();
    const key = unique('orders');
    await ch.bindQueue(q, 'amq.topic', `ptest.acme.${key}`);
    const d = delivery({ amqp: { connection: 'fixed', routingKey: key } });
    expect(await driver.deliver(d)).toEqual({
      type: 'ok',
      result: { confirmed: true, exchange: 'amq.topic', routingKey: `ptest.acme.${key}` },
    });
    expect((await consume(q, 1))[0]!.properties.messageId).toBe(d.run.occurrenceId);
  });

  it('never waits past the attempt signal when the broker does not answer', async () => {
    proxy = await startProxy(hostPort(AMQP));
    proxy.stall(true);
    driver = amqpTarget({ connections: connections(viaPort(AMQP, proxy.port)), connectTimeoutMs: 60_000 });
    const signal = AbortSignal.timeout(300);
    const t0 = Date.now();
    const o = await driver.deliver(delivery({ amqp: { connection: 'rabbit', routingKey: 'x' } }, { signal }));
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(o).toMatchObject({ type: 'retry', error: { code: 'BROKER_UNAVAILABLE' } });
    expect((o as { error: { message: string } }).error.message).toMatch(/aborted/);
  });
});
