// Tenant quotas checked before a write: maxSchedules on a put that would create a schedule, maxRunsPerMinute
// on trigger and backfill (runs started in the last minute plus the runs asked for). A refusal is 429
// QUOTA_EXCEEDED naming the quota, and nothing is written. Checks are advisory under concurrency: two
// simultaneous creates may both pass the last free slot (documented in docs/api.md).

import { compileSpec, type Schedule, type Tenant, type TenantStore } from 'punctual';
import { HttpError } from './errors.js';

function exceeded(quota: string, limit: number, current: number, asked: number): HttpError {
  return new HttpError(429, 'QUOTA_EXCEEDED', `the tenant's ${quota} quota (${limit}) would be exceeded`, {
    quota,
    limit,
    current,
    asked,
  });
}

/** Refuses creating `asked` (default one) more schedules beyond maxSchedules. */
export async function checkScheduleQuota(tenants: TenantStore, tenant: Tenant, asked = 1): Promise<void> {
  const limit = tenant.quotas.maxSchedules;
  if (limit === null || asked === 0) return;
  const current = await tenants.countSchedules(tenant.id);
  if (current + asked > limit) throw exceeded('maxSchedules', limit, current, asked);
}

/** Refuses `asked` more runs when the runs started in the last minute plus them exceed maxRunsPerMinute. */
export async function checkRunQuota(
  tenants: TenantStore,
  tenant: Tenant,
  asked: number,
  now: number,
): Promise<void> {
  const limit = tenant.quotas.maxRunsPerMinute;
  if (limit === null || asked === 0) return;
  const current = await tenants.countRunsStartedSince(tenant.id, now - 60_000);
  if (current + asked > limit) throw exceeded('maxRunsPerMinute', limit, current, asked);
}

/**
 * How many runs a backfill of [from, to) would ask for, counting no further than `cap` (enough to decide a
 * quota). Mirrors TenantApi.backfill's walk of the spec; ranges it refuses count as 0.
 */
export function backfillSize(s: Schedule, from: number, to: number, now: number, cap: number): number {
  const end = Math.min(to, now);
  if (!(from < end)) return 0;
  const spec = compileSpec(s.spec, {
    tz: s.tz,
    now,
    anchor: s.startAt ?? s.createdAt,
    startAt: s.startAt,
    endAt: s.endAt,
    dst: s.dst,
  });
  let n = 0;
  for (let t = spec.nextAfter(from - 1); t !== null && t < end && n < cap; t = spec.nextAfter(t)) n++;
  return n;
}
