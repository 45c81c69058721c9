// /v1/schedules/{key}/revisions and /rollback: a schedule's history of changes (who, when, which change,
// the field diff), one version's full content, and the rollback to it. Through the authenticated tenant's
// TenantApi only, so another tenant's schedule is as missing as one that never existed.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as r from '../revision-schemas.js';
import * as s from '../schemas.js';
import { revisionDetailView, revisionView } from '../revision-views.js';
import { registerRevisionRoutes, type RevisionRouteDeps } from './revision-routes.js';
import { viewOf } from './schedules.js';

export const revisionRoutes: FastifyPluginAsyncZod<RevisionRouteDeps> = async (app, deps) => {
  registerRevisionRoutes(app, deps.cursors, {
    tags: ['schedules'],
    base: '/schedules/:key',
    id: 'key',
    listing: 'revisions',
    params: s.scheduleParams,
    versionParams: r.revisionParams,
    history: {
      summary: "List a schedule's revisions",
      description:
        'Newest first: each change (created, updated, paused, resumed, deleted, rolledBack) with its ' +
        'version, instant, actor and field diff. Kept after a delete; at most the newest 100 per key. 404 ' +
        'when the key has no schedule and no revision.',
      item: r.revision,
      read: (api, key, page) => api.history(key, page),
      view: revisionView,
    },
    revision: {
      summary: 'Get one version of a schedule, with its full content',
      description: 'The newest revision of that version; 404 REVISION_UNKNOWN when none is kept.',
      response: r.revisionDetail,
      read: (api, key, version) => api.revision(key, version),
      view: revisionDetailView,
    },
    rollback: {
      summary: 'Restore the exact content of an earlier version as a new version',
      description:
        'The content of `version` (spec, tz, target, payload, policies, bounds, labels, summary...) is put ' +
        'again as version current + 1 (revision rolledBack); the pending runs of the current version are ' +
        'cancelled (reason updated) and the restored spec materialises, as for any update. When that ' +
        'content is the current one nothing is written (changed: false). 404 REVISION_UNKNOWN when the ' +
        'version is not kept, with nothing changed.',
      response: r.rollbackResult,
      run: async (request, key, version) => {
        const res = await request.api.rollback(key, version, { actor: request.actor });
        return {
          schedule: await viewOf(request.api, res.schedule),
          changed: res.changed,
          fromVersion: res.fromVersion,
        };
      },
    },
  });
};
