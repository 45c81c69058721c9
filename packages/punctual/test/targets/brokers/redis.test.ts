// The Redis Streams target against the real local Redis (PUNCTUAL_TEST_REDIS_URL): a schedule fires through
// the engine and its entry carries the occurrence id and the envelope; an outage (a TCP proxy dropped and
// restored, the shared Redis untouched) makes the run retry until the reconnected client succeeds; the same
// occurrence delivered twice is two entries with the same `id` (Redis does not deduplicate); MAXLEN trims;
// error replies, stalls and aborts become retries. Every test uses its own stream, deleted afterwards.

import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { redisTarget } from '../../../src/targets/brokers/redis-target.js';
import type { TargetDriver } from '../../../src/targets/target.js';
import { harness, type Harness } from '../../support/harness.js';
import {
  LOCAL_REDIS,
  REAL_RESTART,
  SCHEDULED,
  STARTED,
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
  type TcpProxy,
} from './broker-support.js';

const url = serviceUrl('PUNCTUAL_TEST_REDIS_URL', 'Redis');

describe.runIf(url)('redis target', () => {
  const REDIS = url!;
  let admin: ReturnType<typeof createClient>;
  const streams: string[] = [];
  let h: Harness | undefined;
  let driver: TargetDriver | undefined;
  let proxy: TcpProxy | undefined;

  /** A stream name for this test, with the key the connection's prefix makes of it for `tenant`. */
  const stream = (tenant = 'acme'): { name: string; key: string } => {
    const name = unique('orders');
    const key = `ptest.${tenant}.${name}`;
    streams.push(key);
    return { name, key };
  };
  const entriesOf = async (key: string) => (await admin.xRange(key, '-', '+')) ?? [];
  const connections = (u = REDIS) => ({
    main: { kind: 'redis' as const, url: u, prefix: 'ptest.', perTenantPrefix: true },
  });

  beforeAll(async () => {
    admin = createClient({ url: REDIS });
    admin.on('error', () => {});
    await admin.connect();
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
    if (streams.length > 0) await admin.del(streams);
    await admin.close();
  });

  it('fires a schedule through the engine: one entry with the occurrence id and the envelope', async () => {
    h = await harness({ targets: [redisTarget({ connections: connections() })] });
    const { name, key } = stream('default'); // the harness's scheduler acts for tenant "default"
    await h.s.put({
      key: 'order-events',
      spec: '@in 1s',
      target: { redis: { connection: 'main', stream: name } },
      payload: { order: 42 },
    });
    const succeeded = h.waitFor('run:succeeded');
    await h.clock.advance(1000);
    const { run } = await succeeded; // real I/O happens while the test clock stands still

    const entries = await entriesOf(key);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry!.message.id).toBe(run.occurrenceId);
    expect(JSON.parse(entry!.message.body!)).toEqual({
      id: run.occurrenceId,
      scheduleKey: 'order-events',
      scheduledFor: new Date(run.scheduledFor).toISOString(),
      firedAt: new Date(run.scheduledFor).toISOString(),
      attempt: 1,
      payload: { order: 42 },
    });
    expect(run.result).toEqual({ entryId: entry!.id, stream: key });
  });

  it('retries while Redis is unreachable and succeeds on the reconnected connection', async () => {
    proxy = await startProxy(hostPort(REDIS));
    h = await harness({
      targets: [
        redisTarget({ connections: connections(viaPort(REDIS, proxy.port)), connectTimeoutMs: 1500 }),
      ],
    });
    const { name, key } = stream('default');
    const target = { redis: { connection: 'main', stream: name } };
    const policies = { retry: { maxAttempts: 20, backoff: 'fixed' as const, delayMs: 1000, jitter: false } };

    // A first run opens the shared connection.
    await h.s.put({ key: 'warm-up', spec: '@in 1s', target, policies });
    const warm = h.waitFor('run:succeeded');
    await h.clock.advance(1000);
    await warm;

    await proxy.down(); // Redis "stops": the connection drops, reconnects are refused
    await h.s.put({ key: 'order-events', spec: '@in 1s', target, payload: { order: 7 }, policies });
    const retrying = h.waitFor('run:retrying');
    await h.clock.advance(1000);
    const { run } = await retrying;
    expect(run.error).toMatchObject({ code: 'BROKER_UNAVAILABLE' });
    expect(run.error!.message).toMatch(/^redis connection "main": /);

    const again = await nextAttempt(h, run.id, 1000); // still down: reconnects keep failing
    expect(again.event).toBe('retrying');
    expect(again.run.error).toMatchObject({ code: 'BROKER_UNAVAILABLE' });

    await proxy.up(); // Redis is back: the client reconnects on its own
    expect(await driveRetries(h, run.id, 1000)).toBe('succeeded');

    const detail = await h.s.getRun(run.id);
    expect(detail!.attempts[0]).toMatchObject({ outcome: 'retry', error: { code: 'BROKER_UNAVAILABLE' } });
    expect(detail!.attempts.at(-1)!.outcome).toBe('succeeded');
    const entries = await entriesOf(key);
    expect(entries.map((e) => e.message.id)).toEqual([expect.stringContaining(':'), run.occurrenceId]);
  });

  it.runIf(REAL_RESTART)(
    'reconnects after a real Redis restart (opt-in: PUNCTUAL_TEST_BROKER_RESTART=1)',
    async () => {
      h = await harness({ targets: [redisTarget({ connections: connections(), connectTimeoutMs: 1500 })] });
      const { name, key } = stream('default');
      const target = { redis: { connection: 'main', stream: name } };
      const policies = {
        retry: { maxAttempts: 20, backoff: 'fixed' as const, delayMs: 1000, jitter: false },
      };
      await h.s.put({ key: 'warm-up', spec: '@in 1s', target, policies });
      const warm = h.waitFor('run:succeeded');
      await h.clock.advance(1000);
      await warm;

      let runId: string;
      try {
        await stopService(LOCAL_REDIS);
        await h.s.put({ key: 'order-events', spec: '@in 1s', target, policies });
        const retrying = h.waitFor('run:retrying');
        await h.clock.advance(1000);
        const { run } = await retrying;
        expect(run.error).toMatchObject({ code: 'BROKER_UNAVAILABLE' });
        runId = run.id;
      } finally {
        await startService(LOCAL_REDIS); // never leave the shared Redis stopped
      }
      expect(await driveRetries(h, runId, 1000)).toBe('succeeded');
      const { run } = (await h.s.getRun(runId))!;
      // Redis restarted without persistence: only the entry written after the restart is there.
      expect((await entriesOf(key)).map((e) => e.message.id)).toEqual([run.occurrenceId]);
    },
  );

  it('keeps both copies of a duplicate delivery, with the same id field (Redis does not deduplicate)', async () => {
    driver = redisTarget({ connections: connections() });
    const { name, key } = stream();
    const d = delivery({ redis: { connection: 'main', stream: name } });
    const first = await driver.deliver(d);
    const second = await driver.deliver(d);
    expect(first).toMatchObject({ type: 'ok', result: { stream: key } });
    expect(second).toMatchObject({ type: 'ok', result: { stream: key } });

    const entries = await entriesOf(key);
    expect(entries).toHaveLength(2);
    expect(entries.map((e) => e.message.id)).toEqual([d.run.occurrenceId, d.run.occurrenceId]);
    expect(entries[0]!.id).not.toBe(entries[1]!.id);
    expect(JSON.parse(entries[0]!.message.body!)).toMatchObject({
      id: d.run.occurrenceId,
      scheduledFor: new Date(SCHEDULED).toISOString(),
      firedAt: new Date(STARTED).toISOString(),
    });
  });

  it('takes the id field and the body id from the target idTemplate', async () => {
    driver = redisTarget({ connections: connections() });
    const { name, key } = stream();
    const d = delivery({
      redis: { connection: 'main', stream: name, idTemplate: '{key}-{scheduledForSeconds}' },
    });
    expect(await driver.deliver(d)).toMatchObject({ type: 'ok' });
    const [entry] = await entriesOf(key);
    const id = `order-events-${Math.floor(SCHEDULED / 1000)}`;
    expect(entry!.message.id).toBe(id);
    expect(JSON.parse(entry!.message.body!)).toMatchObject({ id });
  });

  it('trims with MAXLEN ~ when the target sets maxLen', async () => {
    driver = redisTarget({ connections: connections() });
    const { name, key } = stream();
    for (let i = 0; i < 300; i++) {
      const o = await driver.deliver(delivery({ redis: { connection: 'main', stream: name, maxLen: 10 } }));
      expect(o.type).toBe('ok');
    }
    // Approximate trimming removes whole nodes (100 entries by default): far fewer than 300 remain.
    const len = await admin.xLen(key);
    expect(len).toBeGreaterThanOrEqual(10);
    expect(len).toBeLessThan(300);
  });

  it('turns an error reply into a retry with BROKER_PUBLISH_FAILED', async () => {
    driver = redisTarget({ connections: connections() });
    const { name, key } = stream();
    await admin.set(key, 'not a stream');
    const o = await driver.deliver(delivery({ redis: { connection: 'main', stream: name } }));
    expect(o).toMatchObject({ type: 'retry', error: { code: 'BROKER_PUBLISH_FAILED' } });
    expect((o as { error: { message: string } }).error.message).toMatch(/WRONGTYPE/);
  });

  it('never waits past the attempt signal when Redis does not answer', async () => {
    proxy = await startProxy(hostPort(REDIS));
    proxy.stall(true); // accepts, never answers
    driver = redisTarget({ connections: connections(viaPort(REDIS, proxy.port)), connectTimeoutMs: 60_000 });
    const { name } = stream();
    const signal = AbortSignal.timeout(300);
    const t0 = Date.now();
    const o = await driver.deliver(delivery({ redis: { connection: 'main', stream: name } }, { signal }));
    expect(Date.now() - t0).toBeLessThan(3000);
    expect(o).toMatchObject({ type: 'retry', error: { code: 'BROKER_UNAVAILABLE' } });
    expect((o as { error: { message: string } }).error.message).toMatch(/aborted/);
  });

  it('refuses a destination outside the rules without connecting, and a missing connection', async () => {
    driver = redisTarget({ connections: connections() });
    expect(() => driver!.validate!({ redis: { connection: 'main', stream: 'a*b' } }, null)).toThrow(
      expect.objectContaining({
        code: 'BROKER_DESTINATION_INVALID',
        details: expect.objectContaining({ field: 'target.redis.stream' }),
      }),
    );
    expect(() => driver!.validate!({ redis: { connection: 'other', stream: 'x' } }, null)).toThrow(
      expect.objectContaining({
        code: 'BROKER_NOT_CONFIGURED',
        details: expect.objectContaining({ field: 'target.redis.connection' }),
      }),
    );
    const o = await driver.deliver(delivery({ redis: { connection: 'other', stream: 'x' } }));
    expect(o).toMatchObject({ type: 'retry', error: { code: 'BROKER_NOT_CONFIGURED' } });
  });
});
