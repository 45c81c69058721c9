// The input rules of tenancy that every store enforces alike before it writes: the tenant id's shape, quota
// values, webhook secrets and states. Pure checks that throw TENANT_INVALID naming the field; this module
// must never touch a database or read a clock.

import { PunctualError } from '../errors.js';
import type { Tenant, TenantQuotas, TenantState } from './tenant-store.js';

/** A tenant id: lower-case letters, digits, `_` and `-`, starting with a letter or digit, at most 63 long. */
export const TENANT_ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;

const STATES: readonly TenantState[] = ['active', 'disabled'];

function invalid(field: string, message: string, value: unknown): never {
  throw new PunctualError('TENANT_INVALID', message, { field, value: value === undefined ? null : value });
}

export function checkTenantId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !TENANT_ID_PATTERN.test(id)) {
    invalid('id', `a tenant id must match ${String(TENANT_ID_PATTERN)}`, id);
  }
}

export function checkQuotas(q: unknown): asserts q is TenantQuotas {
  if (q === null || typeof q !== 'object') invalid('quotas', 'quotas must be an object', q);
  const quotas = q as Record<string, unknown>;
  for (const field of ['maxSchedules', 'maxRunsPerMinute'] as const) {
    const v = quotas[field];
    if (v !== null && !(Number.isSafeInteger(v) && (v as number) >= 0)) {
      invalid(`quotas.${field}`, `quotas.${field} must be a whole number >= 0, or null for unlimited`, v);
    }
  }
  const rps = quotas.requestsPerSecond;
  if (rps !== null && !(typeof rps === 'number' && Number.isFinite(rps) && rps > 0)) {
    invalid('quotas.requestsPerSecond', 'quotas.requestsPerSecond must be a number > 0, or null', rps);
  }
}

function checkSecret(field: string, v: unknown, nullable: boolean): void {
  if (nullable && v === null) return;
  if (typeof v !== 'string' || v === '') invalid(field, `${field} must be a non-empty string`, v);
}

/** Checks the fields a patch sets (undefined fields are left alone). */
export function checkTenantPatch(
  patch: Partial<
    Pick<Tenant, 'state' | 'quotas' | 'webhookSecret' | 'previousWebhookSecret' | 'previousSecretUntil'>
  >,
): void {
  if (patch.state !== undefined && !STATES.includes(patch.state)) {
    invalid('state', `state must be one of ${STATES.join(', ')}`, patch.state);
  }
  if (patch.quotas !== undefined) checkQuotas(patch.quotas);
  if (patch.webhookSecret !== undefined) checkSecret('webhookSecret', patch.webhookSecret, false);
  if (patch.previousWebhookSecret !== undefined) {
    checkSecret('previousWebhookSecret', patch.previousWebhookSecret, true);
  }
  const until = patch.previousSecretUntil;
  if (until !== undefined && until !== null && !Number.isSafeInteger(until)) {
    invalid('previousSecretUntil', 'previousSecretUntil must be epoch milliseconds, or null', until);
  }
}

/** Checks a new tenant: its id, quotas and webhook secret. */
export function checkNewTenant(t: { id: unknown; quotas: unknown; webhookSecret: unknown }): void {
  checkTenantId(t.id);
  checkQuotas(t.quotas);
  checkSecret('webhookSecret', t.webhookSecret, false);
}
