// The shapes of per-occurrence overrides in the API: the override body of PUT
// /v1/schedules/{key}/occurrences/{instant}, a stored override, a schedule's upcoming occurrences, and the
// overrides a change dropped. The kinds come from the library's one list (OVERRIDE_KINDS). Shape only.

import { OCCURRENCES_MAX, OVERRIDE_KINDS, OVERRIDE_NOTE_MAX } from 'punctual';
import { z } from 'zod';
import { instant, instantInput, scheduleKey } from './common.js';
import { schedule } from './schedules.js';

export const occurrenceParams = z
  .object({
    key: scheduleKey,
    instant: instantInput.meta({ description: "the occurrence's nominal instant (its runs' scheduledFor)" }),
  })
  .strict();

export const overrideBody = z
  .object({
    kind: z.enum(OVERRIDE_KINDS).meta({
      description: 'skip: do not run it; move: run it at moveTo instead; payload: run it with this payload',
    }),
    moveTo: instantInput
      .optional()
      .meta({ description: 'move only: the instant it runs at (in the future)' }),
    payload: z
      .unknown()
      .optional()
      .meta({ description: 'payload only: the payload this occurrence carries' }),
    note: z.string().max(OVERRIDE_NOTE_MAX).optional().meta({ description: 'why, kept in the run' }),
  })
  .strict();

export const occurrenceOverride = z
  .object({
    instant,
    kind: z.enum(OVERRIDE_KINDS),
    moveTo: instant.nullable(),
    payload: z.unknown(),
    note: z.string().nullable(),
    createdAt: instant,
  })
  .meta({ id: 'OccurrenceOverride' });

export const occurrence = z
  .object({
    scheduledFor: instant.meta({ description: 'the nominal instant: the identity of its run' }),
    at: instant.nullable().meta({ description: 'when it runs (moveTo when moved); null when skipped' }),
    override: occurrenceOverride.nullable(),
  })
  .meta({ id: 'Occurrence' });

export const occurrencesQuery = z
  .object({ count: z.coerce.number().int().min(1).max(OCCURRENCES_MAX).optional() })
  .strict();

export const occurrencesResponse = z.object({ key: z.string(), occurrences: z.array(occurrence) });

export const overrideResult = z.object({
  override: occurrenceOverride,
  run: z
    .object({ id: z.string(), state: z.string(), dueAt: instant })
    .nullable()
    .meta({ description: 'the pending run it changed or wrote now; null when not materialised yet' }),
});

/** A put's answer: the schedule and the overrides the change dropped (their occurrences are gone). */
export const putScheduleResult = schedule
  .extend({ droppedOverrides: z.array(occurrenceOverride) })
  .meta({ id: 'PutScheduleResult' });
