// /v1/schedules/{key}/revisions and /rollback: a schedule's history of changes (who, when, which change,
// the field diff), one version's full content, and the rollback to it. Through the authenticated tenant's
// TenantApi only, so another tenant's schedule is as missing as one that never existed.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as r from '../revision-schemas.js';
import * as s from '../schemas.js';
import type { PageCursors } from '../page-cursors.js';
import { revisionDetailView, revisionView } from '../revision-views.js';
import { viewOf } from './schedules.js';

export interface RevisionRouteDeps {
  cursors: PageCursors;
}

export const revisionRoutes: FastifyPluginAsyncZod<RevisionRouteDeps> = async (app, deps) => {
  const tags = ['schedules'];

  app.get(
    '/schedules/:key/revisions',
    {
      schema: {
        tags,
        summary: "List a schedule's revisions",
        description:
          'Newest first: each change (created, updated, paused, resumed, deleted, rolledBack) with its ' +
          'version, instant, actor and field diff. Kept after a delete; at most the newest 100 per key. 404 ' +
          'when the key has no schedule and no revision.',
        params: s.scheduleParams,
        querystring: r.revisionsQuery,
        response: { 200: s.page(r.revision), ...s.errors(404) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await request.api.history(request.params.key, {
        cursor: deps.cursors.open('revisions', request.tenant.id, q.cursor),
        limit: q.limit,
      });
      return {
        items: page.items.map(revisionView),
        nextCursor: deps.cursors.sign('revisions', request.tenant.id, page.nextCursor),
      };
    },
  );

  app.get(
    '/schedules/:key/revisions/:version',
    {
      schema: {
        tags,
        summary: 'Get one version of a schedule, with its full content',
        description: 'The newest revision of that version; 404 REVISION_UNKNOWN when none is kept.',
        params: r.revisionParams,
        response: { 200: r.revisionDetail, ...s.errors(404) },
      },
    },
    async (request) =>
      revisionDetailView(await request.api.revision(request.params.key, request.params.version)),
  );

  app.post(
    '/schedules/:key/rollback',
    {
      schema: {
        tags,
        summary: 'Restore the exact content of an earlier version as a new version',
        description:
          'The content of `version` (spec, tz, target, payload, policies, bounds, labels, summary...) is put ' +
          'again as version current + 1 (revision rolledBack); the pending runs of the current version are ' +
          'cancelled (reason updated) and the restored spec materialises, as for any update. When that ' +
          'content is the current one nothing is written (changed: false). 404 REVISION_UNKNOWN when the ' +
          'version is not kept, with nothing changed.',
        params: s.scheduleParams,
        body: r.rollbackBody,
        response: { 200: r.rollbackResult, ...s.errors(404, 409) },
      },
    },
    async (request) => {
      const res = await request.api.rollback(request.params.key, request.body.version, {
        actor: request.actor,
      });
      return {
        schedule: await viewOf(request.api, res.schedule),
        changed: res.changed,
        fromVersion: res.fromVersion,
      };
    },
  );
};
