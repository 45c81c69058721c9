// The API's building blocks, in zod: instants, the schedule key rule, pages and cursors, bodies a client may
// leave out, and the error body every refusal has. Shape only: it must never hold logic beyond shape.

import { z } from 'zod';
import { instantMessage } from '../input-messages.js';

/** An instant given by a client: ISO-8601 with `Z` or an offset. */
export const instantInput = z.iso
  .datetime({ offset: true, error: instantMessage })
  .meta({ description: 'ISO-8601 instant with Z or an offset', example: '2026-01-05T09:00:00Z' });

/** An instant in a response: ISO-8601 UTC with milliseconds. */
export const instant = z.string().meta({ format: 'date-time', example: '2026-01-05T09:00:00.000Z' });

/** The library's key rule: 1-200 of letters, digits and . _ : @ - (not starting with . : @ -). */
export const scheduleKey = z
  .string()
  .regex(/^[A-Za-z0-9_][A-Za-z0-9._:@-]{0,199}$/)
  .meta({ description: 'tenant-unique schedule key', example: 'reports.monthly' });

export const limit = z.coerce
  .number()
  .int()
  .min(1)
  .max(1000)
  .optional()
  .meta({ description: 'page size, 1-1000 (default 100)' });
export const cursor = z
  .string()
  .min(1)
  .max(2000)
  .optional()
  .meta({ description: 'nextCursor of the previous page' });

/** A kept version's number (schedules, calendars): an integer from 1 to 2^31 - 1. */
export const versionNumber = z
  .number()
  .int()
  .min(1)
  .max(2 ** 31 - 1);

/** A kept version's number in a path, where it is text read as a number. */
export const versionParam = z.coerce
  .number()
  .int()
  .min(1)
  .max(2 ** 31 - 1);

/** A rollback's `changed`: false when the version's content is the current one. */
export const rollbackChanged = z
  .boolean()
  .meta({ description: 'false: that content is the current one; nothing was written (no new version)' });

/** A page of items and the cursor of the next page (null on the last). */
export function page<T extends z.ZodType>(
  item: T,
): z.ZodObject<{ items: z.ZodArray<T>; nextCursor: z.ZodNullable<z.ZodString> }> {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

/** A body a client may leave out: absent (or `null`) reads as `{}`. */
export function optionalBody<T extends z.ZodObject>(schema: T) {
  return schema
    .nullable()
    .transform((v) => v ?? ({} as z.output<T>))
    .meta({ optionalBody: true });
}
export const errorBody = z
  .object({
    error: z.object({
      code: z.string().meta({ example: 'VALIDATION_FAILED' }),
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
    }),
  })
  .meta({ id: 'Error' });

/**
 * Response entries for the error statuses a route's own logic adds (404, 409). The statuses every route of
 * its shape can answer with (400, 401, 413, 414, 415, 429, 500, 503) are derived for the document
 * (openapi-document.ts), never listed per route.
 */
export function errors(...statuses: number[]): Record<number, typeof errorBody> {
  return Object.fromEntries(statuses.map((s) => [s, errorBody]));
}
