// /v1/alert-channels: the tenant's alert channels by name (webhook, slack, pagerduty): list, read, create or
// replace, delete. A channel URL on a loopback, private or otherwise special address literal is refused with
// TARGET_ADDRESS_REFUSED exactly as a webhook target's is (host names are checked when a delivery connects);
// bodies are checked by the library (ALERT_CHANNEL_INVALID). Nothing is written on a refusal.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PunctualError, isPunctualError, type AddressGuard, type AlertStore, type Clock } from 'punctual';
import { alertChannelView } from '../alert-views.js';
import { z } from 'zod';
import * as s from '../schemas.js';

export interface AlertChannelRouteDeps {
  store: AlertStore;
  clock: Pick<Clock, 'now'>;
  guard: AddressGuard;
  /** Tells the engine alerting state changed (sends due deliveries now). */
  changed: () => void;
}

const notFound = (name: string): PunctualError =>
  new PunctualError('ALERT_CHANNEL_NOT_FOUND', `no alert channel "${name}"`, { name });

/** Refuses a URL whose host is an address literal the guard refuses; the error names the field. */
function checkAddress(guard: AddressGuard, url: string): void {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return; // not a URL: the library refuses it with ALERT_CHANNEL_INVALID
  }
  try {
    guard.checkLiteral(host);
  } catch (e) {
    if (isPunctualError(e, 'TARGET_ADDRESS_REFUSED'))
      throw new PunctualError(e.code, e.message, { field: 'url', ...e.details });
    throw e;
  }
}

export const alertChannelRoutes: FastifyPluginAsyncZod<AlertChannelRouteDeps> = async (app, deps) => {
  const tags = ['alerts'];

  app.get(
    '/alert-channels',
    {
      schema: { tags, summary: 'List alert channels', response: { 200: s.alertChannelList, ...s.errors() } },
    },
    async (request) => ({
      items: (await deps.store.listAlertChannels(request.tenant.id)).map(alertChannelView),
    }),
  );

  app.get(
    '/alert-channels/:name',
    {
      schema: {
        tags,
        summary: 'One alert channel',
        params: s.alertNameParams,
        response: { 200: s.alertChannel, ...s.errors(404) },
      },
    },
    async (request) => {
      const { name } = request.params;
      const c = await deps.store.getAlertChannel(request.tenant.id, name);
      if (!c) throw notFound(name);
      return alertChannelView(c);
    },
  );

  app.put(
    '/alert-channels/:name',
    {
      schema: {
        tags,
        summary: 'Create or replace an alert channel',
        description:
          'Every alert transition (opened, resolved) from now on is delivered to it. 201 when new, 200 when ' +
          'replaced. Bodies per kind: docs/alerts.md.',
        params: s.alertNameParams,
        body: s.alertChannelBody,
        response: { 200: s.alertChannel, 201: s.alertChannel, ...s.errors() },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      checkAddress(deps.guard, request.body.url);
      const { channel, created } = await deps.store.putAlertChannel(
        request.tenant.id,
        { name, ...request.body },
        deps.clock.now(),
      );
      deps.changed();
      return reply
        .code(created ? 201 : 200)
        .header('location', `/v1/alert-channels/${encodeURIComponent(name)}`)
        .send(alertChannelView(channel));
    },
  );

  app.delete(
    '/alert-channels/:name',
    {
      schema: {
        tags,
        summary: 'Delete an alert channel',
        description: 'Its deliveries not yet made are given up.',
        params: s.alertNameParams,
        response: { 204: z.undefined(), ...s.errors(404) },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      if (!(await deps.store.deleteAlertChannel(request.tenant.id, name))) throw notFound(name);
      return reply.code(204).send();
    },
  );
};
