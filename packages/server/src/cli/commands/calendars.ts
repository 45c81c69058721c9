// `punctual calendars ls|get|put|rm|import`: a tenant's calendars through a running service's HTTP API
// (--url, --key), and the reading of a calendar file (.json: the calendar's fields; .ics: its all-day events)
// that `preview --exclude` shares. It owns turning options into requests and answers into lines; judging
// dates and ranges is the library's work.

import { readFileSync } from 'node:fs';
import { ICS_MAX_BYTES, PunctualError, parseIcs, type CalendarInput } from 'punctual';
import { ArgumentError, EXIT_OK, type CliIo } from '../io.js';
import { seg, withClient, type ApiClient, type ClientArgs } from '../http-client.js';
import { printJson, table } from '../output.js';

export interface CalendarJson {
  name: string;
  tz: string;
  dates: { start: string; end: string; label: string | null }[];
  workingDays: string[] | null;
  description: string | null;
  version: number;
  updatedAt: string;
}

export interface CalendarNameArgs extends ClientArgs {
  name: string;
}

export interface CalendarFileArgs extends CalendarNameArgs {
  file: string;
  tz?: string | undefined;
  /** Comma-separated weekdays: mon,tue,wed,thu,fri. */
  workingDays?: string | undefined;
  /** Reads the file. Default: fs. */
  readFile?: ((path: string) => string) | undefined;
}

function read(path: string, readFile?: (path: string) => string): string {
  try {
    return (readFile ?? ((p: string) => readFileSync(p, 'utf8')))(path);
  } catch (e) {
    throw new ArgumentError(`cannot read ${path}: ${(e as Error).message}`);
  }
}

function workingDaysOf(text: string | undefined): string[] | undefined {
  return text === undefined ? undefined : text.split(',').map((d) => d.trim().toLowerCase());
}

/** True when a --exclude value names a calendar file rather than a stored calendar. */
export function isCalendarFile(value: string): boolean {
  return /\.(ics|json)$/i.test(value);
}

/**
 * A calendar from a file: .ics (its all-day events, the calendar named after the file unless `name` is
 * given) or .json (the calendar's fields: name, tz, dates, workingDays). `now` bounds yearly events.
 */
export function calendarFromFile(
  path: string,
  opts: {
    now: number;
    name?: string | undefined;
    tz?: string | undefined;
    readFile?: ((p: string) => string) | undefined;
  },
): CalendarInput {
  const text = read(path, opts.readFile);
  const base = (path.split(/[\\/]/).pop() ?? path).replace(/\.(ics|json)$/i, '');
  if (/\.ics$/i.test(path)) {
    const parsed = parseIcs(text, { from: opts.now });
    return { name: opts.name ?? base, tz: opts.tz ?? parsed.tz ?? 'UTC', dates: parsed.dates };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ArgumentError(`${path} is not JSON: ${(e as Error).message}`);
  }
  const c = (typeof json === 'object' && json !== null ? json : {}) as Partial<CalendarInput>;
  return {
    ...c,
    name: opts.name ?? c.name ?? base,
    ...(opts.tz === undefined ? {} : { tz: opts.tz }),
  } as CalendarInput;
}

/** A stored calendar, read through the API (for `preview --exclude <name>`). */
export async function fetchCalendar(api: ApiClient, name: string): Promise<CalendarInput> {
  const { body } = await api.call<CalendarJson>('GET', `/v1/calendars/${seg(name)}`);
  return {
    name: body.name,
    tz: body.tz,
    dates: body.dates,
    workingDays: body.workingDays as CalendarInput['workingDays'],
  };
}

function printCalendar(io: CliIo, c: CalendarJson): void {
  io.stdout(
    `${c.name}  ${c.tz}  version ${c.version}  working days: ${c.workingDays?.join(',') ?? 'every day'}\n`,
  );
  if (c.dates.length > 0) {
    io.stdout(
      table(
        ['START', 'END', 'LABEL'],
        c.dates.map((d) => [d.start, d.end, d.label ?? '']),
      ),
    );
  }
}

