// The API's shapes, written once in zod: they validate requests (bodies are strict, so an unknown field is a
// 400) and generate the OpenAPI document and response serialisation. Types only where the library is the
// authority on ranges (it answers with the failing field). It must never hold logic beyond shape, nor
// expose internal ids or secrets other than the tenant's own webhook secret.

import {
  ID_TEMPLATE_PLACEHOLDERS,
  LABEL_VALUE_MAX,
  LABELS_MAX,
  RERUNNABLE_STATES,
  SUMMARY_MAX,
  TARGET_KINDS,
} from 'punctual';
import { z } from 'zod';
import {
  ERROR_LOGS_MAX_CHARS,
  ERROR_OTHER_DETAILS_MAX_CHARS,
  ERROR_STACK_MAX_CHARS,
} from './error-details-view.js';
import { instantMessage, targetMessage } from './input-messages.js';

// ── building blocks ────────────────────────────────────────────────────────────────────────────────────

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

const RUN_STATES = ['scheduled', 'running', 'succeeded', 'dead', 'skipped', 'expired', 'cancelled'] as const;
const RUN_KINDS = ['scheduled', 'manual', 'backfill'] as const;
export const SCHEDULE_STATES = ['active', 'paused', 'completed'] as const;
const OVERLAPS = ['allow', 'skip', 'bufferOne', 'bufferAll', 'cancelPrevious'] as const;
const MISFIRES = ['skip', 'runOnce', 'runAll'] as const;

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

