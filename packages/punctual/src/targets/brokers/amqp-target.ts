// The RabbitMQ (AMQP 0-9-1) target: each attempt is one persistent, mandatory publish on a confirm channel
// with `message_id` set to the occurrence id, successful only once the broker confirms it (a nack, an
// unroutable return, or a lost channel retries). It owns the shared connection and confirm channel per
// connection name (amqplib, loaded lazily), rebuilt at the next publish after either closes, and the
// outcome rules. It must never wait past the attempt's signal or throw out of `deliver`.

import type { Outcome } from '../../domain/outcome.js';
import { messageId } from '../../domain/message-id.js';
import { parseTarget, targetKind, type AmqpTarget, type Target } from '../../domain/target.js';
import { PunctualError } from '../../errors.js';
import type { Delivery, TargetDriver } from '../target.js';
import { webhookBody } from '../webhook/webhook-target.js';
import {
  BrokerFailure,
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
import {
  brokerDestination,
  checkDestination,
  type BrokerConnection,
  type BrokerConnections,
} from './broker-connections.js';

export type AmqpTargetOptions = BrokerDriverOptions;

/** What a successful delivery keeps as the run's result. */
export interface AmqpResult {
  confirmed: true;
  /** The exchange published to (`""` is the default exchange). */
  exchange: string;
  routingKey: string;
}

interface PublishOptions {
  persistent: boolean;
  mandatory: boolean;
  messageId: string;
  contentType: string;
  timestamp: number;
  appId: string;
  headers?: Record<string, string>;
}
interface ReturnedMessage {
  properties: { messageId?: string };
  fields: { replyCode?: number; replyText?: string };
}
/** The part of an amqplib connection and confirm channel this driver uses. */
interface AmqpChannel {
  on(event: 'close', fn: () => void): unknown;
  on(event: 'error', fn: (e: Error) => void): unknown;
  on(event: 'return', fn: (m: ReturnedMessage) => void): unknown;
  publish(
    exchange: string,
    routingKey: string,
    content: Buffer,
    options: PublishOptions,
    cb: (err: unknown) => void,
  ): boolean;
  close(): Promise<void>;
}
interface AmqpConnection {
  on(event: 'close', fn: (e?: Error) => void): unknown;
  on(event: 'error', fn: (e: Error) => void): unknown;
  createConfirmChannel(): Promise<AmqpChannel>;
  close(): Promise<void>;
}

interface Handle {
  connection: AmqpConnection;
  channel: AmqpChannel;
  /** Both the connection and the channel are open. */
  open: boolean;
  /** The connection itself closed (not just the channel, which the broker closes when it refuses a publish). */
  connectionLost: boolean;
  /** Why the connection or channel closed, for the publishes it takes down. */
  closedBecause: string | undefined;
  /** Messages the broker returned as unroutable, by message id, not yet matched with their confirm. */
  returned: Map<string, string>;
}

const loadAmqp = lazyClient(() => import('amqplib'), 'amqplib');

function exchangeFixed(conn: BrokerConnection): PunctualError {
  return new PunctualError(
    'BROKER_DESTINATION_INVALID',
    `target.amqp.exchange must not be given: connection "${conn.name}" always publishes to its own exchange`,
    { field: 'target.amqp.exchange', connection: conn.name },
  );
}

/** The exchange and routing key a target's message goes to, with the connection's prefix applied. */
export function amqpAddress(
  conn: BrokerConnection,
  tenantId: string,
  target: AmqpTarget['amqp'],
): { exchange: string; routingKey: string } {
  if (conn.exchange !== null) {
    // The operator fixed the exchange: the prefix confines the routing key.
    if (target.exchange !== undefined) throw exchangeFixed(conn);
    return {
      exchange: conn.exchange,
      routingKey: brokerDestination(conn, tenantId, target.routingKey, 'target.amqp.routingKey'),
    };
  }
  if (target.exchange !== undefined) {
    // A named exchange is the destination: the prefix confines it; the routing key is checked as it is.
    checkDestination(target.routingKey, 'target.amqp.routingKey');
    return {
      exchange: brokerDestination(conn, tenantId, target.exchange, 'target.amqp.exchange'),
      routingKey: target.routingKey,
    };
  }
  // The default exchange routes by queue name: the prefix confines the routing key.
  return {
    exchange: '',
    routingKey: brokerDestination(conn, tenantId, target.routingKey, 'target.amqp.routingKey'),
  };
}

function validateAmqp(connections: BrokerConnections, target: Target): void {
  const { amqp } = parseTarget(target) as AmqpTarget;
  const conn = connections.require('amqp', amqp.connection, 'target.amqp.connection');
  // Checked without the tenant (save time has none): the names themselves and the exchange rule.
  if (conn.exchange !== null && amqp.exchange !== undefined) throw exchangeFixed(conn);
  if (amqp.exchange !== undefined) checkDestination(amqp.exchange, 'target.amqp.exchange');
  checkDestination(amqp.routingKey, 'target.amqp.routingKey');
}

/** The RabbitMQ target driver. */
export function amqpTarget(opts: AmqpTargetOptions): TargetDriver {
  const { connections, publishTimeoutMs, connectTimeoutMs } = resolveBrokerOptions(opts);

  const clients: SharedClients<Handle> = new SharedClients<Handle>(
    async (conn) => {
      const amqp = await loadAmqp();
      const connection = (await amqp.connect(conn.url, {
        timeout: connectTimeoutMs,
        clientProperties: { connection_name: `punctual:${conn.name}` },
      })) as unknown as AmqpConnection;
      let channel: AmqpChannel;
      try {
        channel = await connection.createConfirmChannel();
      } catch (e) {
        await connection.close().catch(() => {});
        throw e;
      }
      const handle: Handle = {
        connection,
        channel,
        open: true,
        connectionLost: false,
        closedBecause: undefined,
        returned: new Map(),
      };
      // amqplib does not reconnect here: a closed connection or channel is dropped and rebuilt at the next
      // publish (the publishes it took down fail and are retried by their runs).
      const lost = (why: string): void => {
        if (!handle.open) return;
        handle.open = false;
        handle.closedBecause = why;
        clients.invalidate(conn.name, handle);
      };
      connection.on('error', (e) => (handle.closedBecause = errorText(e)));
      connection.on('close', (e) => {
        handle.connectionLost = true;
        lost(e ? errorText(e) : 'the connection was closed');
      });
      channel.on('error', (e) => (handle.closedBecause = errorText(e)));
      channel.on('close', () => lost(handle.closedBecause ?? 'the channel was closed'));
      channel.on('return', (m) => {
        const id = m.properties.messageId;
        if (id !== undefined)
          handle.returned.set(id, `${m.fields.replyCode ?? ''} ${m.fields.replyText ?? ''}`.trim());
      });
      return handle;
    },
    async ({ connection }) => {
      await connection.close().catch(() => {});
    },
  );

  return {
    kind: 'amqp',

    validate(target: Target): void {
      validateAmqp(connections, target);
    },

    async deliver(d: Delivery): Promise<Outcome> {
      if (targetKind(d.schedule.target) !== 'amqp') {
        return { type: 'fail', error: { code: 'ATTEMPT_FAILED', message: 'not an amqp target' } };
      }
      const target = (d.schedule.target as AmqpTarget).amqp;
      let conn: BrokerConnection | undefined;
      try {
        conn = connections.require('amqp', target.connection, 'target.amqp.connection');
        const { exchange, routingKey } = destinationOf(amqpAddress, conn, d.run.tenantId, target);
        const id = messageId(target.idTemplate, d.run);
        const body = Buffer.from(JSON.stringify(webhookBody(d, id)));
        const handle = await clientFor(clients, conn, d.signal, connectTimeoutMs);
        const to = `${exchange === '' ? 'the default exchange' : `exchange ${exchange}`} (routing key ${routingKey})`;
        const msgId = id;
        handle.returned.delete(msgId); // a stale return of an earlier attempt that timed out
        const confirmed = new Promise<void>((resolve, reject) => {
          try {
            handle.channel.publish(
              exchange,
              routingKey,
              body,
              {
                persistent: true,
                mandatory: true,
                messageId: msgId,
                contentType: 'application/json',
                timestamp: Math.floor(d.startedAt / 1000),
                appId: 'punctual',
                // The attempt's span (W3C Trace Context) as message headers when the scheduler traces.
                ...(d.trace && { headers: { ...d.trace.headers } }),
              },
              (err) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve()),
            );
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        });
        try {
          await bounded(confirmed, d.signal, publishTimeoutMs, `publish to ${to}`);
        } catch (e) {
          if (e instanceof BrokerFailure) throw e;
          // A nack, or a channel the broker closed over this publish (no such exchange), is a refusal; a
          // connection that went away is unavailability.
          const why = handle.open ? errorText(e) : (handle.closedBecause ?? errorText(e));
          throw new BrokerFailure(
            handle.connectionLost ? 'BROKER_UNAVAILABLE' : 'BROKER_PUBLISH_FAILED',
            `publish to ${to}: ${why}`,
          );
        }
        // The broker returns an unroutable mandatory message before confirming it.
        const returned = handle.returned.get(msgId);
        if (returned !== undefined) {
          handle.returned.delete(msgId);
          throw new BrokerFailure(
            'BROKER_PUBLISH_FAILED',
            `publish to ${to}: unroutable, no queue is bound for it (${returned})`,
          );
        }
        const out: AmqpResult = { confirmed: true, exchange, routingKey };
        return result({ ...out });
      } catch (e) {
        return failureOutcome(conn, e, 'BROKER_UNAVAILABLE');
      }
    },

    close: () => clients.close(),
  };
}
