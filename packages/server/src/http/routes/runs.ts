// /v1/runs: list the tenant's runs with filters, read one run with its attempts, cancel one, run one again.
// Reads and writes go through the authenticated tenant's TenantApi: another tenant's run answers 404 like a missing one.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PunctualError, type Clock, type TenantStore } from 'punctual';
import type { PageCursors } from '../page-cursors.js';
import { checkRunQuota } from '../quotas.js';
import * as s from '../schemas.js';
import { attemptView, runView } from '../views.js';

export interface RunRouteDeps {
  cursors: PageCursors;
  tenants: TenantStore;
  clock: Pick<Clock, 'now'>;
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

  app.post(
    '/runs/:id/rerun',
    {
      schema: {
        tags,
        summary: 'Run a finished run again',
        description:
          'The run is scheduled again, due now, as new attempts of the same occurrence: the same run id, ' +
          "scheduledFor and occurrence id, the schedule's current version and retry budget, no deadline. " +
          'A run not final yet, or whose occurrence another run holds, answers 409 RUN_NOT_RERUNNABLE; a run ' +
          'whose schedule was deleted, 404 SCHEDULE_NOT_FOUND. Counts against the maxRunsPerMinute quota.',
        params: s.runParams,
        body: s.emptyBody,
        response: { 200: s.run, ...s.errors(400, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      await checkRunQuota(deps.tenants, request.tenant, 1, deps.clock.now());
      return runView(await request.api.rerun(request.params.id));
    },
  );
};
