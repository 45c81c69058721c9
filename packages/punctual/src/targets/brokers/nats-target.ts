// The NATS JetStream target: each attempt is one JetStream publish to the subject with the `Nats-Msg-Id`
// header set to the occurrence id, successful only once the stream's PubAck arrives (a duplicate inside the
// stream's window is acknowledged with `duplicate: true` and stored once). It owns the shared connection per
// connection name (loaded lazily, reconnecting forever) and the outcome rules. It must never buffer a
// publish while disconnected, wait past the attempt's signal, or throw out of `deliver`.

import type { Outcome } from '../../domain/outcome.js';
import { messageId } from '../../domain/message-id.js';
import { parseTarget, targetKind, type NatsTarget, type Target } from '../../domain/target.js';
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

export type NatsTargetOptions = BrokerDriverOptions;

/** What a successful delivery keeps as the run's result. */
export interface NatsResult {
  /** The stream that stored the message. */
  stream: string;
  /** Its sequence number in that stream (the first copy's, for a duplicate). */
  seq: number;
  /** True when the stream had already stored this occurrence id inside its duplicate window. */
  duplicate: boolean;
  /** The subject published to (prefix included). */
  subject: string;
}

interface PubAck {
  stream: string;
  seq: number;
  duplicate: boolean;
}

/** The part of a NATS connection and JetStream client this driver uses. */
interface NatsConnection {
  status(): AsyncIterable<{ type: string }>;
  closed(): Promise<void | Error>;
  close(): Promise<void>;
  drain(): Promise<void>;
  isClosed(): boolean;
}
/** The part of a NATS header set this driver uses. */
interface MsgHeaders {
  set(name: string, value: string): void;
}
interface JetStream {
  publish(
    subject: string,
    data: string,
    opts: { msgID: string; timeout: number; headers?: MsgHeaders },
  ): Promise<PubAck>;
}

interface Handle {
  nc: NatsConnection;
  js: JetStream;
  /** A new, empty header set (the client's `headers()`). */
  headers: () => MsgHeaders;
  connected: boolean;
  /** Publishes waiting for the connection to come back. */
  waiters: ReadyWaiters;
  /** Publishes waiting for an acknowledgement, told when the connection drops (the ack will not come). */
  inFlight: Set<(e: BrokerFailure) => void>;
}

const loadNats = lazyClient(
  () => Promise.all([import('@nats-io/transport-node'), import('@nats-io/jetstream')]),
  '@nats-io/transport-node @nats-io/jetstream',
);

/** Servers and credentials from a connection URL (`nats://user:pass@a:4222,nats://b:4222`, `nats://token@a`). */
function natsOptions(url: string): { servers: string[]; user?: string; pass?: string; token?: string } {
  const out: { servers: string[]; user?: string; pass?: string; token?: string } = { servers: [] };
  for (const s of url.split(',')) {
    const u = new URL(s.trim());
    if (u.username && u.password) {
      out.user = decodeURIComponent(u.username);
      out.pass = decodeURIComponent(u.password);
    } else if (u.username) out.token = decodeURIComponent(u.username);
    u.username = '';
    u.password = '';
    out.servers.push(`${u.protocol}//${u.host}`);
  }
  return out;
}

