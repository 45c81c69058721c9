// The alerting routes' shapes in zod: alerts and their deliveries, alert channels, checks and their paths
// and queries. The lists of kinds and states are the library's (one source). Shape only.

import {
  ALERT_CHANNEL_KINDS,
  ALERT_DELIVERY_STATES,
  ALERT_KINDS,
  ALERT_STATES,
  ALERT_SUBJECT_KINDS,
  ALERT_TRANSITIONS,
  CHECK_KINDS,
} from 'punctual';
import { z } from 'zod';
import { instant, scheduleKey } from './common.js';

const alertName = z.string().meta({
  description: 'a letter or digit, then up to 127 letters, digits and . _ : -',
  example: 'ops',
});

export const alertIdParams = z.object({ id: z.string().max(20) }).strict();
export const alertNameParams = z.object({ name: alertName }).strict();

export const listAlertsQuery = z
  .object({
    state: z.enum(ALERT_STATES).optional(),
    schedule: scheduleKey.optional().meta({ description: 'only alerts about this schedule key' }),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(1000)
      .optional()
      .meta({ description: 'at most this many, newest first (default 100)' }),
  })
  .strict();

export const alert = z
  .object({
    id: z.string(),
    kind: z.enum(ALERT_KINDS),
    subjectKind: z.enum(ALERT_SUBJECT_KINDS),
    subject: z.string().meta({ description: 'the schedule key or the check name' }),
    state: z.enum(ALERT_STATES),
    openedAt: instant,
    resolvedAt: instant.nullable(),
    summary: z.string(),
    details: z.unknown().meta({ description: 'what the condition saw (run id, last heartbeat...)' }),
  })
  .meta({ id: 'Alert' });

export const alertDelivery = z
  .object({
    id: z.string(),
    channel: z.string(),
    transition: z.enum(ALERT_TRANSITIONS),
    state: z.enum(ALERT_DELIVERY_STATES),
    attempts: z.number().int(),
    nextAttemptAt: instant.nullable(),
    deliveredAt: instant.nullable(),
    lastError: z.string().nullable(),
    createdAt: instant,
  })
  .meta({ id: 'AlertDelivery' });

export const alertDetail = z
  .object({ alert, deliveries: z.array(alertDelivery) })
  .meta({ id: 'AlertDetail' });

export const alertList = z.object({ items: z.array(alert) });

export const alertChannelBody = z
  .object({
    kind: z.enum(ALERT_CHANNEL_KINDS),
    url: z.string().max(2048).meta({ description: 'absolute http(s) URL the transitions are POSTed to' }),
    routingKey: z
      .string()
      .max(128)
      .nullable()
      .optional()
      .meta({ description: 'the Events API v2 routing key (pagerduty channels only)' }),
  })
  .strict()
  .meta({ id: 'AlertChannelBody' });

export const alertChannel = z
  .object({
    name: z.string(),
    kind: z.enum(ALERT_CHANNEL_KINDS),
    url: z.string(),
    routingKey: z.string().nullable(),
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: 'AlertChannel' });

export const alertChannelList = z.object({ items: z.array(alertChannel) });

export const checkBody = z
  .object({
    kind: z.enum(CHECK_KINDS),
    every: z.string().max(64).optional().meta({
      description: 'heartbeat: a heartbeat must arrive at least this often (duration, at least 1s)',
      example: '10m',
    }),
    schedule: z.string().max(200).optional().meta({
      description: 'deadline: the key of the schedule a run of which must succeed in each window',
      example: 'reports.daily',
    }),
    spec: z.string().max(4096).optional().meta({
      description: 'deadline: a cron line or RRULE; each instant opens a window',
      example: '0 9 * * 1-5',
    }),
    tz: z.string().max(64).optional().meta({
      description: 'deadline: the IANA zone the spec is read in (default UTC)',
      example: 'Europe/Paris',
    }),
    within: z.string().max(64).optional().meta({
      description:
        'deadline: how long each window stays open (above zero, at most the gap between two windows)',
      example: '15m',
    }),
  })
  .strict()
  .meta({
    id: 'CheckBody',
    description:
      'a heartbeat check takes `every`; a deadline check takes `schedule`, `spec`, `tz` and `within` (CHECK_INVALID for a field of the other kind, CHECK_DEADLINE_UNMEETABLE for a deadline that can never be met)',
  });

export const checkDeadline = z
  .object({
    schedule: z.string(),
    spec: z.string(),
    tz: z.string(),
    withinMs: z.number().int(),
  })
  .meta({ id: 'CheckDeadline' });

export const check = z
  .object({
    name: z.string(),
    kind: z.enum(CHECK_KINDS),
    everyMs: z.number().int().nullable().meta({ description: 'heartbeat checks; null for a deadline check' }),
    deadline: checkDeadline.nullable().meta({ description: 'deadline checks; null for a heartbeat check' }),
    windowStart: instant
      .nullable()
      .meta({ description: 'deadline checks: the start of the window watched (judged at its close)' }),
    lastBeatAt: instant.nullable(),
    nextCheckAt: instant.nullable().meta({
      description:
        "when it is judged next: a heartbeat's due instant (null while its alert is open), a deadline window's close (null when its spec opens no more)",
    }),
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: 'Check' });

export const checkList = z.object({ items: z.array(check) });
