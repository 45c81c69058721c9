// Broker configuration and the rules around it, without any broker: parsing the operator's connections
// (errors name the connection), the destination rule, the names a tenant's destination becomes (no escape
// from its prefix), the AMQP exchange modes, the target shapes, lazy client loading, bounded waits, redacted
// messages, save-time validation, outcomes that need no connection, and the scheduler closing its drivers.

import { describe, expect, it } from 'vitest';
import { parseTarget } from '../../../src/domain/target.js';
import { isPunctualError } from '../../../src/errors.js';
import { amqpAddress, amqpTarget } from '../../../src/targets/brokers/amqp-target.js';
import {
  BrokerFailure,
  bounded,
  brokerMessage,
  lazyClient,
  resolveBrokerOptions,
} from '../../../src/targets/brokers/broker-clients.js';
import {
  brokerDestination,
  checkDestination,
  parseBrokerConnections,
  type BrokerConnection,
} from '../../../src/targets/brokers/broker-connections.js';
import { natsTarget } from '../../../src/targets/brokers/nats-target.js';
import { redisTarget } from '../../../src/targets/brokers/redis-target.js';
import type { TargetDriver } from '../../../src/targets/target.js';
import { harness } from '../../support/harness.js';
import { delivery } from './broker-support.js';

const caught = (fn: () => unknown): { code?: string; message: string; details?: Record<string, unknown> } => {
  try {
    fn();
  } catch (e) {
    if (isPunctualError(e)) return { code: e.code, message: e.message, details: e.details };
    throw e;
  }
  throw new Error('expected an error');
};

const CONFIG = {
  cache: { kind: 'redis', url: 'redis://:s3cret@redis.internal:6379/0', prefix: 'punctual:' },
  events: { kind: 'nats', url: 'nats://a:4222, nats://b:4222', prefix: 'punctual.', perTenantPrefix: true },
  rabbit: { kind: 'amqp', url: 'amqps://app:pw@mq.internal/vhost', exchange: 'punctual.events' },
} as const;

describe('operator configuration', () => {
  it('parses named connections with their defaults', () => {
    const c = parseBrokerConnections(CONFIG);
    expect(c.names()).toEqual(['cache', 'events', 'rabbit']);
    expect(c.names('nats')).toEqual(['events']);
    expect(c.get('cache')).toEqual({
      name: 'cache',
      kind: 'redis',
      url: CONFIG.cache.url,
      prefix: 'punctual:',
      perTenantPrefix: false,
      exchange: null,
    });
    expect(c.get('events')).toMatchObject({ prefix: 'punctual.', perTenantPrefix: true });
    expect(c.get('rabbit')).toMatchObject({ prefix: '', exchange: 'punctual.events' });
  });

  it.each([
    [[], undefined, /must be an object/],
    [{ 'bad name!': { kind: 'redis', url: 'redis://x' } }, 'bad name!', /name must be/],
    [{ a: 'redis://x' }, 'a', /value must be an object/],
    [{ a: { kind: 'kafka', url: 'x' } }, 'a', /kind must be one of redis, nats, amqp/],
    [{ a: { kind: 'redis' } }, 'a', /url must be a URL/],
    [{ a: { kind: 'redis', url: 'not a url' } }, 'a', /url must be an absolute URL/],
    [{ a: { kind: 'redis', url: 'amqp://x' } }, 'a', /url must use redis or rediss/],
    [{ a: { kind: 'nats', url: 'nats://x,http://y' } }, 'a', /url must use nats or tls/],
    [{ a: { kind: 'amqp', url: 'amqp://x', extra: 1 } }, 'a', /extra is not a field/],
    [{ a: { kind: 'redis', url: 'redis://x', prefix: 'a b' } }, 'a', /prefix must not contain whitespace/],
    [{ a: { kind: 'redis', url: 'redis://x', prefix: 'p.*.' } }, 'a', /prefix must not contain wildcards/],
    [{ a: { kind: 'redis', url: 'redis://x', prefix: '.' } }, 'a', /prefix must be a name/],
    [
      { a: { kind: 'redis', url: 'redis://x', prefix: 'x'.repeat(61) } },
      'a',
      /prefix must be a string of at most 60/,
    ],
    [
      { a: { kind: 'redis', url: 'redis://x', perTenantPrefix: 'yes' } },
      'a',
      /perTenantPrefix must be true or false/,
    ],
    [
      { a: { kind: 'redis', url: 'redis://x', exchange: 'e' } },
      'a',
      /exchange applies to amqp connections only/,
    ],
    [{ a: { kind: 'amqp', url: 'amqp://x', exchange: 'e#' } }, 'a', /exchange must not contain wildcards/],
  ])('refuses %j, naming the connection', (config, connection, why) => {
    const e = caught(() => parseBrokerConnections(config));
    expect(e.code).toBe('BROKER_CONFIG_INVALID');
    expect(e.message).toMatch(why);
    if (connection !== undefined) {
      expect(e.message).toContain(`broker connection "${connection}"`);
      expect(e.details).toMatchObject({ connection });
    }
  });

  it('refuses timeouts out of range', () => {
    expect(caught(() => resolveBrokerOptions({ connections: {}, publishTimeoutMs: 0 }))).toMatchObject({
      code: 'BROKER_CONFIG_INVALID',
      details: { field: 'publishTimeoutMs' },
    });
  });
});

