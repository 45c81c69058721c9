// POST /v1/preview: what a spec would do, without saving anything: its description and next occurrences
// from `from` (default now), each with its notes (DST), and with `explain` the candidates dropped and why.
// GET /v1/schedules/{key}/preview: what a saved schedule will really do from now, its calendars and
// per-occurrence overrides applied (through the authenticated tenant's TenantApi only). The library's
// previewSpec and TenantApi.preview decide; these routes only shape the answer.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { previewSpec, type CalendarInput, type Clock } from 'punctual';
import * as s from '../schemas.js';
import { previewView } from '../views.js';

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
      return previewView(p);
    },
  );

  app.get(
    '/schedules/:key/preview',
    {
      schema: {
        tags: ['preview', 'schedules'],
        summary: "A saved schedule's next occurrences as they will really run",
        description:
          'From now: its calendars applied (excluded dates dropped, non-working days rolled) and its ' +
          'per-occurrence overrides (a skipped occurrence dropped with reason override, a moved one listed ' +
          'at its new instant with a moved note, another payload noted with payloadOverridden). count ' +
          'default 10; explain=true lists the dropped candidates. A completed schedule has none.',
        params: s.scheduleParams,
        querystring: s.schedulePreviewQuery,
        response: { 200: s.previewResult, ...s.errors(404) },
      },
    },
    async (request) => {
      const { preview } = await request.api.preview(request.params.key, {
        count: request.query.count,
        explain: request.query.explain === 'true',
      });
      return previewView(preview);
    },
  );
};
