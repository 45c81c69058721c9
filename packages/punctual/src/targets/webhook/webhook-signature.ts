// Webhook signatures per the Standard Webhooks specification: `whsec_` secrets, HMAC-SHA256 over
// `${id}.${timestamp}.${body}`, `v1,<base64>` signatures (several, space-separated, during a rotation).
// It owns signing and constant-time verification; it must never log or return a secret.

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new signing secret: `whsec_` followed by the base64 of 24 random bytes. */
export function generateWebhookSecret(): string {
  return PREFIX + randomBytes(24).toString('base64');
}

function keyOf(secret: string): Buffer {
  const encoded = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('the webhook secret is empty or not base64');
  return key;
}

/**
 * One signature, `v1,<base64 HMAC-SHA256>`, of `${id}.${timestamp}.${body}` with the key a `whsec_` secret
 * encodes. `timestamp` is in seconds since the epoch.
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  return `v1,${mac(secret, id, timestamp, body).toString('base64')}`;
}

function mac(secret: string, id: string, timestamp: number, body: string | Buffer): Buffer {
  const h = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.`, 'utf8');
  return (typeof body === 'string' ? h.update(body, 'utf8') : h.update(body)).digest();
}

/** The `webhook-signature` header value: one signature per secret, current first, separated by spaces. */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  return secrets.map((s) => signWebhook(s, id, timestamp, body)).join(' ');
}

export type WebhookHeaders =
  { get(name: string): string | null } | Record<string, string | readonly string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const rec = headers as Record<string, string | readonly string[] | undefined>;
  const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : rec[key];
  return Array.isArray(v) ? v.join(' ') : (v as string | undefined);
}

/**
 * Verifies a delivery as a receiver would: `webhook-id`, `webhook-timestamp` (within `toleranceSec`, default
 * 300, of `now`, default the system clock, in epoch ms) and at least one `v1` signature in
 * `webhook-signature` that matches one of the secrets. `body` must be the raw request body, byte for byte.
 * Comparisons are constant-time. Returns false for anything missing or malformed; never throws for input.
 */
export function verifyWebhook(
  secret: string | readonly string[],
  headers: WebhookHeaders,
  body: string | Buffer,
  opts: { toleranceSec?: number; now?: number | Date } = {},
): boolean {
  const id = header(headers, 'webhook-id');
  const ts = header(headers, 'webhook-timestamp');
  const sigs = header(headers, 'webhook-signature');
  if (!id || !ts || !sigs || !/^\d{1,15}$/.test(ts)) return false;
  const timestamp = Number(ts);
  const now =
    opts.now === undefined ? Date.now() : typeof opts.now === 'number' ? opts.now : opts.now.getTime();
  if (Math.abs(Math.floor(now / 1000) - timestamp) > (opts.toleranceSec ?? 300)) return false;
  const given = sigs
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'));
  let ok = false;
  for (const s of typeof secret === 'string' ? [secret] : secret) {
    let expected: Buffer;
    try {
      expected = mac(s, id, timestamp, body);
    } catch {
      continue;
    }
    // Check every candidate (no early exit) so timing does not reveal which one matched.
    for (const g of given) if (g.length === expected.length && timingSafeEqual(g, expected)) ok = true;
  }
  return ok;
}
