// The shapes of a calendar's history in zod: one revision (who, when, which change, the diff of dates added
// and removed, working days, zone, description), one version with its full content, and the rollback's
// answer. The list of changes comes from the library. Shape only: no internal ids (sequence numbers).

import { CALENDAR_REVISION_CHANGES, WEEKDAYS } from 'punctual';
import { z } from 'zod';
import { calendar, calendarDate, calendarName } from './calendars.js';
import { instant, rollbackChanged, versionParam } from './common.js';

const weekdays = z.array(z.enum(WEEKDAYS)).nullable();
const text = z.string().nullable();

export const calendarDiff = z
  .object({
    dates: z
      .object({ added: z.array(calendarDate), removed: z.array(calendarDate) })
      .optional()
      .meta({ description: 'dates and ranges, with their labels, in one version only; a relabel is both' }),
    workingDays: z.object({ from: weekdays, to: weekdays }).optional(),
    tz: z.object({ from: text, to: text }).optional(),
    description: z.object({ from: text, to: text }).optional(),
  })
  .meta({ id: 'CalendarDiff', description: 'only the parts that differ from the version before' });

export const calendarRevision = z
  .object({
    name: z.string(),
    version: z.number().meta({ description: 'the version after the change (a delete: the version deleted)' }),
    at: instant,
    actor: z
      .string()
      .nullable()
      .meta({ description: 'who made it: apiKey:<id> (with the key name), library...' }),
    change: z.enum(CALENDAR_REVISION_CHANGES),
    fromVersion: z.number().nullable().meta({ description: 'the version a rollback restored' }),
    diff: calendarDiff,
  })
  .meta({ id: 'CalendarRevision' });

export const calendarRevisionDetail = calendarRevision
  .extend({
    content: z
      .object({
        tz: z.string(),
        dates: z.array(calendarDate),
        workingDays: weekdays,
        description: text,
      })
      .meta({ description: 'the full content of that version: what a rollback restores' }),
  })
  .meta({ id: 'CalendarRevisionDetail' });

export const calendarRevisionParams = z
  .object({
    name: calendarName,
    version: versionParam,
  })
  .strict();

export const calendarRollbackResult = z
  .object({
    calendar,
    changed: rollbackChanged,
    fromVersion: z.number(),
  })
  .meta({ id: 'CalendarRollbackResult' });
