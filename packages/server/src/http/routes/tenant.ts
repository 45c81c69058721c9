// /v1/tenant: the authenticated tenant's name, quotas and webhook signing secret, and the rotation of that
// secret. After a rotation the previous secret stays in use (requests carry both signatures) for the grace
// period; a second rotation within it drops the oldest secret at once.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PunctualError, generateWebhookSecret, type Clock, type TenantStore } from 'punctual';
import * as s from '../schemas.js';
import { tenantView } from '../views.js';

export interface TenantRouteDeps {
  tenants: TenantStore;
  clock: Pick<Clock, 'now'>;
  webhookSecretGraceMs: number;
}

export const tenantRoutes: FastifyPluginAsyncZod<TenantRouteDeps> = async (app, deps) => {
  const tags = ['tenant'];

  app.get(
    '/tenant',
    {
      schema: {
        tags,
        summary: "This tenant's name, quotas and webhook signing secret",
        response: { 200: s.tenant, ...s.errors() },
      },
    },
    async (request) => tenantView(request.tenant, deps.clock.now()),
  );

  app.post(
    '/tenant/webhook-secret/rotate',
    {
      schema: {
        tags,
        summary: 'Replace the webhook signing secret',
        description:
          'Webhook requests carry signatures with both the new and the previous secret until ' +
          'previousSecretExpiresAt (PUNCTUAL_WEBHOOK_SECRET_GRACE after the rotation).',
        body: s.emptyBody,
        response: { 200: s.tenant, ...s.errors() },
      },
    },
    async (request) => {
      const now = deps.clock.now();
      const current = request.tenant;
      const updated = await deps.tenants.updateTenant(
        current.id,
        {
          webhookSecret: generateWebhookSecret(),
          previousWebhookSecret: current.webhookSecret,
          previousSecretUntil: now + deps.webhookSecretGraceMs,
        },
        now,
      );
      if (!updated)
        throw new PunctualError('TENANT_NOT_FOUND', `no tenant "${current.id}"`, { id: current.id });
      request.log.info(
        { previousSecretUntil: new Date(now + deps.webhookSecretGraceMs).toISOString() },
        'webhook secret rotated',
      );
      return tenantView(updated, now);
    },
  );
};