describe('destinations', () => {
  it.each([
    ['', /must not be empty/],
    ['orders.*', /wildcards/],
    ['orders.>', /wildcards/],
    ['orders.#', /wildcards/],
    ['a..b', /empty segments/],
    ['.a', /empty segments/],
    ['a.', /empty segments/],
    ['a b', /whitespace or control/],
    ['a\tb', /whitespace or control/],
    ['a\u0000b', /whitespace or control/],
    ['a/b', /only letters, digits/],
    ['{tag}', /only letters, digits/],
    ['é', /only letters, digits/],
    ['x'.repeat(129), /at most 128/],
  ])('refuses %j', (name, why) => {
    const e = caught(() => checkDestination(name, 'target.nats.subject'));
    expect(e).toMatchObject({
      code: 'BROKER_DESTINATION_INVALID',
      details: { field: 'target.nats.subject' },
    });
    expect(e.message).toMatch(why);
  });

  it.each(['orders', 'orders.created', 'app:orders:v1', 'a-b_c.D9'])('accepts %j', (name) => {
    expect(() => checkDestination(name, 'f')).not.toThrow();
  });

  const conn = (over: Partial<BrokerConnection> = {}): BrokerConnection => ({
    name: 'c',
    kind: 'nats',
    url: 'nats://x',
    prefix: 'punctual.',
    perTenantPrefix: true,
    exchange: null,
    ...over,
  });

  it('puts the prefix and the tenant in front: a tenant reaches only its own names', () => {
    expect(brokerDestination(conn(), 'acme', 'orders.created', 'f')).toBe('punctual.acme.orders.created');
    expect(brokerDestination(conn({ perTenantPrefix: false }), 'acme', 'orders', 'f')).toBe(
      'punctual.orders',
    );
    expect(brokerDestination(conn({ prefix: '', perTenantPrefix: false }), 'acme', 'orders', 'f')).toBe(
      'orders',
    );
    // Another tenant's subject cannot be written from inside the prefix: no wildcards, no "..", no leading ".".
    for (const escape of ['..other.orders', '.other', '>', '*.orders']) {
      expect(() => brokerDestination(conn(), 'acme', escape, 'f')).toThrow();
    }
    // A tenant id carrying a separator could collide with another tenant's names: refused.
    expect(caught(() => brokerDestination(conn(), 'acme.other', 'orders', 'f'))).toMatchObject({
      code: 'BROKER_DESTINATION_INVALID',
    });
    // The longest prefix, tenant id and destination still make a name AMQP accepts (at most 255 bytes).
    expect(
      brokerDestination(conn({ prefix: 'p'.repeat(60) }), 't'.repeat(63), 'x'.repeat(128), 'f'),
    ).toHaveLength(252);
  });

  it('applies the prefix to the AMQP name that selects the destination', () => {
    const c = conn({ kind: 'amqp', prefix: 'p.' });
    // Default exchange: the routing key is a queue name.
    expect(amqpAddress(c, 'acme', { connection: 'c', routingKey: 'orders' })).toEqual({
      exchange: '',
      routingKey: 'p.acme.orders',
    });
    // A named exchange: the exchange is confined; the routing key is checked as given.
    expect(
      amqpAddress(c, 'acme', { connection: 'c', exchange: 'events', routingKey: 'order.created' }),
    ).toEqual({
      exchange: 'p.acme.events',
      routingKey: 'order.created',
    });
    expect(() =>
      amqpAddress(c, 'acme', { connection: 'c', exchange: 'events', routingKey: 'order.#' }),
    ).toThrow();
    // The operator's exchange: the routing key is confined; the target may not pick an exchange.
    const fixed = conn({ kind: 'amqp', prefix: 'p.', exchange: 'amq.topic' });
    expect(amqpAddress(fixed, 'acme', { connection: 'c', routingKey: 'orders' })).toEqual({
      exchange: 'amq.topic',
      routingKey: 'p.acme.orders',
    });
    expect(
      caught(() => amqpAddress(fixed, 'acme', { connection: 'c', exchange: 'x', routingKey: 'o' })),
    ).toMatchObject({
      code: 'BROKER_DESTINATION_INVALID',
      details: { field: 'target.amqp.exchange' },
    });
  });
});

