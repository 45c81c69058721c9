// The key-value part of the store contract: a small JSON store owned by each tenant, used by scripts
// (`ctx.kv`) and the `/v1/kv` API. Every method is scoped by a tenant id the caller fixes (never one taken
// from a key), is atomic, and takes `now` as a parameter. Stores validate input with kv-rules.ts.

import type { Json } from '../domain/json.js';
import type { Page } from './store.js';

export interface KvEntry {
  key: string;
  value: Json;
  updatedAt: number;
}

/** The quotas a write is checked against (the caller's policy: the store keeps no quota of its own). */
export interface KvLimits {
  /** Most keys the tenant may hold; a write of a new key beyond it is refused with KV_QUOTA_EXCEEDED. */
  maxKeys: number;
  /** Largest value, as UTF-8 bytes of its JSON text; a larger one is refused with KV_QUOTA_EXCEEDED. */
  maxValueBytes: number;
}

export interface KvListQuery {
  /** Only keys starting with this text (compared literally: no wildcard). */
  prefix?: string | undefined;
  /** Opaque cursor from a previous page of the same listing. */
  cursor?: string | undefined;
  /** Page size, 1 to 1000. */
  limit: number;
}

export interface KvStore {
  /** The value and when it was last written, or undefined for a key the tenant does not have. */
  kvGet(tenantId: string, key: string): Promise<{ value: Json; updatedAt: number } | undefined>;
  /**
   * Writes (inserts or replaces) a value. Throws KV_INVALID for a bad key or a value that is not JSON,
   * KV_QUOTA_EXCEEDED for a value over `maxValueBytes` or a new key beyond `maxKeys`.
   */
  kvSet(tenantId: string, key: string, value: Json, now: number, limits: KvLimits): Promise<void>;
  /** Deletes a key; false when the tenant had no such key. */
  kvDelete(tenantId: string, key: string): Promise<boolean>;
  /** The tenant's entries in key order (UTF-8 byte order), a page at a time. CURSOR_INVALID for a bad cursor. */
  kvList(tenantId: string, q: KvListQuery): Promise<Page<KvEntry>>;
}

/** True when a store implements the key-value contract. */
export function hasKv<S extends object>(store: S): store is S & KvStore {
  return 'kvGet' in store && typeof (store as Partial<KvStore>).kvGet === 'function';
}
