// The input rules of the tenant key-value store, enforced alike by every store before it reads or writes:
// key and prefix shape, JSON values and their size, page sizes, and the opaque list cursor. Pure checks that
// throw KV_INVALID, KV_QUOTA_EXCEEDED or CURSOR_INVALID; this module must never touch a database or a clock.

import type { Json } from '../domain/json.js';
import { JSON_MAX_DEPTH, jsonProblem } from '../domain/json-limits.js';
import { PunctualError } from '../errors.js';
import type { KvLimits } from './kv-store.js';

export const KV_KEY_MAX_CHARS = 256;
export const KV_LIST_MAX = 1000;
/** Deepest nesting of arrays and objects a value may have (the same as payloads and results). */
export const KV_VALUE_MAX_DEPTH = JSON_MAX_DEPTH;

// C0 and C1 control characters, DEL, and lone UTF-16 surrogates (not storable as UTF-8).
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function invalid(message: string, details: Record<string, unknown>): never {
  throw new PunctualError('KV_INVALID', message, details);
}

function checkText(field: 'key' | 'prefix', text: unknown, min: number): asserts text is string {
  if (typeof text !== 'string') invalid(`a ${field} must be a string`, { field });
  if (text.length < min || text.length > KV_KEY_MAX_CHARS) {
    invalid(`a ${field} must be ${min} to ${KV_KEY_MAX_CHARS} characters long`, {
      field,
      length: text.length,
    });
  }
  if (FORBIDDEN.test(text)) {
    invalid(`a ${field} must not contain control characters or unpaired surrogates`, { field });
  }
}

/** A key: 1 to 256 characters (UTF-16 units), no control character, no unpaired surrogate. */
export function checkKvKey(key: unknown): asserts key is string {
  checkText('key', key, 1);
}

/** A list prefix: like a key, but may be empty. */
export function checkKvPrefix(prefix: unknown): asserts prefix is string {
  checkText('prefix', prefix, 0);
}

export function checkKvListLimit(limit: unknown): asserts limit is number {
  if (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > KV_LIST_MAX) {
    invalid(`limit must be a whole number from 1 to ${KV_LIST_MAX}`, { field: 'limit' });
  }
}

export function checkKvLimits(limits: KvLimits): void {
  for (const field of ['maxKeys', 'maxValueBytes'] as const) {
    const v = limits[field];
    if (!Number.isSafeInteger(v) || v < 0)
      throw new TypeError(`kv limits: ${field} must be a whole number >= 0`);
  }
}

/**
 * Checks a value and returns its JSON text: KV_INVALID when it is not plain JSON (undefined, functions,
 * non-finite numbers, cycles, class instances, nesting deeper than 64), KV_QUOTA_EXCEEDED when the text is
 * larger than `maxValueBytes` UTF-8 bytes.
 */
export function encodeKvValue(value: unknown, maxValueBytes: number): string {
  const problem = jsonProblem(value, { maxDepth: KV_VALUE_MAX_DEPTH });
  if (problem?.kind === 'depth') {
    invalid(`a value must be nested at most ${KV_VALUE_MAX_DEPTH} levels deep`, { field: 'value' });
  }
  if (problem !== null) invalid(`a value must be JSON: ${problem.message}`, { field: 'value' });
  const text = JSON.stringify(value);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxValueBytes) {
    throw new PunctualError(
      'KV_QUOTA_EXCEEDED',
      `the value is ${bytes} bytes as JSON; the limit is ${maxValueBytes}`,
      { field: 'value', bytes, limit: maxValueBytes },
    );
  }
  return text;
}

export function keyQuotaExceeded(maxKeys: number): PunctualError {
  return new PunctualError(
    'KV_QUOTA_EXCEEDED',
    `the tenant already holds ${maxKeys} keys, the most it may have; delete some first`,
    { field: 'key', limit: maxKeys },
  );
}

/** The cursor of a key listing: the last key of the page, opaque to callers. */
export function encodeKvCursor(lastKey: string): string {
  return Buffer.from(JSON.stringify(['kv', lastKey])).toString('base64url');
}

/** The last key a cursor stands for; CURSOR_INVALID when it is not one encodeKvCursor made. */
export function decodeKvCursor(cursor: string): string {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    v = undefined;
  }
  if (!Array.isArray(v) || v.length !== 2 || v[0] !== 'kv' || typeof v[1] !== 'string') {
    throw new PunctualError('CURSOR_INVALID', 'the page cursor is not one this listing returned', { cursor });
  }
  return v[1];
}

/** Parses stored JSON text back into a value. */
export function decodeKvValue(text: string): Json {
  return JSON.parse(text) as Json;
}