describe('target shapes', () => {
  it('accepts the three broker targets', () => {
    expect(parseTarget({ redis: { connection: 'c', stream: 's', maxLen: 1000 } })).toEqual({
      redis: { connection: 'c', stream: 's', maxLen: 1000 },
    });
    expect(parseTarget({ nats: { connection: 'c', subject: 'a.b' } })).toEqual({
      nats: { connection: 'c', subject: 'a.b' },
    });
    expect(parseTarget({ amqp: { connection: 'c', routingKey: 'k' } })).toEqual({
      amqp: { connection: 'c', routingKey: 'k' },
    });
  });

  it.each([
    [{ redis: 'orders' }, 'target.redis'],
    [{ redis: { connection: 'c' } }, 'target.redis.stream'],
    [{ redis: { connection: 'c', stream: 's', maxLen: 0 } }, 'target.redis.maxLen'],
    [{ redis: { connection: 'c', stream: 's', maxLen: 1.5 } }, 'target.redis.maxLen'],
    [{ nats: { connection: '', subject: 's' } }, 'target.nats.connection'],
    [{ nats: { connection: 'c', subject: 's', stream: 'x' } }, 'target.nats.stream'],
    [{ amqp: { connection: 'c', routingKey: 7 } }, 'target.amqp.routingKey'],
    [{ amqp: { connection: 'c', routingKey: 'x'.repeat(201) } }, 'target.amqp.routingKey'],
  ])('refuses %j with details.field %s', (target, field) => {
    expect(caught(() => parseTarget(target))).toMatchObject({ code: 'SCHEDULE_INVALID', details: { field } });
  });
});

