// The run routes' shapes in zod: a run and its attempts (with the error details a target kept, capped by
// error-details-view.ts), the listing queries, and the rerun of a range. Shape only: it must never hold
// logic beyond shape.

import { RERUNNABLE_STATES } from 'punctual';
import { z } from 'zod';
import {
  ERROR_LOGS_MAX_CHARS,
  ERROR_OUTPUT_MAX_CHARS,
  ERROR_OTHER_DETAILS_MAX_CHARS,
  ERROR_STACK_MAX_CHARS,
} from '../error-details-view.js';
import { cursor, instant, instantInput, limit, scheduleKey } from './common.js';

const RUN_STATES = ['scheduled', 'running', 'succeeded', 'dead', 'skipped', 'expired', 'cancelled'] as const;
const RUN_KINDS = ['scheduled', 'manual', 'backfill'] as const;

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
    stdout: z
      .string()
      .optional()
      .meta({
        description: `the end of a command's standard output (its last ${ERROR_OUTPUT_MAX_CHARS} characters shown)`,
      }),
    stderr: z
      .string()
      .optional()
      .meta({
        description: `the end of a command's standard error (its last ${ERROR_OUTPUT_MAX_CHARS} characters shown)`,
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
