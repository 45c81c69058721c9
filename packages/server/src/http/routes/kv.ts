// /v1/kv: the authenticated tenant's key-value store, the one scripts reach as `ctx.kv`: list by prefix a page
// at a time, read, write (the body is the value) and delete one key. The tenant is always the API key's,
// never one taken from a key, so another tenant's keys are exactly as missing as keys that never existed.
// Keys, values and quotas are checked by the store (kv-rules): KV_INVALID, KV_QUOTA_EXCEEDED.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock, Json, KvEntry, KvLimits, KvStore } from 'punctual';
import { z } from 'zod';
import { HttpError } from '../errors.js';
import type { PageCursors } from '../page-cursors.js';
import * as s from '../schemas.js';

export interface KvRouteDeps {
  store: KvStore;
  limits: KvLimits;
  clock: Pick<Clock, 'now'>;
  cursors: PageCursors;
}

function entryView(e: KvEntry): z.output<typeof s.kvEntry> {
  return { key: e.key, value: e.value, updatedAt: new Date(e.updatedAt).toISOString() };
}

function noSuchKey(key: string): HttpError {
  const shown = key.length > 100 ? `${key.slice(0, 100)}...` : key;
  return new HttpError(404, 'NOT_FOUND', `no key ${JSON.stringify(shown)}`, { key });
}

const location = (key: string): string => `/v1/kv/${encodeURIComponent(key)}`;

export const kvRoutes: FastifyPluginAsyncZod<KvRouteDeps> = async (app, deps) => {
  const tags = ['kv'];

  app.get(
    '/kv',
    {
      schema: {
        tags,
        summary: 'List keys and values',
        description:
          'In key order (UTF-8 byte order), optionally only the keys starting with `prefix`; pages by cursor.',
        querystring: s.listKvQuery,
        response: { 200: s.page(s.kvEntry), ...s.errors() },
      },
    },
    async (request) => {
      const q = request.query;
      const page = await deps.store.kvList(request.tenant.id, {
        prefix: q.prefix,
        cursor: deps.cursors.open('kv', request.tenant.id, q.cursor),
        limit: q.limit ?? 100,
      });
      return {
        items: page.items.map(entryView),
        nextCursor: deps.cursors.sign('kv', request.tenant.id, page.nextCursor),
      };
    },
  );

  app.get(
    '/kv/:key',
    {
      schema: {
        tags,
        summary: 'Read one key',
        params: s.kvParams,
        response: { 200: s.kvEntry, ...s.errors(404) },
      },
    },
    async (request) => {
      const { key } = request.params;
      const found = await deps.store.kvGet(request.tenant.id, key);
      if (!found) throw noSuchKey(key);
      return entryView({ key, ...found });
    },
  );

  app.put(
    '/kv/:key',
    {
      schema: {
        tags,
        summary: 'Write one key',
        description:
          'The body is the value: any JSON. 201 when the key is new, 200 when it replaced a value. A new key ' +
          'beyond the key quota answers 429 KV_QUOTA_EXCEEDED, a value over the size limit 413 ' +
          'KV_QUOTA_EXCEEDED, a bad key or value 400 KV_INVALID.',
        params: s.kvParams,
        body: s.kvValue,
        response: { 200: s.kvEntry, 201: s.kvEntry, ...s.errors() },
      },
      // Fastify validates a missing body as null: refuse it before, so only a sent `null` stores null.
      preValidation: async (request) => {
        if (request.body === undefined) {
          throw new HttpError(400, 'VALIDATION_FAILED', 'the body: send the JSON value to store', {
            in: 'body',
            field: '',
          });
        }
      },
    },
    async (request, reply) => {
      const { key } = request.params;
      const tenantId = request.tenant.id;
      // Only for the status: a concurrent write may make a 201 a 200, never lose the write.
      const existed = (await deps.store.kvGet(tenantId, key)) !== undefined;
      const now = deps.clock.now();
      const value = request.body as Json;
      await deps.store.kvSet(tenantId, key, value, now, deps.limits);
      return reply
        .code(existed ? 200 : 201)
        .header('location', location(key))
        .send(entryView({ key, value, updatedAt: now }));
    },
  );

  app.delete(
    '/kv/:key',
    {
      schema: {
        tags,
        summary: 'Delete one key',
        params: s.kvParams,
        response: { 204: z.undefined(), ...s.errors(404) },
      },
    },
    async (request, reply) => {
      const { key } = request.params;
      if (!(await deps.store.kvDelete(request.tenant.id, key))) throw noSuchKey(key);
      return reply.code(204).send();
    },
  );
};
