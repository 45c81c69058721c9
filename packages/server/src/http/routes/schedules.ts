// /v1/schedules: upsert by key (with If-Match), list, get, delete, pause, resume, trigger, backfill, rerun,
// and a schedule's runs. Every call goes through the authenticated tenant's TenantApi, so another tenant's schedule
// is exactly as missing as one that never existed. Quotas are checked before anything is written.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PunctualError,
  parseLabelFilter,
  type Clock,
  type Json,
  type Schedule,
  type ScheduleInput,
  type TenantApi,
  type TenantStore,
} from 'punctual';
import { z } from 'zod';
import { HttpError } from '../errors.js';
import { backfillSize, checkRunQuota, checkScheduleQuota } from '../quotas.js';
import * as s from '../schemas.js';
import type { PageCursors } from '../page-cursors.js';
import { runView, scheduleView } from '../views.js';
import * as r from '../revision-schemas.js';
import { dryRunView } from '../revision-views.js';
import * as o from '../schemas/overrides.js';
import { overrideView } from '../override-views.js';

export interface ScheduleRouteDeps {
  tenants: TenantStore;
  clock: Pick<Clock, 'now'>;
  cursors: PageCursors;
}

/** `?label=jobType:email` (repeatable) → { jobType: 'email' }; a key asked with two values is refused. */
export function labelFilter(label: string | string[] | undefined): Record<string, string> | undefined {
  if (label === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const text of Array.isArray(label) ? label : [label]) {
    const [k, v] = parseLabelFilter(text);
    if (k in out && out[k] !== v) {
      throw new PunctualError('SCHEDULE_INVALID', `label "${k}" is asked with two values`, {
        field: 'label',
      });
    }
    out[k] = v;
  }
  return out;
}

/** `If-Match: 3`, `"3"` or `W/"3"` → 3; absent → undefined (schemas.ts refuses anything else first). */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const m = s.IF_MATCH_PATTERN.exec(header);
  const digits = m?.[1] ?? m?.[2];
  if (digits === undefined) {
    throw new HttpError(
      400,
      'VALIDATION_FAILED',
      'headers.if-match: must be a schedule version such as 3 or "3"',
      { in: 'headers', field: 'if-match' },
    );
  }
  return Number(digits);
}

const notFound = (key: string): PunctualError =>
  new PunctualError('SCHEDULE_NOT_FOUND', `no schedule "${key}"`, { key });

const etag = (version: number): string => `"${version}"`;

/** The API's view of each schedule, with its next fire time (one store read for all of them). */
async function viewsOf(
  api: TenantApi,
  schedules: readonly Schedule[],
): Promise<ReturnType<typeof scheduleView>[]> {
  const next = await api.nextFireTimes(schedules);
  return schedules.map((x) => scheduleView(x, next.get(x.id) ?? null));
}

export async function viewOf(api: TenantApi, schedule: Schedule): Promise<ReturnType<typeof scheduleView>> {
  const next = await api.nextFireTimes([schedule]);
  return scheduleView(schedule, next.get(schedule.id) ?? null);
}

