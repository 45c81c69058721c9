// /v1/calendars: the authenticated tenant's calendars: list, read, create or replace, import from an .ics
// text, delete. The tenant is always the API key's. The library judges the content (CALENDAR_* codes) and
// re-plans the pending runs of the schedules using a changed calendar; this file only shapes requests.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ICS_MAX_BYTES, type Calendar } from 'punctual';
import { z } from 'zod';
import * as s from '../schemas.js';

export function calendarView(c: Calendar): z.output<typeof s.calendar> {
  return {
    name: c.name,
    tz: c.tz,
    dates: c.dates,
    workingDays: c.workingDays,
    description: c.description,
    version: c.version,
    createdAt: new Date(c.createdAt).toISOString(),
    updatedAt: new Date(c.updatedAt).toISOString(),
  };
}

/**
 * The import route's body limit (at least the service's): room for an .ics text up to the library's limit
 * however JSON escapes it (a CRLF takes 4 characters), so that the library refuses a larger text with its own
 * code and field (CALENDAR_ICS_TOO_LARGE) rather than the body limit with BODY_TOO_LARGE.
 */
export const ICS_IMPORT_BODY_LIMIT = 4 * ICS_MAX_BYTES;

const location = (name: string): string => `/v1/calendars/${encodeURIComponent(name)}`;

/** The version an If-Match header asks for (the schedules' header form), or undefined. */
export function expectedVersionOf(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const m = s.IF_MATCH_PATTERN.exec(header);
  return m === null ? undefined : Number(m[1] ?? m[2]);
}

export const calendarRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['calendars'];

  app.get(
    '/calendars',
    { schema: { tags, summary: 'List calendars', response: { 200: s.calendarList, ...s.errors() } } },
    async (request) => ({ items: (await request.api.calendars()).map(calendarView) }),
  );

  app.get(
    '/calendars/:name',
    {
      schema: {
        tags,
        summary: 'Read a calendar: its dates with their labels and its working days',
        description:
          '`usedBy` names up to 10 schedules using it (a delete is refused with CALENDAR_IN_USE while any does).',
        params: s.calendarParams,
        response: { 200: s.calendarDetail, ...s.errors(404) },
      },
    },
    async (request) => {
      const { name } = request.params;
      const [calendar, usedBy] = await Promise.all([
        request.api.calendar(name),
        request.api.calendarUsers(name, 10),
      ]);
      return { ...calendarView(calendar), usedBy };
    },
  );

  app.put(
    '/calendars/:name',
    {
      schema: {
        tags,
        summary: 'Create or replace a calendar',
        description:
          'A change bumps the version and re-plans the pending runs of every schedule using the calendar. If-Match: the version expected.',
        params: s.calendarParams,
        headers: s.putScheduleHeaders,
        body: s.putCalendarBody,
        response: { 200: s.calendar, 201: s.calendar, ...s.errors(404, 409) },
      },
    },
    async (request, reply) => {
      const res = await request.api.putCalendar(
        { ...request.body, name: request.params.name },
        { expectedVersion: expectedVersionOf(request.headers['if-match']), actor: request.actor },
      );
      if (res.created) void reply.code(201).header('location', location(res.calendar.name));
      return calendarView(res.calendar);
    },
  );

  app.post(
    '/calendars/:name/import',
    {
      bodyLimit: Math.max(app.initialConfig.bodyLimit ?? 0, ICS_IMPORT_BODY_LIMIT),
      schema: {
        tags,
        summary: 'Create or replace a calendar from the all-day events of an .ics text',
        description:
          'DTSTART;VALUE=DATE events (DTEND exclusive), multi-day ranges and yearly RRULEs (expanded over horizonYears) become dates labelled with their SUMMARY; events on the same days are merged. Other events are listed in `skipped`.',
        params: s.calendarParams,
        headers: s.putScheduleHeaders,
        body: s.importCalendarBody,
        response: { 200: s.calendarImportResult, 201: s.calendarImportResult, ...s.errors(409, 413) },
      },
    },
    async (request, reply) => {
      const { ics, ...opts } = request.body;
      const res = await request.api.importCalendar(request.params.name, ics, {
        ...opts,
        expectedVersion: expectedVersionOf(request.headers['if-match']),
        actor: request.actor,
      });
      if (res.created) void reply.code(201).header('location', location(res.calendar.name));
      return { ...calendarView(res.calendar), skipped: res.skipped };
    },
  );

  app.delete(
    '/calendars/:name',
    {
      schema: {
        tags,
        summary: 'Delete a calendar (refused with CALENDAR_IN_USE while a schedule names it)',
        description:
          'Its revisions are kept (a `deleted` one is added): GET /v1/calendars/{name}/revisions still lists ' +
          'them and a rollback brings the calendar back; one created again continues the version numbers.',
        params: s.calendarParams,
        headers: s.putScheduleHeaders,
        response: { 204: z.undefined(), ...s.errors(404, 409) },
      },
    },
    async (request, reply) => {
      await request.api.deleteCalendar(request.params.name, {
        expectedVersion: expectedVersionOf(request.headers['if-match']),
        actor: request.actor,
      });
      return reply.code(204).send();
    },
  );
};
