// Per-tenant request rate limiting: a token bucket per tenant, in this process's memory, refilled at the
// tenant's requestsPerSecond (or the service default) with a burst of one second's worth. An empty bucket
// answers 429 RATE_LIMITED with Retry-After. It never reads the system clock (the clock is injected) and it
// limits only authenticated tenants, never anonymous traffic by address.

import type { FastifyRequest } from 'fastify';
import type { Clock } from 'punctual';
import { HttpError } from './errors.js';

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept before full ones (idle tenants) are forgotten. */
const PRUNE_AT = 10_000;

export class RateLimiter {
  readonly #buckets = new Map<string, Bucket>();

  constructor(private readonly clock: Pick<Clock, 'now'>) {}

  /** Takes one token for `id` at `perSecond`; returns 0 when allowed, else the milliseconds until a token. */
  take(id: string, perSecond: number): number {
    const now = this.clock.now();
    const capacity = Math.max(1, perSecond);
    let b = this.#buckets.get(id);
    if (!b) {
      if (this.#buckets.size >= PRUNE_AT) this.#prune(now, capacity);
      b = { tokens: capacity, at: now };
      this.#buckets.set(id, b);
    }
    b.tokens = Math.min(capacity, b.tokens + (Math.max(0, now - b.at) * perSecond) / 1000);
    b.at = now;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - b.tokens) * 1000) / perSecond);
  }

  #prune(now: number, capacity: number): void {
    for (const [id, b] of this.#buckets) {
      if (now - b.at > 60_000 || b.tokens >= capacity) this.#buckets.delete(id);
    }
  }
}

/** The onRequest hook of the /v1 scope; runs after authentication. */
export function rateLimit(limiter: RateLimiter, defaultPerSecond: number) {
  return async (request: FastifyRequest): Promise<void> => {
    const perSecond = request.tenant.quotas.requestsPerSecond ?? defaultPerSecond;
    const waitMs = limiter.take(request.tenant.id, perSecond);
    if (waitMs > 0) {
      throw new HttpError(
        429,
        'RATE_LIMITED',
        `more than ${perSecond} requests per second for this tenant`,
        { limit: perSecond, retryAfterMs: waitMs },
        { 'retry-after': String(Math.ceil(waitMs / 1000)) },
      );
    }
  };
}
