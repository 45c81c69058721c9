// /v1/calendars/{name}/revisions and /rollback: a calendar's history of changes (who, when, which change, the
// dates added and removed), one version's full content, and the rollback to it. Through the authenticated
// tenant's TenantApi only, so another tenant's calendar is as missing as one that never existed. Shapes
// requests and answers only: the library decides.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CalendarRevision } from 'punctual';
import type { z } from 'zod';
import type { PageCursors } from '../page-cursors.js';
import * as r from '../revision-schemas.js';
import * as s from '../schemas.js';
import { calendarView, expectedVersionOf } from './calendars.js';

export interface CalendarRevisionRouteDeps {
  cursors: PageCursors;
}

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

export const calendarRevisionRoutes: FastifyPluginAsyncZod<CalendarRevisionRouteDeps> = async (app, deps) => {
  const tags = ['calendars'];

  app.get(
    '/calendars/:name/revisions',
    {
      schema: {
        tags,
        summary: "List a calendar's revisions",
        description:
          'Newest first: each change (created, updated, rolledBack, deleted) with its version, instant, ' +
          'actor and diff (dates added and removed with their labels, working days, zone, description). ' +
          'Kept after a delete; at most the newest 100 per name. 404 CALENDAR_NOT_FOUND when the name has ' +
          'no calendar and no revision.',
        params: s.calendarParams,
        querystring: r.revisionsQuery,
        response: { 200: s.page(s.calendarRevision), ...s.errors(404) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await request.api.calendarHistory(request.params.name, {
        cursor: deps.cursors.open('calendarRevisions', request.tenant.id, q.cursor),
        limit: q.limit,
      });
      return {
        items: page.items.map(calendarRevisionView),
        nextCursor: deps.cursors.sign('calendarRevisions', request.tenant.id, page.nextCursor),
      };
    },
  );

  app.get(
    '/calendars/:name/revisions/:version',
    {
      schema: {
        tags,
        summary: 'Get one version of a calendar, with its full content',
        description: 'The newest revision of that version; 404 REVISION_UNKNOWN when none is kept.',
        params: s.calendarRevisionParams,
        response: { 200: s.calendarRevisionDetail, ...s.errors(404) },
      },
    },
    async (request) =>
      detailView(await request.api.calendarRevision(request.params.name, request.params.version)),
  );

  app.post(
    '/calendars/:name/rollback',
    {
      schema: {
        tags,
        summary: 'Restore the exact content of an earlier version of a calendar as a new version',
        description:
          'The dates, labels, working days, zone and description of `version` are put again as a new ' +
          'version (revision rolledBack) and the pending runs of every schedule using the calendar are ' +
          'planned again, as for any change; a deleted calendar comes back. When that content is the ' +
          'current one nothing is written (changed: false). 404 REVISION_UNKNOWN when the version is not ' +
          'kept, with nothing changed. If-Match: the current version expected (409 VERSION_CONFLICT).',
        params: s.calendarParams,
        headers: s.putScheduleHeaders,
        body: r.rollbackBody,
        response: { 200: s.calendarRollbackResult, ...s.errors(404, 409) },
      },
    },
    async (request) => {
      const res = await request.api.rollbackCalendar(request.params.name, request.body.version, {
        actor: request.actor,
        expectedVersion: expectedVersionOf(request.headers['if-match']),
      });
      return { calendar: calendarView(res.calendar), changed: res.changed, fromVersion: res.fromVersion };
    },
  );
};