/** A page of items and the cursor of the next page (null on the last). */
export function page<T extends z.ZodType>(
  item: T,
): z.ZodObject<{ items: z.ZodArray<T>; nextCursor: z.ZodNullable<z.ZodString> }> {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

/** A body a client may leave out: absent (or `null`) reads as `{}`. */
function optionalBody<T extends z.ZodObject>(schema: T) {
  return schema
    .nullable()
    .transform((v) => v ?? ({} as z.output<T>))
    .meta({ optionalBody: true });
}

// ── schedules ──────────────────────────────────────────────────────────────────────────────────────────

/** A message id template; the library checks the placeholders (ID_TEMPLATE_INVALID). */
const idTemplate = z
  .string()
  .optional()
  .meta({
    description: `the message id as a template (default: the occurrence id); placeholders: ${ID_TEMPLATE_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`,
    example: '{key}-{scheduledForSeconds}',
  });

const webhook = z
  .object({
    url: z.string().min(1).max(2048),
    method: z.enum(['POST', 'PUT', 'PATCH']).optional(),
    headers: z.record(z.string().max(256), z.string().max(4096)).optional(),
    timeoutMs: z.number().int().optional(),
    idTemplate,
  })
  .strict();

/** A broker name (connection, stream, subject, exchange, routing key); the driver checks the rest. */
const brokerName = z.string().min(1).max(200);

const redis = z
  .object({
    connection: brokerName.meta({ description: "the operator's redis connection" }),
    stream: brokerName,
    maxLen: z.number().int().optional().meta({ description: 'trim with MAXLEN ~ n (1 to 1e9)' }),
    idTemplate,
  })
  .strict();
const nats = z
  .object({
    connection: brokerName.meta({ description: "the operator's nats connection" }),
    subject: brokerName,
    idTemplate,
  })
  .strict();
const amqp = z
  .object({
    connection: brokerName.meta({ description: "the operator's amqp connection" }),
    exchange: brokerName.optional().meta({ description: 'default: the default exchange' }),
    routingKey: brokerName,
    idTemplate,
  })
  .strict();
const script = z
  .object({
    source: z.string().min(1).meta({
      description: 'an ES module whose default export is called with ctx; compiled when saved',
      example: 'export default (ctx) => ctx.payload',
    }),
    timeoutMs: z
      .number()
      .int()
      .optional()
      .meta({ description: "wall time of a run (up to the operator's maximum)" }),
    memoryMb: z
      .number()
      .int()
      .optional()
      .meta({ description: "memory of a run (up to the operator's maximum)" }),
  })
  .strict();

/** Each kind's shape, by the library's kind names; the union below lists them in TARGET_KINDS order. */
const targetShapes = {
  handler: z.object({ handler: z.string().min(1).max(200) }).strict(),
  webhook: z.object({ webhook }).strict(),
  redis: z.object({ redis }).strict(),
  nats: z.object({ nats }).strict(),
  amqp: z.object({ amqp }).strict(),
  script: z.object({ script }).strict(),
} satisfies Record<(typeof TARGET_KINDS)[number], z.ZodObject>;

export const target = z
  .union(
    TARGET_KINDS.map((k) => targetShapes[k]) as unknown as [
      (typeof targetShapes)['handler'],
      ...(typeof targetShapes)[(typeof TARGET_KINDS)[number]][],
    ],
    { error: targetMessage },
  )
  .meta({
    id: 'Target',
    description:
      'exactly one of { "handler": name }, { "webhook": { url, ... } }, { "redis" | "nats" | "amqp": ' +
      '{ connection, ... } } (a connection the operator configured) or { "script": { source, ... } }',
  });

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

// ── runs ───────────────────────────────────────────────────────────────────────────────────────────────

const runErrorDetails = z
  .object({
    logs: z
      .array(z.string())
      .optional()
      .meta({
        description: `a script's log lines (at most ${ERROR_LOGS_MAX_CHARS} characters shown; a last line counts the rest)`,
      }),
    stack: z
      .string()
      .optional()
      .meta({
        description: `a failed script's stack (at most ${ERROR_STACK_MAX_CHARS} characters); other stacks stay in the service's log`,
      }),
  })
  .catchall(z.unknown())
  .meta({
    id: 'RunErrorDetails',
    description:
      `what the target kept beside the message; other fields over ${ERROR_OTHER_DETAILS_MAX_CHARS} characters of JSON ` +
      'are replaced by { omitted: <characters> }',
  });

const runError = z
  .object({ code: z.string().optional(), message: z.string(), details: runErrorDetails.optional() })
  .nullable();

export const run = z
  .object({
    id: z.string(),
    scheduleKey: z.string(),
    occurrenceId: z.string(),
    kind: z.enum(RUN_KINDS),
    state: z.enum(RUN_STATES),
    scheduledFor: instant,
    dueAt: instant,
    expiresAt: instant.nullable(),
    startedAt: instant.nullable(),
    finishedAt: instant.nullable(),
    attempt: z.number(),
    maxAttempts: z.number(),
    checks: z.number(),
    reason: z.string().nullable(),
    error: runError,
    result: z.unknown(),
    details: z.unknown(),
    createdAt: instant,
  })
  .meta({ id: 'Run' });

export const attempt = z
  .object({
    attempt: z.number(),
    startedAt: instant,
    finishedAt: instant,
    outcome: z.string(),
    error: runError,
    result: z.unknown(),
  })
  .meta({ id: 'Attempt' });

export const runDetail = run.extend({ attempts: z.array(attempt) }).meta({ id: 'RunDetail' });

export const runParams = z.object({ id: z.string().min(1).max(64) }).strict();

export const listRunsQuery = z
  .object({
    state: z.enum(RUN_STATES).optional(),
    scheduleKey: scheduleKey.optional(),
    from: instantInput.optional().meta({ description: 'scheduledFor at or after this instant' }),
    to: instantInput.optional().meta({ description: 'scheduledFor before this instant' }),
    cursor,
    limit,
  })
  .strict();

export const scheduleRunsQuery = listRunsQuery.omit({ scheduleKey: true });

// ── preview and tenant ─────────────────────────────────────────────────────────────────────────────────

export const previewBody = z
  .object({
    spec: z.string().min(1).max(4096),
    tz: z.string().min(1).max(64).optional(),
    from: instantInput.optional().meta({
      description:
        'as if saved at this instant (default now): occurrences at or after it; an @every without startAt is anchored here, so it starts at from + interval',
    }),
    count: z.number().int().min(1).max(1000).optional().meta({ description: 'default 5' }),
  })
  .strict();

export const previewResult = z
  .object({ description: z.string(), next: z.array(instant) })
  .meta({ id: 'Preview' });

export const tenant = z
  .object({
    name: z.string(),
    state: z.enum(['active', 'disabled']),
    quotas: z.object({
      maxSchedules: z.number().nullable(),
      maxRunsPerMinute: z.number().nullable(),
      requestsPerSecond: z.number().nullable(),
    }),
    webhookSecret: z.string().meta({ description: 'Standard Webhooks signing secret (whsec_...)' }),
    previousSecretExpiresAt: instant
      .nullable()
      .meta({ description: 'until then, webhook requests also carry a signature with the previous secret' }),
    createdAt: instant,
  })
  .meta({ id: 'Tenant' });

// ── key-value store ────────────────────────────────────────────────────────────────────────────────────

const kvKey = z.string().meta({
  description: '1-256 characters, no control characters; percent-encode it in the path',
  example: 'counters/orders',
});

export const kvParams = z.object({ key: kvKey }).strict();

export const listKvQuery = z
  .object({
    prefix: z
      .string()
      .max(256)
      .optional()
      .meta({ description: 'only keys starting with this text (literally: no wildcard)' }),
    cursor,
    limit,
  })
  .strict();

export const kvEntry = z
  .object({
    key: z.string(),
    value: z.unknown().meta({ description: 'the JSON value' }),
    updatedAt: instant,
  })
  .meta({ id: 'KvEntry' });

/** A PUT body is the value itself: any JSON (an object, array, string, number, boolean or null). */
export const kvValue = z.unknown().meta({ id: 'KvValue', description: 'any JSON value, stored as it is' });

// ── errors ─────────────────────────────────────────────────────────────────────────────────────────────

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

export const rerunBody = z
  .object({
    from: instantInput.meta({ description: 'scheduledFor at or after this instant' }),
    to: instantInput.meta({ description: 'scheduledFor before this instant' }),
    states: z
      .array(z.enum(RERUNNABLE_STATES))
      .min(1)
      .max(RERUNNABLE_STATES.length)
      .optional()
      .meta({ description: 'the states of the runs to run again (final states only; default ["dead"])' }),
  })
  .strict()
  .meta({ id: 'RerunRange' });

export const rerunResult = z
  .object({
    runs: z.array(run).meta({ description: 'the runs scheduled again, due now' }),
    refused: z
      .array(z.object({ id: z.string(), code: z.string(), message: z.string() }))
      .meta({ description: 'runs of the range left as they were (RUN_NOT_RERUNNABLE)' }),
  })
  .meta({ id: 'RerunResult' });
