// POST /v1/preview: what a spec would do, without saving anything: its description and next occurrences
// from `from` (default now), each with its notes (DST), and with `explain` the candidates dropped and why.
// The library's previewSpec decides; this route only shapes the answer.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { previewSpec, type CalendarInput, type Clock } from 'punctual';
import * as s from '../schemas.js';
import { previewDroppedView, previewOccurrenceView } from '../views.js';

export const previewRoutes: FastifyPluginAsyncZod<{ clock: Pick<Clock, 'now'> }> = async (app, deps) => {
  app.post(
    '/preview',
    {
      schema: {
        tags: ['preview'],
        summary: 'Describe a spec and list its next occurrences (nothing is saved)',
        body: s.previewBody,
        response: { 200: s.previewResult, ...s.errors() },
      },
    },
    async (request) => {
      const { spec, tz, from, count, startAt, endAt, dst, explain, exclude, businessDays } = request.body;
      const calendars = await request.api.previewCalendars({
        exclude,
        businessDays,
        calendars: request.body.calendars as CalendarInput[] | undefined,
      });
      const instant = (v: string | null | undefined): number | null =>
        v === undefined || v === null ? null : Date.parse(v);
      const p = previewSpec(spec, {
        tz,
        from: from === undefined ? deps.clock.now() : Date.parse(from),
        count: count ?? 5,
        startAt: instant(startAt),
        endAt: instant(endAt),
        dst,
        explain,
        calendars,
      });
      return {
        description: p.description,
        next: p.next.map((t) => new Date(t).toISOString()),
        occurrences: p.occurrences.map(previewOccurrenceView),
        ...(p.dropped === undefined ? {} : { dropped: p.dropped.map(previewDroppedView) }),
        dst: p.dst,
      };
    },
  );
};
