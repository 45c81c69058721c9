// Wires `punctual calendars ...` (a tenant's calendars through the HTTP API: ls, get, put, import, rm,
// revisions, rollback) to commander. No command logic lives here: each action calls a command function with
// (args, io) and hands its exit code back.

import type { Command } from 'commander';
import {
  calendarsGet,
  calendarsImport,
  calendarsList,
  calendarsPut,
  calendarsRemove,
} from './commands/calendars.js';
import { calendarsRevisions, calendarsRollback } from './commands/calendars-history.js';
import { args, client, type ClientOptions } from './client-command.js';
import type { Wiring } from './register-admin.js';

export function registerCalendars(program: Command, w: Wiring): void {
  const calendars = program
    .command('calendars')
    .description(
      "a tenant's calendars (dates schedules exclude or keep to as working days), through the HTTP API",
    );
  client(calendars.command('ls').description('list calendars')).action(async (o: ClientOptions) =>
    w.exit(await calendarsList(args(w.env, o), w.io)),
  );
  client(
    calendars.command('get').description('show a calendar: its dates with labels').argument('<name>'),
  ).action(async (name: string, o: ClientOptions) =>
    w.exit(await calendarsGet({ ...args(w.env, o), name }, w.io)),
  );
  type CalendarOpts = ClientOptions & { tz?: string; workingDays?: string };
  const fileOptions = (cmd: Command): Command =>
    cmd
      .option('--tz <zone>', 'IANA zone of the dates')
      .option('--working-days <days>', 'the working days, such as mon,tue,wed,thu,fri');
  client(
    fileOptions(
      calendars
        .command('put')
        .description('create or replace a calendar from a file (.json: its fields; .ics: its all-day events)')
        .argument('<name>')
        .argument('<file>'),
    ),
  ).action(async (name: string, file: string, o: CalendarOpts) =>
    w.exit(await calendarsPut({ ...args(w.env, o), name, file }, w.io)),
  );
  client(
    fileOptions(
      calendars
        .command('import')
        .description("create or replace a calendar from an .ics file's all-day events (labels from SUMMARY)")
        .argument('<name>')
        .argument('<file.ics>'),
    ),
  ).action(async (name: string, file: string, o: CalendarOpts) =>
    w.exit(await calendarsImport({ ...args(w.env, o), name, file }, w.io)),
  );
  client(
    calendars
      .command('rm')
      .description('delete a calendar (refused while a schedule uses it; its revisions are kept)')
      .argument('<name>'),
  ).action(async (name: string, o: ClientOptions) =>
    w.exit(await calendarsRemove({ ...args(w.env, o), name }, w.io)),
  );
  client(
    calendars
      .command('revisions')
      .description("a calendar's revisions, newest first: who added or removed which dates, when")
      .argument('<name>')
      .option('--limit <n>', '1 to 1000 (default 100)')
      .option('--cursor <cursor>', 'the next page (printed after a full page)'),
  ).action(async (name: string, o: ClientOptions & { limit?: string; cursor?: string }) =>
    w.exit(await calendarsRevisions({ ...args(w.env, o), name }, w.io)),
  );
  client(
    calendars
      .command('rollback')
      .description("restore an earlier version's exact dates as a new version (schedules using it re-plan)")
      .argument('<name>')
      .argument('<version>'),
  ).action(async (name: string, version: string, o: ClientOptions) =>
    w.exit(await calendarsRollback({ ...args(w.env, o), name, version }, w.io)),
  );
}
