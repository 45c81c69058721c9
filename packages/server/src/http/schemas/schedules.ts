// The schedule routes' shapes in zod: the PUT body (strict: an unknown field is a 400) and its If-Match
// header, policies, the schedule as answered, the listing query and the bodies of pause, trigger and
// backfill. Types only where the library is the authority on ranges (it answers with the failing field). It
// must never hold logic beyond shape.

import { businessDays, businessDaysInput, excludeInput } from './calendars.js';
import {
  DST_GAP_CHOICES,
  DST_REPEAT_CHOICES,
  EXPECT_MAX_MS,
  EXPECT_MIN_MS,
  LABEL_VALUE_MAX,
  LABELS_MAX,
  SUMMARY_MAX,
  TARGET_KINDS,
} from 'punctual';
import { z } from 'zod';
import { cursor, instant, instantInput, limit, optionalBody, scheduleKey } from './common.js';
import { target } from './target.js';

export const SCHEDULE_STATES = ['active', 'paused', 'completed'] as const;
const OVERLAPS = ['allow', 'skip', 'bufferOne', 'bufferAll', 'cancelPrevious'] as const;
const MISFIRES = ['skip', 'runOnce', 'runAll'] as const;

const retryInput = z
  .object({
    maxAttempts: z.number().int(),
    backoff: z.enum(['fixed', 'exponential']),
    delayMs: z.number().int(),
    maxDelayMs: z.number().int(),
    jitter: z.boolean(),
  })
  .partial()
  .strict();

const policiesInput = z
  .object({
    retry: retryInput,
    timeoutMs: z.number().int(),
    overlap: z.enum(OVERLAPS),
    misfire: z.enum(MISFIRES),
    catchupWindowMs: z.number().int(),
    maxCatchup: z.number().int(),
    deadlineMs: z.number().int().nullable(),
    priority: z.number().int(),
    maxChecks: z.number().int(),
    checkHorizonMs: z.number().int(),
  })
  .partial()
  .strict();

export const policies = z
  .object({
    retry: retryInput.required(),
    timeoutMs: z.number(),
    overlap: z.enum(OVERLAPS),
    misfire: z.enum(MISFIRES),
    catchupWindowMs: z.number(),
    maxCatchup: z.number(),
    deadlineMs: z.number().nullable(),
    priority: z.number(),
    maxChecks: z.number(),
    checkHorizonMs: z.number(),
  })
  .meta({ id: 'Policies' });

export const scheduleParams = z.object({ key: scheduleKey }).strict();

const DST_DOC =
  'what a fixed local time does at a DST change (cron and RRULE only): gap shift (run right after the gap) or skip; repeat first (first pass) or both; see docs/time.md';

/** A DST choice as given: missing parts take the spec kind's default. */
export const dstChoiceInput = z
  .object({ gap: z.enum(DST_GAP_CHOICES).optional(), repeat: z.enum(DST_REPEAT_CHOICES).optional() })
  .strict()
  .meta({ description: DST_DOC, example: { gap: 'skip', repeat: 'first' } });

/** The DST choice in force. */
export const dstChoice = z
  .object({ gap: z.enum(DST_GAP_CHOICES), repeat: z.enum(DST_REPEAT_CHOICES) })
  .meta({ id: 'DstChoice', description: DST_DOC });

const EXPECT_DOC = `each occurrence must succeed within successWithin of its start, or an expectation_breached alert opens (${EXPECT_MIN_MS / 1000}s to ${EXPECT_MAX_MS / 86_400_000} days); see docs/alerts.md`;

/** An expectation as given: successWithin as milliseconds or a duration. */
export const expectInput = z
  .object({
    successWithin: z
      .union([z.number().int(), z.string().min(1).max(64)])
      .meta({ description: 'milliseconds or a duration ("15m", "PT15M")', example: '15m' }),
  })
  .strict()
  .meta({ description: EXPECT_DOC });

/** The expectation in force. */
export const scheduleExpect = z
  .object({ successWithinMs: z.number().int() })
  .meta({ id: 'ScheduleExpect', description: EXPECT_DOC });

