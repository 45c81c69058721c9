// The calendar routes' shapes in zod, and the calendar parts of a schedule and a preview (`exclude`,
// `businessDays`). Lists of names (weekdays, roll modes) come from the library. Shape only: the library
// judges dates, ranges and sizes (CALENDAR_* codes).

import { CALENDAR_LABEL_MAX, CALENDAR_MAX_DATES, EXCLUDE_MAX, ROLL_MODES, WEEKDAYS } from 'punctual';
import { z } from 'zod';
import { instant } from './common.js';

export const calendarName = z.string().min(1).max(100).meta({
  description: '1-100 letters, digits and . _ - (starting with a letter or digit)',
  example: 'de-holidays',
});

export const calendarParams = z.object({ name: calendarName }).strict();

const day = z.string().meta({ description: 'a date YYYY-MM-DD in the calendar zone', example: '2026-12-25' });

export const calendarDateInput = z.union([
  day,
  z
    .object({
      start: day,
      end: day.optional().meta({ description: 'the last day, inclusive (default: start)' }),
      label: z.string().max(CALENDAR_LABEL_MAX).nullable().optional(),
    })
    .strict(),
]);

export const calendarDate = z
  .object({ start: day, end: day.meta({ description: 'inclusive' }), label: z.string().nullable() })
  .meta({ id: 'CalendarDate' });

const workingDays = z
  .array(z.enum(WEEKDAYS))
  .nullable()
  .optional()
  .meta({
    description: 'the working days of the week; omitted or null: every day',
    example: ['mon', 'tue', 'wed', 'thu', 'fri'],
  });

export const putCalendarBody = z
  .object({
    tz: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .meta({ description: 'IANA zone of the dates (default UTC)', example: 'Europe/Berlin' }),
    dates: z.array(calendarDateInput).max(CALENDAR_MAX_DATES).optional(),
    workingDays,
    description: z.string().nullable().optional(),
  })
  .strict()
  .meta({ id: 'PutCalendar' });

export const importCalendarBody = z
  .object({
    ics: z
      .string()
      .meta({ description: 'the text of an .ics file (at most 1 MiB); its all-day events become dates' }),
    tz: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .meta({ description: "default: the feed's X-WR-TIMEZONE, else UTC" }),
    workingDays,
    description: z.string().nullable().optional(),
    horizonYears: z
      .number()
      .int()
      .min(0)
      .max(50)
      .optional()
      .meta({ description: 'yearly events are expanded this many years ahead (default 5)' }),
  })
  .strict()
  .meta({ id: 'ImportCalendar' });

export const calendar = z
  .object({
    name: z.string(),
    tz: z.string(),
    dates: z.array(calendarDate),
    workingDays: z.array(z.enum(WEEKDAYS)).nullable(),
    description: z.string().nullable(),
    version: z.number(),
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: 'Calendar' });

export const calendarDetail = calendar
  .extend({
    usedBy: z.array(z.string()).meta({
      description: 'the keys of up to 10 schedules (by key) whose exclude or businessDays names the calendar',
    }),
  })
  .meta({ id: 'CalendarDetail' });

export const calendarImportResult = calendar
  .extend({
    skipped: z
      .array(z.object({ summary: z.string().nullable(), why: z.string() }))
      .meta({ description: 'events left out: a time of day, a recurrence other than yearly' }),
  })
  .meta({ id: 'CalendarImport' });

export const calendarList = z.object({ items: z.array(calendar) }).meta({ id: 'CalendarList' });

/** A schedule's (or a preview's) `exclude`: calendar names. */
export const excludeInput = z
  .array(z.string())
  .max(EXCLUDE_MAX)
  .nullable()
  .optional()
  .meta({
    description: 'calendars whose dates skip an occurrence (recorded as skipped, reason calendar)',
    example: ['de-holidays'],
  });

export const businessDays = z.object({ calendar: z.string(), roll: z.enum(ROLL_MODES) }).meta({
  id: 'BusinessDays',
  description:
    'keep to the working days of a calendar: skip, or roll to the next / previous working day at the same local time',
});

export const businessDaysInput = z
  .object({ calendar: z.string(), roll: z.enum(ROLL_MODES).optional().meta({ description: 'default skip' }) })
  .strict()
  .nullable()
  .optional()
  .meta({
    description:
      'keep to the working days of a calendar: skip, or roll to the next / previous working day at the same local time',
  });
