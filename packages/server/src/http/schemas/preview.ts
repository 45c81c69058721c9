// The preview routes' shapes in zod: the spec to preview (or a saved schedule's query) and its next
// instants. Shape only.

import { MAX_PREVIEW_COUNT, PREVIEW_DROP_REASONS } from 'punctual';
import { z } from 'zod';
import { instant, instantInput } from './common.js';
import { dstChoice, dstChoiceInput } from './schedules.js';
import { businessDaysInput, calendarDateInput, excludeInput } from './calendars.js';

export const previewBody = z
  .object({
    spec: z.string().min(1).max(4096),
    tz: z.string().min(1).max(64).optional(),
    from: instantInput.optional().meta({
      description:
        'as if saved at this instant (default now): occurrences at or after it; an @every without startAt is anchored here, so it starts at from + interval',
    }),
    count: z.number().int().min(1).max(1000).optional().meta({ description: 'default 5' }),
    startAt: instantInput.nullable().optional(),
    endAt: instantInput.nullable().optional(),
    dst: dstChoiceInput.nullable().optional(),
    explain: z
      .boolean()
      .optional()
      .meta({ description: 'also list the candidates that were dropped, and why (`dropped`)' }),
    exclude: excludeInput,
    businessDays: businessDaysInput,
    calendars: z
      .array(
        z
          .object({
            name: z.string(),
            tz: z.string().optional(),
            dates: z.array(calendarDateInput).optional(),
            workingDays: z.array(z.string()).nullable().optional(),
          })
          .strict(),
      )
      .max(10)
      .optional()
      .meta({
        description:
          'calendars given with the preview (not saved): a name in exclude / businessDays is looked up here first, then among the stored calendars',
      }),
  })
  .strict();

/** A local wall-clock time in the spec's zone, without offset. */
const wallTime = z.string().meta({ description: 'local wall-clock time', example: '2026-03-29T02:30:00' });

/** One note on a previewed occurrence: why it is where it is. */
export const previewNote = z
  .discriminatedUnion('kind', [
    z
      .object({ kind: z.literal('dstShifted'), asked: wallTime, used: wallTime })
      .meta({ description: 'the local time asked for fell in a DST gap; it runs at `used`' }),
    z
      .object({ kind: z.literal('dstRepeat'), pass: z.union([z.literal(1), z.literal(2)]) })
      .meta({ description: 'the local time occurs twice (fall back); this is pass 1 or 2' }),
    z
      .object({
        kind: z.literal('rolled'),
        rule: z.enum(['next', 'previous']),
        calendar: z.string(),
        from: instant,
      })
      .meta({ description: 'a business-day rule moved it off a non-working day' }),
    z
      .object({ kind: z.literal('moved'), from: instant })
      .meta({ description: 'a per-occurrence override moved it' }),
    z
      .object({ kind: z.literal('payloadOverridden') })
      .meta({ description: 'a per-occurrence override gives it another payload' }),
  ])
  .meta({ id: 'PreviewNote' });

export const previewOccurrence = z
  .object({ at: instant, notes: z.array(previewNote) })
  .meta({ id: 'PreviewOccurrence' });

export const previewDropped = z
  .object({
    at: instant,
    reason: z.enum(PREVIEW_DROP_REASONS),
    calendar: z.string().optional().meta({ description: 'for calendar and notWorkingDay' }),
    label: z.string().optional().meta({ description: "the calendar date's label, when it has one" }),
  })
  .meta({ id: 'PreviewDropped' });

export const previewResult = z
  .object({
    description: z.string(),
    next: z.array(instant).meta({ description: 'the instants of `occurrences`, kept for older clients' }),
    occurrences: z.array(previewOccurrence),
    dropped: z
      .array(previewDropped)
      .optional()
      .meta({ description: 'with explain: the candidates dropped up to the last occurrence, in order' }),
    dst: dstChoice.nullable().meta({ description: 'the DST choice in force; null for @every and @at' }),
  })
  .meta({ id: 'Preview' });

/** GET /v1/schedules/{key}/preview: how many, and whether to list the dropped candidates. */
export const schedulePreviewQuery = z
  .object({
    count: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_PREVIEW_COUNT)
      .optional()
      .meta({ description: 'default 10' }),
    explain: z
      .enum(['true', 'false'])
      .optional()
      .meta({ description: 'true: also list the candidates that were dropped, and why (`dropped`)' }),
  })
  .strict();
