// Where a run is delivered. A target is an object with exactly one key naming its kind. This module owns
// the shape and its validation (broker targets: the shape only; connection names and destination rules are
// the broker drivers' check); delivery lives in src/targets/. It must never perform I/O.

import { PunctualError } from '../errors.js';
import { parseIdTemplate } from './message-id.js';

export interface HandlerTarget {
  handler: string;
}
export interface WebhookTarget {
  webhook: {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    timeoutMs?: number;
    /** The message id (`webhook-id`, body `id`) as a template (message-id.ts); default: the occurrence id. */
    idTemplate?: string;
  };
}
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
/** Tenant JavaScript run in the sandbox: a module whose default export is called with `ctx`. */
export interface ScriptTarget {
  script: { source: string; timeoutMs?: number; memoryMb?: number };
}
export type Target = HandlerTarget | WebhookTarget | BrokerTarget | ScriptTarget;
/** Every target kind, in the order docs and messages list them: the one list the service and UI derive from. */
export const TARGET_KINDS = ['handler', 'webhook', 'redis', 'nats', 'amqp', 'script'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

const KINDS: readonly TargetKind[] = TARGET_KINDS;

export function targetKind(t: Target): TargetKind {
  return Object.keys(t)[0] as TargetKind;
}

/** Validates the shape of a target (not whether a handler exists: the scheduler checks that). */
export function parseTarget(input: unknown): Target {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new PunctualError('SCHEDULE_INVALID', 'target must be an object such as { "handler": "name" }', {
      field: 'target',
    });
  }
  const keys = Object.keys(input);
  const kind = keys[0] as TargetKind;
  if (keys.length !== 1 || !KINDS.includes(kind)) {
    throw new PunctualError('SCHEDULE_INVALID', `target must have exactly one of: ${KINDS.join(', ')}`, {
      field: 'target',
    });
  }
  const value = (input as Record<string, unknown>)[kind];
  if (kind === 'handler') {
    if (typeof value !== 'string' || value.length === 0 || value.length > 200) {
      throw new PunctualError('SCHEDULE_INVALID', 'target.handler must be a non-empty name', {
        field: 'target.handler',
      });
    }
    return { handler: value };
  }
  if (kind === 'redis' || kind === 'nats' || kind === 'amqp') return parseBroker(kind, value);
  if (kind === 'script') return { script: parseScript(value) };
  return { webhook: parseWebhook(value) };
}

