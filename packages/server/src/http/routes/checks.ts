// /v1/checks and /v1/heartbeats: the tenant's free-standing checks by name (a heartbeat must arrive at least
// every `every`): list, read, create or replace, delete; and `POST /v1/heartbeats/{name}`, which records one
// (and resolves the check's open alert). Bodies are checked by the library (CHECK_INVALID); a heartbeat for
// a check that does not exist is refused (CHECK_NOT_FOUND) and records nothing.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PunctualError, type AlertStore, type Clock } from 'punctual';
import { z } from 'zod';
import { checkView } from '../alert-views.js';
import * as s from '../schemas.js';

export interface CheckRouteDeps {
  store: AlertStore;
  clock: Pick<Clock, 'now'>;
  /** Tells the engine alerting state changed (a check armed, an alert resolved). */
  changed: () => void;
}

const notFound = (name: string): PunctualError =>
  new PunctualError('CHECK_NOT_FOUND', `no check "${name}"`, { name });

export const checkRoutes: FastifyPluginAsyncZod<CheckRouteDeps> = async (app, deps) => {
  const tags = ['alerts'];

  app.get(
    '/checks',
    { schema: { tags, summary: 'List checks', response: { 200: s.checkList, ...s.errors() } } },
    async (request) => ({ items: (await deps.store.listChecks(request.tenant.id)).map(checkView) }),
  );

  app.get(
    '/checks/:name',
    {
      schema: {
        tags,
        summary: 'One check',
        params: s.alertNameParams,
        response: { 200: s.check, ...s.errors(404) },
      },
    },
    async (request) => {
      const { name } = request.params;
      const c = await deps.store.getCheck(request.tenant.id, name);
      if (!c) throw notFound(name);
      return checkView(c);
    },
  );

  app.put(
    '/checks/:name',
    {
      schema: {
        tags,
        summary: 'Create or replace a check',
        description:
          'A heartbeat check expects its first heartbeat within `every` of its creation; a replaced one is ' +
          're-armed from its last heartbeat. 201 when new, 200 when replaced.',
        params: s.alertNameParams,
        body: s.checkBody,
        response: { 200: s.check, 201: s.check, ...s.errors() },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      const { check, created } = await deps.store.putCheck(
        request.tenant.id,
        { name, ...request.body },
        deps.clock.now(),
      );
      deps.changed();
      return reply
        .code(created ? 201 : 200)
        .header('location', `/v1/checks/${encodeURIComponent(name)}`)
        .send(checkView(check));
    },
  );

  app.delete(
    '/checks/:name',
    {
      schema: {
        tags,
        summary: 'Delete a check',
        description: 'Its open alert is resolved.',
        params: s.alertNameParams,
        response: { 204: z.undefined(), ...s.errors(404) },
      },
    },
    async (request, reply) => {
      const { name } = request.params;
      if (!(await deps.store.deleteCheck(request.tenant.id, name, deps.clock.now()))) throw notFound(name);
      deps.changed();
      return reply.code(204).send();
    },
  );

  app.post(
    '/heartbeats/:name',
    {
      schema: {
        tags,
        summary: 'Record a heartbeat',
        description:
          'Re-arms the check for `every` from now and resolves its open heartbeat_missed alert. No body.',
        params: s.alertNameParams,
        body: s.emptyBody,
        response: { 200: s.check, ...s.errors(404) },
      },
    },
    async (request) => {
      const { name } = request.params;
      const c = await deps.store.recordHeartbeat(request.tenant.id, name, deps.clock.now());
      if (!c) throw notFound(name);
      deps.changed();
      return checkView(c);
    },
  );
};
