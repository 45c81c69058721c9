// First start: when the tenants table is empty, creates the tenant `default` (no quotas, a fresh webhook
// signing secret) and one API key for it, and returns that key so `punctual serve` can print it once. It
// must never create a second key on a later start, nor store or log the key itself.

import { DEFAULT_TENANT, generateWebhookSecret, isPunctualError, type TenantStore } from 'punctual';
import { issueApiKey } from './api-keys.js';

export const UNLIMITED = Object.freeze({
  maxSchedules: null,
  maxRunsPerMinute: null,
  requestsPerSecond: null,
});

/**
 * Creates `default` and its first key if no tenant exists yet. Returns the key, or null when tenants already
 * existed (or another instance bootstrapped at the same moment).
 */
export async function bootstrapTenants(
  tenants: TenantStore,
  now: number,
): Promise<{ tenantId: string; apiKey: string } | null> {
  if ((await tenants.listTenants()).length > 0) return null;
  try {
    await tenants.createTenant({
      id: DEFAULT_TENANT,
      quotas: { ...UNLIMITED },
      webhookSecret: generateWebhookSecret(),
      now,
    });
  } catch (e) {
    // Another instance on the same database created it first: that instance prints the key.
    if (isPunctualError(e) && (e.code as string) === 'TENANT_EXISTS') return null;
    throw e;
  }
  const { key } = await issueApiKey(tenants, DEFAULT_TENANT, { name: 'bootstrap', now });
  return { tenantId: DEFAULT_TENANT, apiKey: key };
}
