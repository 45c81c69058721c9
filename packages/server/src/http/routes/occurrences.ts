// /v1/schedules/{key}/occurrences: a schedule's upcoming occurrences with their overrides, and the override
// of one occurrence (PUT) or its removal (DELETE). Through the authenticated tenant's TenantApi only, so
// another tenant's schedule is as missing as one that never existed; the library validates and refuses.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Json, OverrideInput } from 'punctual';
import { z } from 'zod';
import * as s from '../schemas.js';
import * as o from '../schemas/overrides.js';
import { occurrenceView, overrideResultView } from '../override-views.js';

export const occurrenceRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['schedules'];

  app.get(
    '/schedules/:key/occurrences',
    {
      schema: {
        tags,
        summary: "List a schedule's upcoming occurrences with their overrides",
        description:
          'The next occurrences of the spec from now (count, default 10), each with when it runs and its ' +
          'override (skipped ones have at: null; moved ones are listed at their nominal instant).',
        params: s.scheduleParams,
        querystring: o.occurrencesQuery,
        response: { 200: o.occurrencesResponse, ...s.errors(404) },
      },
    },
    async (request) => {
      const res = await request.api.occurrences(request.params.key, { count: request.query.count });
      return { key: res.schedule.key, occurrences: res.occurrences.map(occurrenceView) };
    },
  );

  app.put(
    '/schedules/:key/occurrences/:instant',
    {
      schema: {
        tags,
        summary: 'Override one occurrence: skip it, move it, or give it another payload',
        description:
          'The instant must be an occurrence of the schedule (400 OCCURRENCE_UNKNOWN). A pending run of it ' +
          'follows at once; when its run already started 409 OCCURRENCE_STARTED and nothing is written. ' +
          'Replaces an earlier override of the same occurrence.',
        params: o.occurrenceParams,
        body: o.overrideBody,
        response: { 200: o.overrideResult, ...s.errors(404, 409) },
      },
    },
    async (request) => {
      const { key, instant } = request.params;
      const body = request.body;
      const input: OverrideInput = {
        kind: body.kind,
        moveTo: body.moveTo,
        note: body.note,
        ...(body.payload === undefined ? {} : { payload: body.payload as Json }),
      };
      return overrideResultView(await request.api.overrideOccurrence(key, instant, input));
    },
  );

  app.delete(
    '/schedules/:key/occurrences/:instant',
    {
      schema: {
        tags,
        summary: "Remove an occurrence's override",
        description:
          'Its pending run goes back to the plain occurrence (a skipped one is written again). 404 ' +
          'OVERRIDE_NOT_FOUND when it has none.',
        params: o.occurrenceParams,
        response: { 204: z.undefined(), ...s.errors(404) },
      },
    },
    async (request, reply) => {
      await request.api.removeOverride(request.params.key, request.params.instant);
      return reply.code(204).send();
    },
  );
};
