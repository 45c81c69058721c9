// POST /v1/schedules/bulk: many schedules in one request (a JSON array, or NDJSON). Each item is checked on
// its own against BulkScheduleItem and by the library, so a bad item is refused with its index (and line)
// while the others are written, all of them in one transaction. Creating counts against maxSchedules for
// the whole request before anything is written. It must never write a refused item.

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BulkPutItem, TenantStore } from 'punctual';
import type { z } from 'zod';
import { NdjsonLine } from '../ndjson-body.js';
import { checkScheduleQuota } from '../quotas.js';
import * as s from '../schemas.js';

export interface BulkScheduleRouteDeps {
  tenants: TenantStore;
}

type ItemResult = z.infer<typeof s.bulkScheduleResult>;

export const bulkScheduleRoutes: FastifyPluginAsyncZod<BulkScheduleRouteDeps> = async (app, deps) => {
  app.post(
    '/schedules/bulk',
    {
      bodyLimit: s.BULK_BODY_LIMIT,
      schema: {
        tags: ['schedules'],
        summary: 'Create or update many schedules',
        description:
          `Up to ${s.BULK_ITEMS_MAX} items (a JSON array, or application/x-ndjson with one item per line; at ` +
          `most ${s.BULK_BODY_LIMIT / 1024 / 1024} MiB), each the body of PUT /v1/schedules/{key} plus its key. ` +
          'Each item is validated on its own: an invalid one (or a key given twice) is refused with its index, ' +
          'line, code and message, and the others are written in one transaction, with the rules of a single ' +
          'put (unchanged items write nothing). 200 with an outcome per item (created, updated, unchanged, ' +
          'refused) and totals. Creating counts against the maxSchedules quota for the whole request (429, ' +
          'nothing written). With ?dryRun=true nothing is written.',
        querystring: s.bulkSchedulesQuery,
        body: s.bulkSchedulesBody,
        response: { 200: s.bulkSchedulesResult, ...s.errors() },
      },
    },
    async (request) => {
      const body = request.body;
      const dryRun = request.query.dryRun === 'true';
      const out: ItemResult[] = [];
      /** The items that pass the schema, with their position in the body. */
      const valid: { at: number; input: unknown }[] = [];
      for (const [index, raw] of body.entries()) {
        const line = raw instanceof NdjsonLine ? raw.line : undefined;
        const value = raw instanceof NdjsonLine ? raw.value : raw;
        const base = { index, ...(line === undefined ? {} : { line }), key: keyOf(value) };
        if (raw instanceof NdjsonLine && raw.error !== undefined) {
          out[index] = refused(base, 'MALFORMED_JSON', `line ${line}: not valid JSON (${raw.error})`, {});
          continue;
        }
        const parsed = s.bulkScheduleItem.safeParse(value);
        if (parsed.success) valid.push({ at: index, input: parsed.data });
        else out[index] = invalid(base, parsed.error.issues);
      }
      const res = await request.api.putBulk(
        valid.map((v) => v.input),
        {
          actor: request.actor,
          dryRun,
          batchSize: Math.max(valid.length, 1),
          beforeWrite: ({ creating }) => checkScheduleQuota(deps.tenants, request.tenant, creating),
        },
      );
      for (const [n, item] of res.items.entries()) {
        const at = valid[n]!.at;
        const prev = body[at];
        const base = {
          index: at,
          ...(prev instanceof NdjsonLine ? { line: prev.line } : {}),
          key: item.key,
        };
        out[at] = viewOf(base, item, valid);
      }
      const totals = { created: 0, updated: 0, unchanged: 0, refused: 0 };
      for (const item of out) totals[item.outcome]++;
      return { items: out, totals, dryRun };
    },
  );
};

function keyOf(value: unknown): string | null {
  const key = typeof value === 'object' && value !== null ? (value as { key?: unknown }).key : undefined;
  return typeof key === 'string' ? key : null;
}

type Base = Pick<ItemResult, 'index' | 'line' | 'key'>;

function refused(base: Base, code: string, message: string, details: Record<string, unknown>): ItemResult {
  return { ...base, outcome: 'refused', error: { code, message, details } };
}

/** A schema refusal, worded as the API words a refused request body (field path and message). */
function invalid(base: Base, issues: readonly z.core.$ZodIssue[]): ItemResult {
  const listed = issues.slice(0, 20).map((i) => {
    const path = i.path.map(String);
    return i.code === 'unrecognized_keys'
      ? { field: [...path, i.keys[0] ?? ''].join('.'), message: 'is not a known field' }
      : { field: path.join('.'), message: i.message };
  });
  const first = listed[0] ?? { field: '', message: 'is invalid' };
  const name = first.field === '' ? `item ${base.index}` : `item ${base.index}.${first.field}`;
  return refused(base, 'VALIDATION_FAILED', `${name}: ${first.message}`, {
    field: first.field,
    issues: listed,
  });
}

/** The library's answer for an item, its duplicate index translated back to the body's. */
function viewOf(base: Base, item: BulkPutItem, valid: { at: number }[]): ItemResult {
  if (item.outcome !== 'refused') {
    return { ...base, outcome: item.outcome, ...(item.schedule ? { version: item.schedule.version } : {}) };
  }
  const details = { ...item.error?.details };
  if (typeof details.firstIndex === 'number') details.firstIndex = valid[details.firstIndex]?.at;
  return refused(base, item.error?.code ?? 'SCHEDULE_INVALID', item.error?.message ?? 'refused', details);
}
