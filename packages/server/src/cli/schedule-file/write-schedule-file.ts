// Writes a schedules file's text, YAML or JSON, with each entry's fields in the one order of
// schedule-file-format.ts and an optional comment at the top (YAML only: JSON has no comments). Used by
// `punctual export` and `punctual import crontab`; it does no I/O.

import { Document } from 'yaml';
import {
  SCHEDULE_ENTRY_FIELDS,
  type ScheduleEntry,
  type ScheduleFileFormat,
} from './schedule-file-format.js';

function ordered(entry: ScheduleEntry): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of SCHEDULE_ENTRY_FIELDS) if (entry[f] !== undefined) out[f] = entry[f];
  return out;
}

/** The text of a schedules file holding `entries`; `comment` (lines) heads a YAML file. */
export function writeScheduleFile(
  entries: readonly ScheduleEntry[],
  format: ScheduleFileFormat,
  comment?: string,
): string {
  const file = { schedules: entries.map(ordered) };
  if (format === 'json') return `${JSON.stringify(file, null, 2)}\n`;
  const doc = new Document(file);
  if (comment !== undefined && comment !== '') {
    doc.commentBefore = comment
      .split('\n')
      .map((l) => (l === '' ? '' : ` ${l}`))
      .join('\n');
  }
  return doc.toString({ lineWidth: 0 });
}
