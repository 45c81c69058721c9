// The Redis Streams target: each attempt is one `XADD <stream> [MAXLEN ~ n] * id <message id> body <json>`
// on the operator's named connection; the reply (the entry id) is the acknowledgement. It owns the shared
// node-redis client per connection (loaded lazily, reconnecting on its own) and the outcome rules. It must
// never queue a command while disconnected, wait past the attempt's signal, or throw out of `deliver`.
// Redis does not deduplicate: a retried occurrence is a second entry carrying the same `id` field.

import type { Outcome } from '../../domain/outcome.js';
import { messageId } from '../../domain/message-id.js';
import { parseTarget, targetKind, type RedisTarget, type Target } from '../../domain/target.js';
import type { Delivery, TargetDriver } from '../target.js';
import { webhookBody } from '../webhook/webhook-target.js';
import {
  BrokerFailure,
  ReadyWaiters,
  SharedClients,
  bounded,
  clientFor,
  destinationOf,
  errorText,
  failureOutcome,
  lazyClient,
  resolveBrokerOptions,
  result,
  type BrokerDriverOptions,
} from './broker-clients.js';
import { brokerDestination, checkDestination, type BrokerConnection } from './broker-connections.js';

export type RedisTargetOptions = BrokerDriverOptions;

/** What a successful delivery keeps as the run's result. */
export interface RedisResult {
  /** The stream entry id Redis assigned (`1736035200000-0`). */
  entryId: string;
  /** The stream written to (prefix included). */
  stream: string;
}

/** The part of a node-redis client this driver uses. */
interface RedisClient {
  readonly isReady: boolean;
  on(event: 'ready', fn: () => void): unknown;
  on(event: 'error', fn: (e: Error) => void): unknown;
  connect(): Promise<unknown>;
  xAdd(
    key: string,
    id: string,
    message: Record<string, string>,
    options?: { TRIM: { strategy: 'MAXLEN'; strategyModifier: '~'; threshold: number } },
  ): Promise<string>;
  close(): Promise<unknown>;
  destroy(): void;
}

interface Handle {
  client: RedisClient;
  waiters: ReadyWaiters;
}

const loadRedis = lazyClient(() => import('redis'), 'redis');

/** Reconnect after 100 ms, doubling to at most 2 s, with a little jitter: forever, until `close()`. */
function reconnectDelay(retries: number): number {
  return Math.min(100 * 2 ** Math.min(retries, 5), 2_000) + Math.floor(Math.random() * 100);
}

/** The Redis Streams target driver. */
export function redisTarget(opts: RedisTargetOptions): TargetDriver {
  const { connections, publishTimeoutMs, connectTimeoutMs } = resolveBrokerOptions(opts);

  const clients = new SharedClients<Handle>(
    async (conn) => {
      const { createClient } = await loadRedis();
      const client = createClient({
        url: conn.url,
        // A command sent while reconnecting fails at once (the run retries) instead of waiting unseen.
        disableOfflineQueue: true,
        socket: { connectTimeout: connectTimeoutMs, reconnectStrategy: reconnectDelay },
      }) as unknown as RedisClient;
      const handle: Handle = { client, waiters: new ReadyWaiters() };
      client.on('ready', () => handle.waiters.ready());
      // Every failed (re)connect reports here; a publish waiting for the connection learns why at once.
      client.on('error', (e) => handle.waiters.failed(new BrokerFailure('BROKER_UNAVAILABLE', errorText(e))));
      // Connects in the background and keeps reconnecting after a restart until the client is closed.
      client.connect().catch(() => {});
      return handle;
    },
    async ({ client }) => {
      if (!client.isReady) {
        try {
          client.destroy();
        } catch {
          // never opened
        }
        return;
      }
      await bounded(client.close(), undefined, 2_000, 'closing').catch(() => client.destroy());
    },
  );

  const field = (name: string): string => `target.redis.${name}`;

  return {
    kind: 'redis',

    validate(target: Target): void {
      const { redis } = parseTarget(target) as RedisTarget;
      connections.require('redis', redis.connection, field('connection'));
      checkDestination(redis.stream, field('stream'));
    },

    async deliver(d: Delivery): Promise<Outcome> {
      if (targetKind(d.schedule.target) !== 'redis') {
        return { type: 'fail', error: { code: 'ATTEMPT_FAILED', message: 'not a redis target' } };
      }
      const target = (d.schedule.target as RedisTarget).redis;
      let conn: BrokerConnection | undefined;
      try {
        conn = connections.require('redis', target.connection, field('connection'));
        const stream = destinationOf(brokerDestination, conn, d.run.tenantId, target.stream, field('stream'));
        const id = messageId(target.idTemplate, d.run);
        const body = JSON.stringify(webhookBody(d, id));
        const { client, waiters } = await clientFor(clients, conn, d.signal, connectTimeoutMs);
        if (!client.isReady) await waiters.wait(d.signal, connectTimeoutMs, 'waiting for the connection');
        let entryId: string;
        try {
          entryId = await bounded(
            client.xAdd(
              stream,
              '*',
              // The attempt's span (W3C Trace Context) as entry fields when the scheduler traces.
              d.trace ? { id, body, ...d.trace.headers } : { id, body },
              target.maxLen === undefined
                ? undefined
                : { TRIM: { strategy: 'MAXLEN', strategyModifier: '~', threshold: target.maxLen } },
            ),
            d.signal,
            publishTimeoutMs,
            `XADD to ${stream}`,
          );
        } catch (e) {
          if (e instanceof BrokerFailure) throw e;
          // Offline or lost mid-command: unavailable; an error reply (WRONGTYPE, OOM, …): refused.
          throw new BrokerFailure(
            client.isReady ? 'BROKER_PUBLISH_FAILED' : 'BROKER_UNAVAILABLE',
            `XADD to ${stream}: ${errorText(e)}`,
          );
        }
        const out: RedisResult = { entryId, stream };
        return result({ ...out });
      } catch (e) {
        return failureOutcome(conn, e, 'BROKER_UNAVAILABLE');
      }
    },

    close: () => clients.close(),
  };
}
