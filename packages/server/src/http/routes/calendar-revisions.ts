// /v1/calendars/{name}/revisions and /rollback: a calendar's history of changes (who, when, which change, the
// dates added and removed), one version's full content, and the rollback to it. Through the authenticated
// tenant's TenantApi only, so another tenant's calendar is as missing as one that never existed. Shapes
// requests and answers only: the library decides.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CalendarRevision } from 'punctual';
import type { z } from 'zod';
import * as s from '../schemas.js';
import { calendarView, expectedVersionOf } from './calendars.js';
import { registerRevisionRoutes, type RevisionRouteDeps } from './revision-routes.js';

export function calendarRevisionView(x: CalendarRevision): z.output<typeof s.calendarRevision> {
  return {
    name: x.name,
    version: x.version,
    at: new Date(x.at).toISOString(),
    actor: x.actor,
    change: x.change,
    fromVersion: x.fromVersion,
    diff: x.diff,
  };
}

function detailView(x: CalendarRevision): z.output<typeof s.calendarRevisionDetail> {
  const c = x.content;
  return {
    ...calendarRevisionView(x),
    content: { tz: c.tz, dates: c.dates, workingDays: c.workingDays, description: c.description },
  };
}

export const calendarRevisionRoutes: FastifyPluginAsyncZod<RevisionRouteDeps> = async (app, deps) => {
  registerRevisionRoutes(app, deps.cursors, {
    tags: ['calendars'],
    base: '/calendars/:name',
    id: 'name',
    listing: 'calendarRevisions',
    params: s.calendarParams,
    versionParams: s.calendarRevisionParams,
    history: {
      summary: "List a calendar's revisions",
      description:
        'Newest first: each change (created, updated, rolledBack, deleted) with its version, instant, ' +
        'actor and diff (dates added and removed with their labels, working days, zone, description). ' +
        'Kept after a delete; at most the newest 100 per name. 404 CALENDAR_NOT_FOUND when the name has ' +
        'no calendar and no revision.',
      item: s.calendarRevision,
      read: (api, name, page) => api.calendarHistory(name, page),
      view: calendarRevisionView,
    },
    revision: {
      summary: 'Get one version of a calendar, with its full content',
      description: 'The newest revision of that version; 404 REVISION_UNKNOWN when none is kept.',
      response: s.calendarRevisionDetail,
      read: (api, name, version) => api.calendarRevision(name, version),
      view: detailView,
    },
    rollback: {
      summary: 'Restore the exact content of an earlier version of a calendar as a new version',
      description:
        'The dates, labels, working days, zone and description of `version` are put again as a new ' +
        'version (revision rolledBack) and the pending runs of every schedule using the calendar are ' +
        'planned again, as for any change; a deleted calendar comes back. When that content is the ' +
        'current one nothing is written (changed: false). 404 REVISION_UNKNOWN when the version is not ' +
        'kept, with nothing changed. If-Match: the current version expected (409 VERSION_CONFLICT).',
      headers: s.putScheduleHeaders,
      response: s.calendarRollbackResult,
      run: async (request, name, version) => {
        const res = await request.api.rollbackCalendar(name, version, {
          actor: request.actor,
          expectedVersion: expectedVersionOf(request.headers['if-match']),
        });
        return { calendar: calendarView(res.calendar), changed: res.changed, fromVersion: res.fromVersion };
      },
    },
  });
};