/** The NATS JetStream target driver. */
export function natsTarget(opts: NatsTargetOptions): TargetDriver {
  const { connections, publishTimeoutMs, connectTimeoutMs } = resolveBrokerOptions(opts);

  const clients: SharedClients<Handle> = new SharedClients<Handle>(
    async (conn) => {
      const [{ connect, headers }, { jetstream }] = await loadNats();
      const nc = (await connect({
        ...natsOptions(conn.url),
        name: `punctual:${conn.name}`,
        timeout: connectTimeoutMs,
        reconnect: true,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
      })) as unknown as NatsConnection;
      const handle: Handle = {
        nc,
        js: jetstream(nc as never) as unknown as JetStream,
        headers: () => headers() as MsgHeaders,
        connected: true,
        waiters: new ReadyWaiters(),
        inFlight: new Set(),
      };
      const dropped = (why: string): void => {
        const e = new BrokerFailure('BROKER_UNAVAILABLE', why);
        for (const f of handle.inFlight) f(e);
        handle.inFlight.clear();
      };
      void (async () => {
        for await (const s of nc.status()) {
          if (s.type === 'disconnect') {
            handle.connected = false;
            dropped('the connection was lost before the acknowledgement');
          } else if (s.type === 'reconnect') {
            handle.connected = true;
            handle.waiters.ready();
          }
        }
      })().catch(() => {});
      // Closed for good (it never gives up reconnecting, so only by close() or a fatal error): open anew.
      void nc.closed().then(() => {
        handle.connected = false;
        handle.waiters.failed(new BrokerFailure('BROKER_UNAVAILABLE', 'the connection was closed'));
        dropped('the connection was closed before the acknowledgement');
        clients.invalidate(conn.name, handle);
      });
      return handle;
    },
    async ({ nc }) => {
      if (nc.isClosed()) return;
      await bounded(nc.drain(), undefined, 2_000, 'draining').catch(() => nc.close());
    },
  );

  const field = (name: string): string => `target.nats.${name}`;

  return {
    kind: 'nats',

    validate(target: Target): void {
      const { nats } = parseTarget(target) as NatsTarget;
      connections.require('nats', nats.connection, field('connection'));
      checkDestination(nats.subject, field('subject'));
    },

    async deliver(d: Delivery): Promise<Outcome> {
      if (targetKind(d.schedule.target) !== 'nats') {
        return { type: 'fail', error: { code: 'ATTEMPT_FAILED', message: 'not a nats target' } };
      }
      const target = (d.schedule.target as NatsTarget).nats;
      let conn: BrokerConnection | undefined;
      try {
        conn = connections.require('nats', target.connection, field('connection'));
        const subject = destinationOf(
          brokerDestination,
          conn,
          d.run.tenantId,
          target.subject,
          field('subject'),
        );
        const id = messageId(target.idTemplate, d.run);
        const body = JSON.stringify(webhookBody(d, id));
        const handle = await clientFor(clients, conn, d.signal, connectTimeoutMs);
        // While the client reconnects, a publish would sit in its buffer: wait for the connection instead.
        if (!handle.connected) {
          await handle.waiters.wait(d.signal, connectTimeoutMs, 'waiting for the connection to come back');
        }
        let ack: PubAck;
        let onDrop: ((e: BrokerFailure) => void) | undefined;
        // A publish the client buffered when the connection dropped may still reach the stream after the
        // reconnect: the retry then carries the same Nats-Msg-Id and is stored once.
        const dropped = new Promise<never>((_, reject) => handle.inFlight.add((onDrop = reject)));
        try {
          ack = await bounded(
            Promise.race([
              handle.js.publish(subject, body, {
                msgID: id,
                timeout: publishTimeoutMs,
                ...(d.trace && { headers: traceHeaders(handle, d.trace.headers) }),
              }),
              dropped,
            ]),
            d.signal,
            publishTimeoutMs + 1_000, // the client's own timeout answers first
            `publish to ${subject}`,
          );
        } catch (e) {
          if (e instanceof BrokerFailure) throw e;
          throw new BrokerFailure(
            handle.connected ? 'BROKER_PUBLISH_FAILED' : 'BROKER_UNAVAILABLE',
            `publish to ${subject}: ${publishError(e)}`,
          );
        } finally {
          handle.inFlight.delete(onDrop!);
        }
        const out: NatsResult = { stream: ack.stream, seq: ack.seq, duplicate: ack.duplicate, subject };
        return result({ ...out });
      } catch (e) {
        return failureOutcome(conn, e, 'BROKER_UNAVAILABLE');
      }
    },

    close: () => clients.close(),
  };
}

function publishError(e: unknown): string {
  const name = e instanceof Error ? e.name : '';
  if (name === 'JetStreamNotEnabled' || /no responders/i.test(errorText(e))) {
    return 'no stream accepts this subject (or JetStream is not enabled)';
  }
  if (name === 'TimeoutError') return 'no acknowledgement from the stream in time';
  return errorText(e);
}

/** The attempt's span (W3C Trace Context) as NATS message headers. */
function traceHeaders(handle: Handle, trace: Record<string, string>): MsgHeaders {
  const h = handle.headers();
  for (const [name, value] of Object.entries(trace)) h.set(name, value);
  return h;
}
