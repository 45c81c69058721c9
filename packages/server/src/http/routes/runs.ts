// /v1/runs: list the tenant's runs with filters, read one run with its attempts, cancel one. Reads and the
// cancel go through the authenticated tenant's TenantApi: another tenant's run answers 404 like a missing one.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PunctualError } from 'punctual';
import type { PageCursors } from '../page-cursors.js';
import * as s from '../schemas.js';
import { attemptView, runView } from '../views.js';

export interface RunRouteDeps {
  cursors: PageCursors;
}

export const runRoutes: FastifyPluginAsyncZod<RunRouteDeps> = async (app, deps) => {
  const tags = ['runs'];

  app.get(
    '/runs',
    {
      schema: {
        tags,
        summary: 'List runs',
        description: 'Filter by state, schedule key and scheduledFor range [from, to); pages by cursor.',
        querystring: s.listRunsQuery,
        response: { 200: s.page(s.run), ...s.errors() },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await request.api.listRuns({
        scheduleKey: q.scheduleKey,
        state: q.state,
        from: q.from === undefined ? undefined : Date.parse(q.from),
        to: q.to === undefined ? undefined : Date.parse(q.to),
        cursor: deps.cursors.open('runs', request.tenant.id, q.cursor),
        limit: q.limit,
      });
      return {
        items: page.items.map(runView),
        nextCursor: deps.cursors.sign('runs', request.tenant.id, page.nextCursor),
      };
    },
  );

  app.get(
    '/runs/:id',
    {
      schema: {
        tags,
        summary: 'Get a run with its attempts',
        params: s.runParams,
        response: { 200: s.runDetail, ...s.errors(404) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const found = await request.api.getRun(id);
      if (!found) throw new PunctualError('RUN_NOT_FOUND', `no run "${id}"`, { id });
      return { ...runView(found.run), attempts: found.attempts.map(attemptView) };
    },
  );

  app.post(
    '/runs/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a run that has not finished',
        description: 'A running run loses its lease (its delivery is aborted). A finished run answers 409.',
        params: s.runParams,
        body: s.emptyBody,
        response: { 200: s.run, ...s.errors(404, 409) },
      },
    },
    async (request) => runView(await request.api.cancelRun(request.params.id)),
  );
};