export const WEBHOOK_METHODS = ['POST', 'PUT', 'PATCH'] as const;
/** Headers a webhook target may not set: the driver owns framing, the host and the Standard Webhooks headers. */
const RESERVED_HEADERS = new Set([
  'content-length',
  'host',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const WEBHOOK_FIELDS = ['url', 'method', 'headers', 'timeoutMs', 'idTemplate'];

function webhookInvalid(field: string, why: string): PunctualError {
  return new PunctualError('SCHEDULE_INVALID', `target.webhook${field ? `.${field}` : ''} ${why}`, {
    field: `target.webhook${field ? `.${field}` : ''}`,
  });
}

/**
 * Validates a webhook target's shape: an absolute http(s) URL without credentials (at most 2048 characters),
 * POST, PUT or PATCH, at most 20 headers with token names, string values and no reserved name, and a
 * timeout of 100 ms to 60 s. Whether the host's address is allowed is the webhook driver's check.
 */
function parseWebhook(value: unknown): WebhookTarget['webhook'] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw webhookInvalid('', 'must be an object such as { "url": "https://example.com/hook" }');
  }
  const v = value as Record<string, unknown>;
  for (const k of Object.keys(v)) {
    if (!WEBHOOK_FIELDS.includes(k))
      throw webhookInvalid(k, `is not a webhook field (${WEBHOOK_FIELDS.join(', ')})`);
  }
  if (typeof v.url !== 'string' || v.url.length === 0) throw webhookInvalid('url', 'must be a URL');
  if (v.url.length > 2048) throw webhookInvalid('url', 'must be at most 2048 characters');
  let url: URL;
  try {
    url = new URL(v.url);
  } catch {
    throw webhookInvalid('url', 'must be an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw webhookInvalid('url', 'must use http or https');
  if (url.username !== '' || url.password !== '') {
    throw webhookInvalid('url', 'must not carry credentials (use headers instead)');
  }
  if (url.hostname === '') throw webhookInvalid('url', 'must name a host');
  const out: WebhookTarget['webhook'] = { url: v.url };
  if (v.method !== undefined) {
    const m = typeof v.method === 'string' ? v.method.toUpperCase() : '';
    if (!(WEBHOOK_METHODS as readonly string[]).includes(m)) {
      throw webhookInvalid('method', `must be one of ${WEBHOOK_METHODS.join(', ')}`);
    }
    out.method = m;
  }
  if (v.headers !== undefined) {
    if (typeof v.headers !== 'object' || v.headers === null || Array.isArray(v.headers)) {
      throw webhookInvalid('headers', 'must be an object of header names to string values');
    }
    const entries = Object.entries(v.headers as Record<string, unknown>);
    if (entries.length > 20) throw webhookInvalid('headers', 'must have at most 20 entries');
    const headers: Record<string, string> = {};
    const seen = new Set<string>();
    for (const [name, val] of entries) {
      const lower = name.toLowerCase();
      if (!TOKEN.test(name)) throw webhookInvalid(`headers.${name}`, 'is not a valid header name');
      if (RESERVED_HEADERS.has(lower) || lower.startsWith('webhook-')) {
        throw webhookInvalid(`headers.${name}`, 'is reserved: the webhook driver sets it');
      }
      if (seen.has(lower))
        throw webhookInvalid(`headers.${name}`, 'is given twice (header names ignore case)');
      seen.add(lower);
      if (typeof val !== 'string') throw webhookInvalid(`headers.${name}`, 'must be a string');
      if (val.length > 4096 || !HEADER_VALUE.test(val)) {
        throw webhookInvalid(
          `headers.${name}`,
          'must be at most 4096 characters of visible text (no line breaks)',
        );
      }
      headers[name] = val;
    }
    out.headers = headers;
  }
  if (v.timeoutMs !== undefined) {
    const t = v.timeoutMs;
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 100 || t > 60_000) {
      throw webhookInvalid('timeoutMs', 'must be an integer between 100 and 60000');
    }
    out.timeoutMs = t;
  }
  if (v.idTemplate !== undefined) out.idTemplate = parseIdTemplate(v.idTemplate, 'target.webhook.idTemplate');
  return out;
}

/** The fields of each broker target, and whether each is required. */
const BROKER_FIELDS = {
  redis: { connection: true, stream: true, maxLen: false, idTemplate: false },
  nats: { connection: true, subject: true, idTemplate: false },
  amqp: { connection: true, exchange: false, routingKey: true, idTemplate: false },
} as const;
const BROKER_NAME_MAX = 200;

function brokerInvalid(kind: string, field: string, why: string): PunctualError {
  const path = `target.${kind}${field ? `.${field}` : ''}`;
  return new PunctualError('SCHEDULE_INVALID', `${path} ${why}`, { field: path });
}

/**
 * Validates a broker target's shape: the connection name and destination names are non-empty strings of at
 * most 200 characters, `maxLen` a whole number from 1 to 1e9, no unknown field. Whether the connection
 * exists and the destination is allowed under its prefix is the broker driver's check.
 */
function parseBroker(kind: 'redis' | 'nats' | 'amqp', value: unknown): BrokerTarget {
  const example = {
    redis: '{ "connection": "events", "stream": "orders" }',
    nats: '{ "connection": "events", "subject": "orders.created" }',
    amqp: '{ "connection": "events", "routingKey": "orders" }',
  }[kind];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw brokerInvalid(kind, '', `must be an object such as ${example}`);
  }
  const fields: Record<string, boolean> = BROKER_FIELDS[kind];
  const v = value as Record<string, unknown>;
  for (const k of Object.keys(v)) {
    if (!(k in fields))
      throw brokerInvalid(kind, k, `is not a ${kind} field (${Object.keys(fields).join(', ')})`);
  }
  const out: Record<string, string | number> = {};
  for (const [name, required] of Object.entries(fields)) {
    const x = v[name];
    if (x === undefined) {
      if (required) throw brokerInvalid(kind, name, 'is required');
      continue;
    }
    if (name === 'maxLen') {
      if (typeof x !== 'number' || !Number.isInteger(x) || x < 1 || x > 1_000_000_000) {
        throw brokerInvalid(kind, name, 'must be an integer between 1 and 1000000000');
      }
      out[name] = x;
      continue;
    }
    if (name === 'idTemplate') {
      out[name] = parseIdTemplate(x, `target.${kind}.${name}`);
      continue;
    }
    if (typeof x !== 'string' || x.length === 0)
      throw brokerInvalid(kind, name, 'must be a non-empty string');
    if (x.length > BROKER_NAME_MAX) {
      throw brokerInvalid(kind, name, `must be at most ${BROKER_NAME_MAX} characters`);
    }
    out[name] = x;
  }
  return { [kind]: out } as unknown as BrokerTarget;
}

const SCRIPT_FIELDS = ['source', 'timeoutMs', 'memoryMb'];
/** A sanity bound on the source's length; the script driver enforces the operator's (smaller) byte limit. */
const SCRIPT_SOURCE_MAX_CHARS = 1_048_576;

function scriptInvalid(field: string, why: string): PunctualError {
  const path = `target.script${field ? `.${field}` : ''}`;
  return new PunctualError('SCHEDULE_INVALID', `${path} ${why}`, { field: path });
}

/**
 * Validates a script target's shape: a non-empty source string, and whole positive `timeoutMs` and
 * `memoryMb` when given. Whether they are within the operator's limits, and whether the source compiles,
 * is the script driver's check.
 */
function parseScript(value: unknown): ScriptTarget['script'] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw scriptInvalid('', 'must be an object such as { "source": "export default (ctx) => ctx.payload" }');
  }
  const v = value as Record<string, unknown>;
  for (const k of Object.keys(v)) {
    if (!SCRIPT_FIELDS.includes(k))
      throw scriptInvalid(k, `is not a script field (${SCRIPT_FIELDS.join(', ')})`);
  }
  if (typeof v.source !== 'string' || v.source.trim() === '') {
    throw scriptInvalid('source', 'must be a non-empty string of JavaScript');
  }
  if (v.source.length > SCRIPT_SOURCE_MAX_CHARS) {
    throw scriptInvalid('source', `must be at most ${SCRIPT_SOURCE_MAX_CHARS} characters`);
  }
  const out: ScriptTarget['script'] = { source: v.source };
  for (const field of ['timeoutMs', 'memoryMb'] as const) {
    const x = v[field];
    if (x === undefined) continue;
    if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < 1) {
      throw scriptInvalid(field, 'must be a whole number >= 1');
    }
    out[field] = x;
  }
  return out;
}