export const scheduleRoutes: FastifyPluginAsyncZod<ScheduleRouteDeps> = async (app, deps) => {
  const tags = ['schedules'];

  app.put(
    '/schedules/:key',
    {
      schema: {
        tags,
        summary: 'Create or update the schedule with this key',
        description:
          'Upsert by key: 201 when created, 200 when updated (or unchanged); droppedOverrides lists the ' +
          'overrides of occurrences the change removed. With If-Match, a stale version ' +
          'answers 409 VERSION_CONFLICT. Creating counts against the maxSchedules quota. With ?dryRun=true ' +
          'nothing is written: 200 with what the put would do (DryRun), or the error the put would answer.',
        params: s.scheduleParams,
        headers: s.putScheduleHeaders,
        querystring: r.putScheduleQuery,
        body: s.putScheduleBody,
        response: {
          200: z.union([o.putScheduleResult, r.dryRunResult]),
          201: o.putScheduleResult,
          ...s.errors(409),
        },
      },
    },
    async (request, reply) => {
      const { key } = request.params;
      const expectedVersion = parseIfMatch(request.headers['if-match']);
      if (expectedVersion === undefined && !(await request.api.get(key))) {
        await checkScheduleQuota(deps.tenants, request.tenant);
      }
      const input = { ...request.body, key } as ScheduleInput;
      if (request.query.dryRun === 'true') {
        return reply.code(200).send(dryRunView(await request.api.dryRun(input, { expectedVersion })));
      }
      const res = await request.api.put(input, { expectedVersion, actor: request.actor });
      return reply
        .code(res.created ? 201 : 200)
        .header('etag', etag(res.schedule.version))
        .header('location', `/v1/schedules/${encodeURIComponent(key)}`)
        .send({
          ...(await viewOf(request.api, res.schedule)),
          droppedOverrides: res.droppedOverrides.map(overrideView),
        });
    },
  );

  app.get(
    '/schedules',
    {
      schema: {
        tags,
        summary: 'List schedules',
        description: 'Filter by state, target kind and key prefix; pages by cursor, ordered by key.',
        querystring: s.listSchedulesQuery,
        response: { 200: s.page(s.schedule), ...s.errors() },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await request.api.list({
        state: q.state,
        targetKind: q.target,
        keyPrefix: q.keyPrefix,
        labels: labelFilter(q.label),
        cursor: deps.cursors.open('schedules', request.tenant.id, q.cursor),
        limit: q.limit,
      });
      return {
        items: await viewsOf(request.api, page.items),
        nextCursor: deps.cursors.sign('schedules', request.tenant.id, page.nextCursor),
      };
    },
  );

  app.get(
    '/schedules/:key',
    {
      schema: {
        tags,
        summary: 'Get a schedule',
        params: s.scheduleParams,
        response: { 200: s.schedule, ...s.errors(404) },
      },
    },
    async (request, reply) => {
      const schedule = await request.api.require(request.params.key);
      return reply.header('etag', etag(schedule.version)).send(await viewOf(request.api, schedule));
    },
  );

  app.delete(
    '/schedules/:key',
    {
      schema: {
        tags,
        summary: 'Delete a schedule',
        description: 'Its pending runs are cancelled; its run history is kept (GET /v1/runs?scheduleKey=).',
        params: s.scheduleParams,
        response: { 204: z.undefined(), ...s.errors(404) },
      },
    },
    async (request, reply) => {
      if (!(await request.api.delete(request.params.key, { actor: request.actor })))
        throw notFound(request.params.key);
      return reply.code(204).send();
    },
  );

  app.post(
    '/schedules/:key/pause',
    {
      schema: {
        tags,
        summary: 'Pause a schedule',
        description:
          'Occurrences while paused are recorded as skipped. cancelPending also cancels runs already scheduled. ' +
          'With until, it resumes by itself then (400 PAUSE_UNTIL_INVALID when not in the future).',
        params: s.scheduleParams,
        body: s.pauseBody,
        response: { 200: s.schedule, ...s.errors(404) },
      },
    },
    async (request) => {
      const { cancelPending, note, until } = request.body;
      const schedule = await request.api.pause(request.params.key, {
        cancelPending,
        note,
        until,
        actor: request.actor,
      });
      return viewOf(request.api, schedule);
    },
  );

  app.post(
    '/schedules/:key/resume',
    {
      schema: {
        tags,
        summary: 'Resume a paused schedule from now on',
        params: s.scheduleParams,
        body: s.emptyBody,
        response: { 200: s.schedule, ...s.errors(404) },
      },
    },
    async (request) =>
      viewOf(request.api, await request.api.resume(request.params.key, { actor: request.actor })),
  );

  app.post(
    '/schedules/:key/trigger',
    {
      schema: {
        tags,
        summary: 'Run the schedule now',
        description:
          "Creates one manual run due now; `payload` replaces the schedule's payload for it. Counts against " +
          'the maxRunsPerMinute quota.',
        params: s.scheduleParams,
        body: s.triggerBody,
        response: { 201: s.run, ...s.errors(404) },
      },
    },
    async (request, reply) => {
      const { key } = request.params;
      await request.api.require(key);
      await checkRunQuota(deps.tenants, request.tenant, 1, deps.clock.now());
      const body = request.body;
      const run = await request.api.trigger(key, 'payload' in body ? { payload: body.payload as Json } : {});
      return reply
        .code(201)
        .header('location', `/v1/runs/${encodeURIComponent(run.id)}`)
        .send(runView(run));
    },
  );

  app.post(
    '/schedules/:key/backfill',
    {
      schema: {
        tags,
        summary: 'Create runs for past occurrences in [from, to)',
        description:
          'One run per occurrence of the spec in the range that has none yet; `to` may not be in the future; ' +
          "at most the schedule's maxCatchup runs. Counts against the maxRunsPerMinute quota.",
        params: s.scheduleParams,
        body: s.backfillBody,
        response: { 200: z.object({ runs: z.array(s.run) }), ...s.errors(404) },
      },
    },
    async (request) => {
      const { key } = request.params;
      const schedule = await request.api.require(key);
      const now = deps.clock.now();
      const from = Date.parse(request.body.from);
      const to = Date.parse(request.body.to);
      const limit = request.tenant.quotas.maxRunsPerMinute;
      if (limit !== null) {
        const asked = backfillSize(schedule, from, to, now, limit + 1);
        await checkRunQuota(deps.tenants, request.tenant, asked, now);
      }
      const runs = await request.api.backfill(key, { from, to });
      return { runs: runs.map(runView) };
    },
  );

  app.post(
    '/schedules/:key/rerun',
    {
      schema: {
        tags,
        summary: 'Run again the final runs of a range',
        description:
          'The runs of the schedule whose scheduledFor is in [from, to) and whose state is one of `states` ' +
          '(default dead) are scheduled again, due now, as new attempts of the same occurrence (same run id, ' +
          "scheduledFor and occurrence id); at most the schedule's maxCatchup runs. Runs that cannot run " +
          'again are listed in `refused`. Counts against the maxRunsPerMinute quota.',
        params: s.scheduleParams,
        body: s.rerunBody,
        response: { 200: s.rerunResult, ...s.errors(400, 404, 413, 415) },
      },
    },
    async (request) => {
      const now = deps.clock.now();
      const { from, to, states } = request.body;
      const res = await request.api.rerunRange(
        request.params.key,
        { from: Date.parse(from), to: Date.parse(to), states },
        { beforeWrite: (asked) => checkRunQuota(deps.tenants, request.tenant, asked, now) },
      );
      return { runs: res.runs.map(runView), refused: res.refused };
    },
  );

  app.get(
    '/schedules/:key/runs',
    {
      schema: {
        tags,
        summary: "List a schedule's runs",
        description:
          'Newest first; 404 when the schedule does not exist (use GET /v1/runs?scheduleKey= for deleted ones).',
        params: s.scheduleParams,
        querystring: s.scheduleRunsQuery,
        response: { 200: s.page(s.run), ...s.errors(404) },
      },
    },
    async (request) => {
      const { key } = request.params;
      await request.api.require(key);
      const q = request.query;
      const page = await request.api.listRuns({
        scheduleKey: key,
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
};