export const putScheduleBody = z
  .object({
    spec: z.string().min(1).max(4096).meta({ example: '0 9 * * 1-5' }),
    tz: z.string().min(1).max(64).optional().meta({ example: 'Europe/Paris' }),
    target,
    payload: z.unknown().optional().meta({ description: 'any JSON value handed to the target' }),
    policies: policiesInput.optional(),
    startAt: instantInput.nullable().optional(),
    endAt: instantInput.nullable().optional(),
    maxRuns: z.number().int().min(1).nullable().optional(),
    jitter: z
      .union([z.number().int().min(0), z.string().min(1).max(64)])
      .optional()
      .meta({ description: 'milliseconds or a duration ("30s")' }),
    summary: z
      .string()
      .nullable()
      .optional()
      .meta({
        description: `the user's own free text (at most ${SUMMARY_MAX} characters); \`description\` is generated from the spec`,
      }),
    labels: z
      .record(z.string(), z.string())
      .nullable()
      .optional()
      .meta({
        description: `key/value strings to find schedules by (at most ${LABELS_MAX}; keys 1-63 letters, digits and . _ / -; values at most ${LABEL_VALUE_MAX} characters)`,
        example: { jobType: 'email' },
      }),
    dst: dstChoiceInput
      .nullable()
      .optional()
      .meta({
        description: `${DST_DOC}. Default (omitted or null): cron shift/first, RRULE skip/first; refused (DST_INVALID) for @every and @at`,
      }),
    exclude: excludeInput,
    businessDays: businessDaysInput,
    expect: expectInput.nullable().optional(),
    state: z
      .enum(['active', 'paused'])
      .optional()
      .meta({ description: 'on create only: `paused` creates it paused; an update keeps the stored state' }),
  })
  .strict()
  .meta({ id: 'PutSchedule' });

/**
 * What `If-Match` accepts: a schedule version (1 or more, at most 15 digits), bare, quoted or weak (`3`, `"3"`,
 * `W/"3"`). The handler reads the version with the same expression, so the document publishes exactly it.
 */
export const IF_MATCH_PATTERN = /^\s*(?:W\/)?(?:"0*([1-9][0-9]{0,14})"|0*([1-9][0-9]{0,14}))\s*$/;

export const putScheduleHeaders = z.looseObject({
  'if-match': z
    .string()
    .max(64)
    .regex(IF_MATCH_PATTERN, { message: 'must be a schedule version such as 3 or "3"' })
    .optional()
    .meta({
      description: 'the version the update expects: 3, "3" or W/"3" (409 VERSION_CONFLICT when stale)',
      example: '"3"',
    }),
});

export const schedule = z
  .object({
    key: z.string(),
    spec: z.string(),
    tz: z.string(),
    description: z.string().meta({ description: 'generated from the spec, in English' }),
    summary: z.string().nullable().meta({ description: "the user's own free text" }),
    labels: z.record(z.string(), z.string()),
    dst: dstChoice.nullable().meta({ description: 'the DST choice in force; null for @every and @at' }),
    exclude: z.array(z.string()).meta({ description: 'calendars whose dates skip an occurrence' }),
    businessDays: businessDays.nullable(),
    expect: scheduleExpect
      .nullable()
      .meta({ description: 'what each occurrence must achieve; null for nothing' }),
    target,
    payload: z.unknown(),
    policies,
    startAt: instant.nullable(),
    endAt: instant.nullable(),
    maxRuns: z.number().nullable(),
    jitterMs: z.number(),
    state: z.enum(SCHEDULE_STATES),
    version: z.number(),
    nextFireAt: instant.nullable().meta({
      description:
        'when it fires next: its earliest pending run, else its next occurrence; null while paused or when none remains',
    }),
    firedCount: z
      .number()
      .meta({ description: 'runs executed to an outcome (succeeded or dead); not occurrences materialised' }),
    materializedCount: z
      .number()
      .meta({ description: 'occurrences materialised so far: what maxRuns limits' }),
    lastFiredAt: instant
      .nullable()
      .meta({ description: 'when the latest executed run started delivery; null when none yet' }),
    lastSucceededAt: instant
      .nullable()
      .meta({ description: 'when a run last succeeded; null when none yet' }),
    note: z.string().nullable().meta({ description: 'the note given when it was paused' }),
    pausedUntil: instant
      .nullable()
      .meta({ description: 'a timed pause resumes by itself at this instant; null otherwise' }),
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: 'Schedule' });

export const listSchedulesQuery = z
  .object({
    state: z.enum(SCHEDULE_STATES).optional(),
    target: z.enum(TARGET_KINDS).optional(),
    keyPrefix: z.string().min(1).max(200).optional(),
    label: z
      .union([z.string().min(1).max(300), z.array(z.string().min(1).max(300)).max(LABELS_MAX)])
      .optional()
      .meta({
        description: 'key:value; repeat it to require several labels (all must match)',
        example: 'jobType:email',
      }),
    cursor,
    limit,
  })
  .strict();

export const pauseBody = optionalBody(
  z
    .object({
      cancelPending: z.boolean().optional().meta({ description: 'also cancel the runs already scheduled' }),
      note: z.string().max(1000).optional(),
      until: z.union([instantInput, z.number().int()]).optional().meta({
        description: 'a timed pause: the schedule resumes by itself at this instant (in the future)',
      }),
    })
    .strict(),
);

export const emptyBody = optionalBody(z.object({}).strict());

export const triggerBody = optionalBody(
  z
    .object({
      payload: z.unknown().optional().meta({ description: "replaces the schedule's payload for this run" }),
    })
    .strict(),
);

export const backfillBody = z.object({ from: instantInput, to: instantInput }).strict();
