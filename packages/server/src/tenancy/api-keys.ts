// API keys: `pk_` followed by 32 base62 characters from the system's cryptographic random source. The service
// keeps only the SHA-256 hex of a key and its first 11 characters (to recognise it in listings). This module
// must never log, store or return a whole key except the one it just generated.

import { createHash, randomBytes } from 'node:crypto';
import type { TenantStore } from 'punctual';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BODY_LENGTH = 32;

/** What a well-formed key looks like; anything else is refused before any lookup. */
export const API_KEY_PATTERN = /^pk_[A-Za-z0-9]{32}$/;

/** Characters of a key shown in listings and logs (`pk_` and 8 more). */
export const API_KEY_PREFIX_LENGTH = 11;

/** A new key: `pk_` + 32 base62 characters (about 190 bits), drawn without modulo bias. */
export function generateApiKey(): string {
  let body = '';
  while (body.length < BODY_LENGTH) {
    for (const byte of randomBytes(BODY_LENGTH)) {
      // 248 = 4 * 62: bytes at or above it would favour the first letters, so they are drawn again.
      if (byte < 248 && body.length < BODY_LENGTH) body += ALPHABET[byte % 62];
    }
  }
  return `pk_${body}`;
}

/** The form a key is stored and looked up in: SHA-256, hex. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function apiKeyPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX_LENGTH);
}

/** Creates a key for the tenant, stores its hash and prefix, and returns the key: the only time it exists whole. */
export async function issueApiKey(
  tenants: Pick<TenantStore, 'createApiKey'>,
  tenantId: string,
  opts: { name: string | null; now: number },
): Promise<{ key: string; id: string }> {
  const key = generateApiKey();
  const stored = await tenants.createApiKey({
    tenantId,
    prefix: apiKeyPrefix(key),
    hash: hashApiKey(key),
    name: opts.name,
    now: opts.now,
  });
  return { key, id: stored.id };
}
