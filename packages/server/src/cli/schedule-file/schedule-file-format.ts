// The schedules file's shape, named once: its top-level sections and the fields of one schedule entry (those
// of the API's PUT body, plus `key`). `punctual apply` reads it, `punctual export` and `punctual import
// crontab` write it. It holds no logic and must never do I/O.

/** The top-level sections a schedules file may have. Any other is refused (FILE_SECTION_UNKNOWN). */
export const SCHEDULE_FILE_SECTIONS = ['schedules'] as const;

/** The fields of one entry of `schedules:`, in the order a written file gives them. */
export const SCHEDULE_ENTRY_FIELDS = [
  'key',
  'summary',
  'spec',
  'tz',
  'target',
  'payload',
  'policies',
  'startAt',
  'endAt',
  'maxRuns',
  'jitter',
  'labels',
  'expect',
  'state',
] as const;

export type ScheduleEntryField = (typeof SCHEDULE_ENTRY_FIELDS)[number];

/** One schedule as a file gives it: the PUT body's fields and the key. */
export type ScheduleEntry = { key: string } & Partial<Record<Exclude<ScheduleEntryField, 'key'>, unknown>>;

/** A whole schedules file. */
export interface ScheduleFile {
  schedules: ScheduleEntry[];
}

export type ScheduleFileFormat = 'yaml' | 'json';
