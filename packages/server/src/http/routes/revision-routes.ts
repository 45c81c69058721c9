// The three revision routes of an object the library keeps revisions of (a schedule, a calendar): GET
// {base}/revisions (its history, newest first, paged by a signed cursor), GET {base}/revisions/:version (one
// version with its full content) and POST {base}/rollback. Both kinds answer the same way and differ only in
// names, shapes and the library call, so each describes itself here once. It shapes requests and answers
// only: it must never decide what the library decides, nor read another tenant's objects (every call goes
// through the request's TenantApi).

import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Page, TenantApi } from 'punctual';
import type { z } from 'zod';
import type { Listing, PageCursors } from '../page-cursors.js';
import * as r from '../revision-schemas.js';
import * as s from '../schemas.js';

type RouteApp = Parameters<FastifyPluginAsyncZod>[0];

/** What the revision routes of either kind need from the app. */
export interface RevisionRouteDeps {
  cursors: PageCursors;
}

/** What one route says of itself in the OpenAPI document. */
interface RouteDoc {
  summary: string;
  description: string;
}

/** One kind of revisioned object: its path, its shapes and the library calls behind its routes. */
export interface RevisionRoutesOf<Id extends string, Rev> {
  tags: string[];
  /** The object's path with its parameter, e.g. `/schedules/:key`. */
  base: string;
  /** The path parameter naming the object (`key`, `name`). */
  id: Id;
  /** Which listing the history's page cursors belong to. */
  listing: Listing;
  params: z.ZodType<Record<Id, string>>;
  versionParams: z.ZodType<Record<Id, string> & { version: number }>;
  history: RouteDoc & {
    item: z.ZodType;
    read(api: TenantApi, id: string, page: { cursor?: string; limit?: number }): Promise<Page<Rev>>;
    view(rev: Rev): unknown;
  };
  revision: RouteDoc & {
    response: z.ZodType;
    read(api: TenantApi, id: string, version: number): Promise<Rev>;
    view(rev: Rev): unknown;
  };
  rollback: RouteDoc & {
    /** Request headers the rollback reads (e.g. If-Match); none when absent. */
    headers?: z.ZodType;
    response: z.ZodType;
    run(request: FastifyRequest, id: string, version: number): Promise<unknown>;
  };
}

/** Registers GET {base}/revisions, GET {base}/revisions/:version and POST {base}/rollback, in that order. */
export function registerRevisionRoutes<Id extends string, Rev>(
  app: RouteApp,
  cursors: PageCursors,
  of: RevisionRoutesOf<Id, Rev>,
): void {
  const { tags } = of;
  // The type provider cannot resolve the output of a generic schema; `params` and `versionParams` give these.
  const idOf = (params: unknown): string => (params as Record<Id, string>)[of.id];
  const versionOf = (params: unknown): number => (params as { version: number }).version;

  app.get(
    `${of.base}/revisions`,
    {
      schema: {
        tags,
        summary: of.history.summary,
        description: of.history.description,
        params: of.params,
        querystring: r.revisionsQuery,
        response: { 200: s.page(of.history.item), ...s.errors(404) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await of.history.read(request.api, idOf(request.params), {
        cursor: cursors.open(of.listing, request.tenant.id, q.cursor),
        limit: q.limit,
      });
      return {
        items: page.items.map((x) => of.history.view(x)),
        nextCursor: cursors.sign(of.listing, request.tenant.id, page.nextCursor),
      };
    },
  );

  app.get(
    `${of.base}/revisions/:version`,
    {
      schema: {
        tags,
        summary: of.revision.summary,
        description: of.revision.description,
        params: of.versionParams,
        response: { 200: of.revision.response, ...s.errors(404) },
      },
    },
    async (request) =>
      of.revision.view(await of.revision.read(request.api, idOf(request.params), versionOf(request.params))),
  );

  app.post(
    `${of.base}/rollback`,
    {
      schema: {
        tags,
        summary: of.rollback.summary,
        description: of.rollback.description,
        params: of.params,
        ...(of.rollback.headers === undefined ? {} : { headers: of.rollback.headers }),
        body: r.rollbackBody,
        response: { 200: of.rollback.response, ...s.errors(404, 409) },
      },
    },
    async (request) => of.rollback.run(request, idOf(request.params), request.body.version),
  );
}
