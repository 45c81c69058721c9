// Wires the commands that talk to a running service (schedules, runs) to commander. Every one takes --url
// (default PUNCTUAL_URL or http://127.0.0.1:8080), --key (default PUNCTUAL_API_KEY) and --json. No command
// logic lives here: each action calls a command function with (args, io) and hands its exit code back.

import type { Command } from 'commander';
import { runsGet, runsList } from './commands/runs.js';
import {
  schedulesGet,
  schedulesList,
  schedulesPause,
  schedulesPut,
  schedulesRemove,
  schedulesResume,
  schedulesTrigger,
} from './commands/schedules.js';
import type { Wiring } from './register-admin.js';

type Common = { url?: string; key?: string; json?: boolean };

/** Commander's options as a command's arguments: --key is the API key (`key` is a schedule's). */
function args<T extends Common>(
  env: Wiring['env'],
  o: T,
): Omit<T, 'key'> & { env: Wiring['env']; apiKey?: string } {
  const { key, ...rest } = o;
  return { ...rest, env, ...(key === undefined ? {} : { apiKey: key }) };
}

function client(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'the service (default: PUNCTUAL_URL or http://127.0.0.1:8080)')
    .option('--key <key>', 'an API key (default: PUNCTUAL_API_KEY)')
    .option('--json', "print the API's JSON");
}

export function registerClient(program: Command, w: Wiring): void {
  const schedules = program.command('schedules').description("a tenant's schedules, through the HTTP API");
  client(schedules.command('ls').description('list schedules, ordered by key'))
    .option('--state <state>', 'active, paused or completed')
    .option('--prefix <prefix>', 'only keys starting with this')
    .option('--target <kind>', 'only this target kind (handler, webhook, ...)')
    .option('--limit <n>', '1 to 1000 (default 100)')
    .option('--cursor <cursor>', 'the next page (printed after a full page)')
    .action(async (o: Common) => w.exit(await schedulesList(args(w.env, o), w.io)));
  client(schedules.command('get').description('show a schedule').argument('<key>')).action(
    async (key: string, o: Common) => w.exit(await schedulesGet({ ...args(w.env, o), key }, w.io)),
  );
  client(
    schedules
      .command('put')
      .description('create or update the schedule with this key')
      .argument('<key>')
      .option('--spec <spec>', "when: a cron line, RRULE, '@every 1h', '@at ...' or '@in 10m'")
      .option('--tz <zone>', 'IANA time zone the spec is read in (default UTC)')
      .option('--webhook <url>', 'deliver to this URL (signed)')
      .option('--handler <name>', 'deliver to this in-process handler')
      .option('--payload <json>', 'the JSON handed to the target')
      .option('--file <path>', 'a JSON body (spec, target, policies, startAt, ...); the options override it')
      .option('--if-match <version>', 'refuse (VERSION_CONFLICT) unless the stored version is this')
      .addHelpText(
        'after',
        `\nExample:\n  punctual schedules put reports.daily --spec '0 9 * * 1-5' --tz Europe/Paris \\\n    --webhook https://example.com/hooks/report --payload '{"report":"daily"}'`,
      ),
  ).action(async (key: string, o: Common & Record<string, string>) =>
    w.exit(await schedulesPut({ ...args(w.env, o), key }, w.io)),
  );
  client(
    schedules.command('rm').description('delete a schedule (its history is kept)').argument('<key>'),
  ).action(async (key: string, o: Common) => w.exit(await schedulesRemove({ ...args(w.env, o), key }, w.io)));
  client(
    schedules
      .command('pause')
      .description('pause a schedule: occurrences while paused are recorded as skipped')
      .argument('<key>')
      .option('--cancel-pending', 'also cancel the runs already scheduled')
      .option('--note <text>', 'why (shown on the schedule)'),
  ).action(async (key: string, o: Common & { cancelPending?: boolean; note?: string }) =>
    w.exit(await schedulesPause({ ...args(w.env, o), key }, w.io)),
  );
  client(
    schedules.command('resume').description('resume a paused schedule from now on').argument('<key>'),
  ).action(async (key: string, o: Common) => w.exit(await schedulesResume({ ...args(w.env, o), key }, w.io)));
  client(
    schedules
      .command('trigger')
      .description('run a schedule now (one manual run)')
      .argument('<key>')
      .option('--payload <json>', "replaces the schedule's payload for this run"),
  ).action(async (key: string, o: Common & { payload?: string }) =>
    w.exit(await schedulesTrigger({ ...args(w.env, o), key }, w.io)),
  );

  const runs = program.command('runs').description("a tenant's runs, through the HTTP API");
  client(runs.command('ls').description('list runs, newest first'))
    .option('--schedule <key>', "only this schedule's runs")
    .option('--state <state>', 'scheduled, running, succeeded, dead, skipped, expired or cancelled')
    .option('--from <instant>', 'scheduled at or after (ISO-8601 with Z or an offset)')
    .option('--to <instant>', 'scheduled before')
    .option('--limit <n>', '1 to 1000 (default 100)')
    .option('--cursor <cursor>', 'the next page (printed after a full page)')
    .action(async (o: Common) => w.exit(await runsList(args(w.env, o), w.io)));
  client(runs.command('get').description('show a run with its attempts').argument('<id>')).action(
    async (id: string, o: Common) => w.exit(await runsGet({ ...args(w.env, o), id }, w.io)),
  );
}