describe('helpers', () => {
  it('reports a client library that is not installed, and tries again on the next use', async () => {
    let tries = 0;
    const missing = 'punctual-no-such-client';
    const load = lazyClient(() => {
      tries++;
      return import(/* @vite-ignore */ missing) as Promise<unknown>;
    }, 'punctual-no-such-client');
    await expect(load()).rejects.toMatchObject({
      code: 'BROKER_CLIENT_MISSING',
      message: 'the client library is not installed: npm install punctual-no-such-client',
    });
    await expect(load()).rejects.toMatchObject({ code: 'BROKER_CLIENT_MISSING' });
    expect(tries).toBe(2);
  });

  it('bounds a wait by time and by the signal', async () => {
    const never = new Promise<never>(() => {});
    await expect(bounded(never, undefined, 20, 'publish')).rejects.toMatchObject({
      code: 'BROKER_PUBLISH_FAILED',
      message: 'publish: no answer within 20 ms',
    });
    const ac = new AbortController();
    const waiting = bounded(never, ac.signal, 60_000, 'connect', 'BROKER_UNAVAILABLE');
    ac.abort(new Error('attempt timed out after 5000 ms'));
    await expect(waiting).rejects.toMatchObject({
      code: 'BROKER_UNAVAILABLE',
      message: 'connect: aborted: attempt timed out after 5000 ms',
    });
    await expect(bounded(never, ac.signal, 60_000, 'x')).rejects.toBeInstanceOf(BrokerFailure);
    await expect(bounded(Promise.resolve(7), undefined, 10, 'x')).resolves.toBe(7);
  });

  it('never shows a URL password in a run error', () => {
    const c = parseBrokerConnections(CONFIG);
    expect(brokerMessage(c.get('cache')!, new Error('auth failed for :s3cret@redis.internal'))).toBe(
      'redis connection "cache": auth failed for :***@redis.internal',
    );
    expect(brokerMessage(c.get('rabbit')!, new Error('bad pw'))).toBe('amqp connection "rabbit": bad ***');
  });
});

describe('drivers without a broker', () => {
  const drivers: [string, TargetDriver][] = [
    ['redis', redisTarget({ connections: CONFIG })],
    ['nats', natsTarget({ connections: CONFIG })],
    ['amqp', amqpTarget({ connections: CONFIG })],
  ];
  const targetFor = (kind: string, connection: string, name: string) =>
    kind === 'redis'
      ? { redis: { connection, stream: name } }
      : kind === 'nats'
        ? { nats: { connection, subject: name } }
        : { amqp: { connection, routingKey: name } };

  it.each(drivers)(
    '%s: validates the connection (and its kind) and the destination at save time',
    (kind, d) => {
      const wrongKind = kind === 'redis' ? 'events' : 'cache';
      for (const connection of ['missing', wrongKind]) {
        const e = caught(() => d.validate!(targetFor(kind, connection, 'orders'), null));
        expect(e).toMatchObject({
          code: 'BROKER_NOT_CONFIGURED',
          details: { field: `target.${kind}.connection`, connection },
        });
      }
      const own = { redis: 'cache', nats: 'events', amqp: 'rabbit' }[kind]!;
      expect(() => d.validate!(targetFor(kind, own, 'orders'), null)).not.toThrow();
      expect(caught(() => d.validate!(targetFor(kind, own, 'orders.*'), null)).code).toBe(
        'BROKER_DESTINATION_INVALID',
      );
    },
  );

  it.each(drivers)('%s: a connection this process does not know is retried, not lost', async (kind, d) => {
    const o = await d.deliver(delivery(targetFor(kind, 'missing', 'orders')));
    expect(o).toMatchObject({ type: 'retry', error: { code: 'BROKER_NOT_CONFIGURED' } });
  });

  it('fails for good when the tenant cannot be put in a per-tenant prefix (no connection is opened)', async () => {
    const [, nats] = drivers[1]!;
    const o = await nats.deliver(
      delivery({ nats: { connection: 'events', subject: 'orders' } }, { tenantId: 'a.b' }),
    );
    expect(o).toMatchObject({ type: 'fail', error: { code: 'BROKER_DESTINATION_INVALID' } });
  });

  it('refuses a broker target whose driver is not enabled, and closes enabled drivers on close()', async () => {
    let closed = 0;
    const fake: TargetDriver = {
      kind: 'nats',
      deliver: async () => ({ type: 'ok' }),
      close: async () => {
        closed++;
      },
    };
    const h = await harness({ targets: [fake] });
    await expect(
      h.s.put({ key: 'k', spec: '@in 1s', target: { redis: { connection: 'c', stream: 's' } } }),
    ).rejects.toMatchObject({ code: 'SCHEDULE_INVALID', details: { field: 'target' } });
    await h.close();
    expect(closed).toBe(1);
  });
});
