// Authentication of every /v1 request: `Authorization: Bearer pk_...` → SHA-256 → the tenant store. A key
// works only while it exists, is not revoked and its tenant is active; it is looked up on every request, so
// revoking or disabling takes effect at once. The request then carries its tenant and that tenant's
// TenantApi, and nothing else: a route can only ever reach the authenticated tenant's objects. The key's
// last use is recorded at most once a minute, beside the request: the request never waits for that write.

import type { FastifyRequest } from 'fastify';
import type { ApiKey, Clock, Scheduler, Tenant, TenantApi, TenantStore } from 'punctual';
import { API_KEY_PATTERN, apiKeyPrefix, hashApiKey } from '../tenancy/api-keys.js';
import { HttpError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated tenant (set on /v1 routes only). */
    tenant: Tenant;
    /** The authenticated tenant's schedules and runs (set on /v1 routes only). */
    api: TenantApi;
    /** Who the request's changes are recorded as made by: `apiKey:<id>`, with the key's name when it has one. */
    actor: string;
  }
}

const BEARER = /^Bearer +(\S{1,200})$/i;

/** A key's lastUsedAt is written again only once it is this old: a busy key costs one write a minute. */
export const KEY_TOUCH_INTERVAL_MS = 60_000;

function unauthorized(message: string): HttpError {
  return new HttpError(401, 'UNAUTHORIZED', message, {}, { 'www-authenticate': 'Bearer realm="punctual"' });
}

/** The key in an Authorization header, or undefined when the header is absent, repeated or malformed. */
export function bearerKey(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string' || header.length > 256) return undefined;
  const key = BEARER.exec(header.trim())?.[1];
  return key !== undefined && API_KEY_PATTERN.test(key) ? key : undefined;
}

/** How a revision names the API key that made a change. */
export function actorOf(key: Pick<ApiKey, 'id' | 'name'>): string {
  return key.name === null ? `apiKey:${key.id}` : `apiKey:${key.id} (${key.name})`;
}

/** The onRequest hook of the /v1 scope. */
export function authenticate(deps: {
  scheduler: Scheduler;
  tenants: TenantStore;
  clock: Pick<Clock, 'now'>;
}) {
  // Keys whose touch is under way here, so a burst of requests writes once.
  const touching = new Set<string>();

  /** Records the key's use without delaying the request; a failed write is logged, never thrown. */
  function touch(request: FastifyRequest, keyId: string, lastUsedAt: number | null): void {
    const now = deps.clock.now();
    if (touching.has(keyId) || (lastUsedAt !== null && now - lastUsedAt < KEY_TOUCH_INTERVAL_MS)) return;
    touching.add(keyId);
    let write: Promise<void>;
    try {
      write = deps.tenants.touchApiKey(keyId, now);
    } catch (e) {
      write = Promise.reject(e);
    }
    void write
      .catch((err: unknown) => request.log.warn({ err }, "could not record the API key's last use"))
      .finally(() => touching.delete(keyId));
  }

  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    if (header === undefined) throw unauthorized('send an API key: Authorization: Bearer pk_...');
    const key = bearerKey(header);
    if (key === undefined)
      throw unauthorized('the Authorization header must be "Bearer pk_" and 32 letters or digits');
    const found = await deps.tenants.findApiKey(hashApiKey(key));
    if (!found || found.key.revokedAt !== null || found.tenant.state !== 'active') {
      // One answer for unknown, revoked and disabled: the caller learns nothing about which.
      throw unauthorized('the API key is not valid');
    }
    request.tenant = found.tenant;
    request.api = deps.scheduler.tenant(found.tenant.id);
    request.actor = actorOf(found.key);
    request.log = request.log.child({ tenantId: found.tenant.id, apiKey: apiKeyPrefix(key) });
    touch(request, found.key.id, found.key.lastUsedAt);
  };
}
