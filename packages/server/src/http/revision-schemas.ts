// The API's shapes for changing schedules without fear: a schedule's revisions (history), one revision with
// its full content, the rollback request and answer, and the dry run of a put. Lists of names come from the
// library. It must never hold logic beyond shape, nor expose internal ids (schedule ids, sequence numbers).

import { occurrenceOverride } from './schemas/overrides.js';
import { DIFF_FIELDS, REVISION_CHANGES } from 'punctual';
import { z } from 'zod';
import * as s from './schemas.js';

const change = z.object({ from: z.unknown(), to: z.unknown() });

export const scheduleDiff = z
  .partialRecord(z.enum([...DIFF_FIELDS, 'state']), change)
  .meta({ id: 'ScheduleDiff', description: 'field -> {from, to}: only the fields that differ' });

/** The normalised content a version holds: what a rollback restores. */
export const revisionContent = z
  .object({
    spec: z.string(),
    specKind: z.string(),
    tz: z.string(),
    description: z.string(),
    summary: z.string().nullable(),
    labels: z.record(z.string(), z.string()),
    dst: s.dstChoice
      .nullable()
      .meta({ description: 'the DST choice of that version; null for the defaults' }),
    calendarRules: z
      .object({ exclude: z.array(z.string()), businessDays: s.businessDays.nullable() })
      .nullable()
      .meta({ description: 'the calendars of that version (exclude, businessDays); null for none' }),
    expect: s.scheduleExpect
      .nullable()
      .meta({ description: 'the expectation of that version; null for none' }),
    target: s.target,
    payload: z.unknown(),
    policies: s.policies,
    startAt: s.instant.nullable(),
    endAt: s.instant.nullable(),
    maxRuns: z.number().nullable(),
    jitterMs: z.number(),
  })
  .meta({ id: 'RevisionContent' });

export const revision = z
  .object({
    key: z.string(),
    version: z.number().meta({ description: 'the version after the change (pause, resume, delete keep it)' }),
    at: s.instant,
    actor: z
      .string()
      .nullable()
      .meta({ description: 'who made it: apiKey:<id> (with the key name), library, declared...' }),
    change: z.enum(REVISION_CHANGES),
    fromVersion: z.number().nullable().meta({ description: 'the version a rollback restored' }),
    state: z.enum([...s.SCHEDULE_STATES, 'deleted']),
    diff: scheduleDiff,
  })
  .meta({ id: 'Revision' });

export const revisionDetail = revision.extend({ content: revisionContent }).meta({ id: 'RevisionDetail' });

export const revisionParams = z
  .object({
    key: s.scheduleKey,
    version: s.versionParam,
  })
  .strict();

export const revisionsQuery = z.object({ cursor: s.cursor, limit: s.limit }).strict();

export const rollbackBody = z.object({ version: s.versionNumber }).strict();

export const rollbackResult = z
  .object({
    schedule: s.schedule,
    changed: s.rollbackChanged,
    fromVersion: z.number(),
  })
  .meta({ id: 'RollbackResult' });

export const putScheduleQuery = z
  .object({
    dryRun: z
      .enum(['true', 'false'])
      .optional()
      .meta({ description: 'true: answer what the put would do, writing nothing' }),
  })
  .strict();

export const dryRunResult = z
  .object({
    dryRun: z.literal(true),
    outcome: z.enum(['created', 'updated', 'unchanged']),
    currentVersion: z.number().nullable(),
    nextVersion: z.number(),
    diff: scheduleDiff,
    nextBefore: z.array(s.instant).meta({ description: 'the next 10 fire times of the stored schedule' }),
    nextAfter: z.array(s.instant).meta({ description: 'the next 10 fire times after the change' }),
    cancelled: z
      .array(z.object({ id: z.string(), scheduledFor: s.instant }))
      .meta({ description: 'the pending runs the change would cancel (reason updated)' }),
    cancelledTruncated: z.boolean(),
    droppedOverrides: z
      .array(occurrenceOverride)
      .meta({ description: 'the occurrence overrides the change would drop (their occurrences are gone)' }),
  })
  .meta({ id: 'DryRun' });
