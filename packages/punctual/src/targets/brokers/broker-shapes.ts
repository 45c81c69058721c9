// The shapes of the broker targets: `{ "redis": { connection, stream, maxLen?, idTemplate? } }`,
// `{ "nats": { connection, subject, idTemplate? } }` and `{ "amqp": { connection, exchange?, routingKey,
// idTemplate? } }`, their validation and JSON Schemas. Whether the connection exists and the destination is
// allowed under its prefix is the broker drivers' check. Pure: it must never perform I/O (the domain imports it).

import { ID_TEMPLATE_JSON_SCHEMA, parseIdTemplate } from '../../domain/message-id.js';
import { isPlainObject, shapeInvalid, type JsonSchema, type TargetShape } from '../target-shape.js';

/** A Redis Streams target: `XADD` to `stream` on the operator's connection named `connection`. */
export interface RedisTarget {
  redis: { connection: string; stream: string; maxLen?: number; idTemplate?: string };
}
/** A NATS JetStream target: a publish to `subject` on the operator's connection named `connection`. */
export interface NatsTarget {
  nats: { connection: string; subject: string; idTemplate?: string };
}
/** A RabbitMQ target: a publish to `exchange` (default: the default exchange) with `routingKey`. */
export interface AmqpTarget {
  amqp: { connection: string; exchange?: string; routingKey: string; idTemplate?: string };
}
export type BrokerTarget = RedisTarget | NatsTarget | AmqpTarget;

/** The fields of each broker target, and whether each is required. */
const BROKER_FIELDS = {
  redis: { connection: true, stream: true, maxLen: false, idTemplate: false },
  nats: { connection: true, subject: true, idTemplate: false },
  amqp: { connection: true, exchange: false, routingKey: true, idTemplate: false },
} as const;
const BROKER_NAME_MAX = 200;

const EXAMPLES = {
  redis: '{ "connection": "events", "stream": "orders" }',
  nats: '{ "connection": "events", "subject": "orders.created" }',
  amqp: '{ "connection": "events", "routingKey": "orders" }',
};

/**
 * Validates a broker target's shape: the connection name and destination names are non-empty strings of at
 * most 200 characters, `maxLen` a whole number from 1 to 1e9, no unknown field. Whether the connection
 * exists and the destination is allowed under its prefix is the broker driver's check.
 */
function parseBroker<K extends keyof typeof BROKER_FIELDS>(kind: K, value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) throw shapeInvalid(kind, '', `must be an object such as ${EXAMPLES[kind]}`);
  const fields: Record<string, boolean> = BROKER_FIELDS[kind];
  for (const k of Object.keys(value)) {
    if (!(k in fields))
      throw shapeInvalid(kind, k, `is not a ${kind} field (${Object.keys(fields).join(', ')})`);
  }
  const out: Record<string, string | number> = {};
  for (const [name, required] of Object.entries(fields)) {
    const x = value[name];
    if (x === undefined) {
      if (required) throw shapeInvalid(kind, name, 'is required');
      continue;
    }
    if (name === 'maxLen') {
      if (typeof x !== 'number' || !Number.isInteger(x) || x < 1 || x > 1_000_000_000) {
        throw shapeInvalid(kind, name, 'must be an integer between 1 and 1000000000');
      }
      out[name] = x;
      continue;
    }
    if (name === 'idTemplate') {
      out[name] = parseIdTemplate(x, `target.${kind}.${name}`);
      continue;
    }
    if (typeof x !== 'string' || x.length === 0) throw shapeInvalid(kind, name, 'must be a non-empty string');
    if (x.length > BROKER_NAME_MAX) {
      throw shapeInvalid(kind, name, `must be at most ${BROKER_NAME_MAX} characters`);
    }
    out[name] = x;
  }
  return out;
}

/** A broker name (connection, stream, subject, exchange, routing key); the driver checks the rest. */
const brokerName = { type: 'string', minLength: 1, maxLength: BROKER_NAME_MAX };
const connection = (kind: string): JsonSchema => ({
  ...brokerName,
  description: `the operator's ${kind} connection`,
});
const objectOf = (properties: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

export const redisShape: TargetShape<'redis', RedisTarget['redis']> = {
  kind: 'redis',
  parse: (value) => parseBroker('redis', value) as RedisTarget['redis'],
  jsonSchema: objectOf(
    {
      connection: connection('redis'),
      stream: brokerName,
      maxLen: { type: 'integer', description: 'trim with MAXLEN ~ n (1 to 1e9)' },
      idTemplate: ID_TEMPLATE_JSON_SCHEMA,
    },
    ['connection', 'stream'],
  ),
};

export const natsShape: TargetShape<'nats', NatsTarget['nats']> = {
  kind: 'nats',
  parse: (value) => parseBroker('nats', value) as NatsTarget['nats'],
  jsonSchema: objectOf(
    { connection: connection('nats'), subject: brokerName, idTemplate: ID_TEMPLATE_JSON_SCHEMA },
    ['connection', 'subject'],
  ),
};

export const amqpShape: TargetShape<'amqp', AmqpTarget['amqp']> = {
  kind: 'amqp',
  parse: (value) => parseBroker('amqp', value) as AmqpTarget['amqp'],
  jsonSchema: objectOf(
    {
      connection: connection('amqp'),
      exchange: { ...brokerName, description: 'default: the default exchange' },
      routingKey: brokerName,
      idTemplate: ID_TEMPLATE_JSON_SCHEMA,
    },
    ['connection', 'routingKey'],
  ),
};
