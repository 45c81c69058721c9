// `punctual calendars revisions <name>` and `calendars rollback <name> <version>`: a calendar's revisions
// (dates added and removed with their labels, working days, zone, description) and the rollback to an
// earlier version, through a running service's HTTP API. It owns the lines a calendar diff prints; the page
// printing and the rollback call are the schedules' (schedules-history.ts).

import { seg, type ClientArgs } from '../http-client.js';
import type { CliIo } from '../io.js';
import type { CalendarJson } from './calendars.js';
import { diffLines, printRevisions, rollbackTo, type RevisionJson } from './schedules-history.js';

type CalendarDate = { start: string; end: string; label: string | null };

interface CalendarRevisionJson extends RevisionJson {
  diff: {
    dates?: { added: CalendarDate[]; removed: CalendarDate[] };
    workingDays?: { from: unknown; to: unknown };
    tz?: { from: unknown; to: unknown };
    description?: { from: unknown; to: unknown };
  };
}

export interface CalendarsRevisionsArgs extends ClientArgs {
  name: string;
  limit?: string | number | undefined;
  cursor?: string | undefined;
}

export interface CalendarsRollbackArgs extends ClientArgs {
  name: string;
  version?: string | number | undefined;
}

/** A date or range as one word: `2026-12-24` or `2026-12-24..2026-12-26`, then its label. */
export function dateText(d: CalendarDate): string {
  const days = d.start === d.end ? d.start : `${d.start}..${d.end}`;
  return d.label === null ? days : `${days} ${d.label}`;
}

/** `+ date` per date added, `- date` per date removed, then `field: from -> to` for the other parts. */
export function calendarDiffLines(diff: CalendarRevisionJson['diff'], indent = '    '): string {
  const { dates, ...rest } = diff;
  const lines = [
    ...(dates?.added ?? []).map((d) => `${indent}+ ${dateText(d)}\n`),
    ...(dates?.removed ?? []).map((d) => `${indent}- ${dateText(d)}\n`),
  ];
  return lines.join('') + diffLines(rest, indent);
}

export function calendarsRevisions(args: CalendarsRevisionsArgs, io: CliIo): Promise<number> {
  return printRevisions<CalendarRevisionJson>(args, io, {
    path: `/v1/calendars/${seg(args.name)}/revisions`,
    diffText: (r) => calendarDiffLines(r.diff),
  });
}

export function calendarsRollback(args: CalendarsRollbackArgs, io: CliIo): Promise<number> {
  return rollbackTo<{ calendar: CalendarJson; changed: boolean }>(args, io, {
    what: `calendar ${args.name}`,
    path: `/v1/calendars/${seg(args.name)}/rollback`,
    versionOf: (b) => b.calendar.version,
  });
}
