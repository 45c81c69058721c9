// The shape of a webhook target, `{ "webhook": { url, method?, headers?, timeoutMs?, idTemplate? } }`: its
// validation and JSON Schema. Whether the host's address may be reached is the webhook driver's check at save
// time. Pure: it must never perform I/O (the domain imports it).

import { ID_TEMPLATE_JSON_SCHEMA, parseIdTemplate } from '../../domain/message-id.js';
import { isPlainObject, shapeInvalid, type TargetShape } from '../target-shape.js';

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

const invalid = (field: string, why: string) => shapeInvalid('webhook', field, why);

/**
 * Validates a webhook target's shape: an absolute http(s) URL without credentials (at most 2048 characters),
 * POST, PUT or PATCH, at most 20 headers with token names, string values and no reserved name, and a
 * timeout of 100 ms to 60 s. Whether the host's address is allowed is the webhook driver's check.
 */
function parseWebhook(value: unknown): WebhookTarget['webhook'] {
  if (!isPlainObject(value)) {
    throw invalid('', 'must be an object such as { "url": "https://example.com/hook" }');
  }
  const v = value;
  for (const k of Object.keys(v)) {
    if (!WEBHOOK_FIELDS.includes(k))
      throw invalid(k, `is not a webhook field (${WEBHOOK_FIELDS.join(', ')})`);
  }
  if (typeof v.url !== 'string' || v.url.length === 0) throw invalid('url', 'must be a URL');
  if (v.url.length > 2048) throw invalid('url', 'must be at most 2048 characters');
  let url: URL;
  try {
    url = new URL(v.url);
  } catch {
    throw invalid('url', 'must be an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('url', 'must use http or https');
  if (url.username !== '' || url.password !== '') {
    throw invalid('url', 'must not carry credentials (use headers instead)');
  }
  if (url.hostname === '') throw invalid('url', 'must name a host');
  const out: WebhookTarget['webhook'] = { url: v.url };
  if (v.method !== undefined) {
    const m = typeof v.method === 'string' ? v.method.toUpperCase() : '';
    if (!(WEBHOOK_METHODS as readonly string[]).includes(m)) {
      throw invalid('method', `must be one of ${WEBHOOK_METHODS.join(', ')}`);
    }
    out.method = m;
  }
  if (v.headers !== undefined) out.headers = parseHeaders(v.headers);
  if (v.timeoutMs !== undefined) {
    const t = v.timeoutMs;
    if (typeof t !== 'number' || !Number.isInteger(t) || t < 100 || t > 60_000) {
      throw invalid('timeoutMs', 'must be an integer between 100 and 60000');
    }
    out.timeoutMs = t;
  }
  if (v.idTemplate !== undefined) out.idTemplate = parseIdTemplate(v.idTemplate, 'target.webhook.idTemplate');
  return out;
}

function parseHeaders(value: unknown): Record<string, string> {
  if (!isPlainObject(value)) {
    throw invalid('headers', 'must be an object of header names to string values');
  }
  const entries = Object.entries(value);
  if (entries.length > 20) throw invalid('headers', 'must have at most 20 entries');
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, val] of entries) {
    const lower = name.toLowerCase();
    if (!TOKEN.test(name)) throw invalid(`headers.${name}`, 'is not a valid header name');
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('webhook-')) {
      throw invalid(`headers.${name}`, 'is reserved: the webhook driver sets it');
    }
    if (seen.has(lower)) throw invalid(`headers.${name}`, 'is given twice (header names ignore case)');
    seen.add(lower);
    if (typeof val !== 'string') throw invalid(`headers.${name}`, 'must be a string');
    if (val.length > 4096 || !HEADER_VALUE.test(val)) {
      throw invalid(`headers.${name}`, 'must be at most 4096 characters of visible text (no line breaks)');
    }
    headers[name] = val;
  }
  return headers;
}

export const webhookShape: TargetShape<'webhook', WebhookTarget['webhook']> = {
  kind: 'webhook',
  parse: parseWebhook,
  jsonSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', minLength: 1, maxLength: 2048 },
      method: { type: 'string', enum: [...WEBHOOK_METHODS] },
      headers: {
        type: 'object',
        propertyNames: { type: 'string', maxLength: 256 },
        additionalProperties: { type: 'string', maxLength: 4096 },
      },
      timeoutMs: { type: 'integer' },
      idTemplate: ID_TEMPLATE_JSON_SCHEMA,
    },
    required: ['url'],
    additionalProperties: false,
  },
};
