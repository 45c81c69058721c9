// The bulk put's shapes: the body (a JSON array, or NDJSON lines read by app.ts into the same array), one
// item (a PutSchedule plus its key), and the answer per item with totals. Outcome names come from the
// library (BULK_OUTCOMES). Items are validated one by one in the route, so a bad one refuses only itself.

import { BULK_OUTCOMES } from 'punctual';
import { z } from 'zod';
import { scheduleKey } from './common.js';
import { putScheduleBody } from './schedules.js';

/** Items a request may hold; the route writes them in one transaction. */
export const BULK_ITEMS_MAX = 5_000;
/** The largest bulk body (bytes): above the service's PUNCTUAL_BODY_LIMIT when that is smaller. */
export const BULK_BODY_LIMIT = 16 * 1024 * 1024;

/** One item of a bulk put, checked by the route (not by the request schema). */
export const bulkScheduleItem = putScheduleBody
  .extend({ key: scheduleKey })
  .strict()
  .meta({ id: 'BulkScheduleItem' });

export const bulkSchedulesBody = z
  .array(
    z.unknown().meta({
      description:
        'the body of PUT /v1/schedules/{key} (PutSchedule) plus its key; each is validated on its own',
    }),
  )
  .min(1)
  .max(BULK_ITEMS_MAX)
  .meta({
    description: `1 to ${BULK_ITEMS_MAX} schedules as a JSON array (application/json), or one per line (application/x-ndjson)`,
    example: [
      { key: 'reminder-1', spec: '0 9 * * *', target: { webhook: { url: 'https://example.com/hook' } } },
    ],
  });

export const bulkSchedulesQuery = z
  .object({
    dryRun: z
      .enum(['true', 'false'])
      .optional()
      .meta({ description: 'true: validate and classify every item, write nothing' }),
  })
  .strict();

const bulkOutcome = z.enum(BULK_OUTCOMES);

export const bulkScheduleResult = z
  .object({
    index: z.number().int().meta({ description: 'position of the item in the body (0-based)' }),
    line: z.number().int().optional().meta({ description: 'line of the item in an NDJSON body (1-based)' }),
    key: z.string().nullable(),
    outcome: bulkOutcome,
    version: z.number().int().optional().meta({ description: 'the version saved (absent when refused)' }),
    error: z
      .object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()) })
      .optional()
      .meta({ description: 'why the item was refused' }),
  })
  .meta({ id: 'BulkScheduleResult' });

export const bulkSchedulesResult = z
  .object({
    items: z.array(bulkScheduleResult),
    totals: z.object(
      Object.fromEntries(BULK_OUTCOMES.map((o) => [o, z.number().int()])) as {
        [K in (typeof BULK_OUTCOMES)[number]]: z.ZodNumber;
      },
    ),
    dryRun: z.boolean(),
  })
  .meta({ id: 'BulkSchedulesResult' });