export async function calendarsList(args: ClientArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<{ items: CalendarJson[] }>('GET', '/v1/calendars');
    if (args.json === true) printJson(io, body);
    else {
      io.stdout(
        table(
          ['NAME', 'TZ', 'DATES', 'WORKING DAYS', 'VERSION', 'UPDATED'],
          body.items.map((c) => [
            c.name,
            c.tz,
            String(c.dates.length),
            c.workingDays?.join(',') ?? 'every day',
            String(c.version),
            c.updatedAt,
          ]),
        ),
      );
    }
    return EXIT_OK;
  });
}

export async function calendarsGet(args: CalendarNameArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const { body } = await api.call<CalendarJson & { usedBy?: string[] }>(
      'GET',
      `/v1/calendars/${seg(args.name)}`,
    );
    if (args.json === true) printJson(io, body);
    else {
      printCalendar(io, body);
      if (body.usedBy !== undefined && body.usedBy.length > 0)
        io.stdout(`used by: ${body.usedBy.join(', ')}${body.usedBy.length === 10 ? ', ...' : ''}\n`);
    }
    return EXIT_OK;
  });
}

export async function calendarsPut(args: CalendarFileArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const input = calendarFromFile(args.file, {
      now: io.now(),
      name: args.name,
      tz: args.tz,
      readFile: args.readFile,
    });
    const wd = workingDaysOf(args.workingDays);
    const { name: _name, ...body } = { ...input, ...(wd === undefined ? {} : { workingDays: wd }) };
    const res = await api.call<CalendarJson>('PUT', `/v1/calendars/${seg(args.name)}`, { body });
    if (args.json === true) printJson(io, res.body);
    else
      io.stdout(
        `punctual: ${res.status === 201 ? 'created' : 'saved'} calendar ${res.body.name} (version ${res.body.version}, ${res.body.dates.length} dates)\n`,
      );
    return EXIT_OK;
  });
}

export async function calendarsImport(args: CalendarFileArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    const ics = read(args.file, args.readFile);
    // Judged here too, so a file of any size gets the library's code (a body beyond the route's limit would
    // be BODY_TOO_LARGE) and is not sent.
    const bytes = Buffer.byteLength(ics, 'utf8');
    if (bytes > ICS_MAX_BYTES) {
      throw new PunctualError(
        'CALENDAR_ICS_TOO_LARGE',
        `ics: ${args.file} is ${bytes} bytes; the limit is ${ICS_MAX_BYTES}`,
        { field: 'ics', bytes, limit: ICS_MAX_BYTES },
      );
    }
    const wd = workingDaysOf(args.workingDays);
    const res = await api.call<CalendarJson & { skipped: { summary: string | null; why: string }[] }>(
      'POST',
      `/v1/calendars/${seg(args.name)}/import`,
      {
        body: {
          ics,
          ...(args.tz === undefined ? {} : { tz: args.tz }),
          ...(wd === undefined ? {} : { workingDays: wd }),
        },
      },
    );
    if (args.json === true) {
      printJson(io, res.body);
      return EXIT_OK;
    }
    io.stdout(
      `punctual: imported ${res.body.dates.length} dates into calendar ${res.body.name} (version ${res.body.version})\n`,
    );
    for (const s of res.body.skipped) io.stdout(`  left out: ${s.summary ?? '(no summary)'}: ${s.why}\n`);
    return EXIT_OK;
  });
}

export async function calendarsRemove(args: CalendarNameArgs, io: CliIo): Promise<number> {
  return withClient(args, io, async (api) => {
    await api.call('DELETE', `/v1/calendars/${seg(args.name)}`);
    if (args.json === true) printJson(io, { name: args.name, deleted: true });
    else io.stdout(`punctual: deleted calendar ${args.name}\n`);
    return EXIT_OK;
  });
}
