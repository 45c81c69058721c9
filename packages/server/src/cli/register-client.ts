// Wires the commands that talk to a running service (schedules, runs, kv, tenant) to commander. Every one takes --url
// (default PUNCTUAL_URL or http://127.0.0.1:8080), --key (default PUNCTUAL_API_KEY) and --json. No command
// logic lives here: each action calls a command function with (args, io) and hands its exit code back.

import { Option, type Command } from 'commander';
import { ALERT_CHANNEL_KINDS, ALERT_STATES, CHECK_KINDS, RERUNNABLE_STATES, TARGET_KINDS } from 'punctual';
import { apply } from './commands/apply.js';
import { exportSchedules } from './commands/export.js';
import { importCrontab } from './commands/import-crontab.js';
import { schedulesImport } from './commands/schedules-import.js';
import { schedulesRerun } from './commands/schedules-rerun.js';
import { schedulesPreview } from './commands/schedules-preview.js';
import { schedulesHistory, schedulesPutDryRun, schedulesRollback } from './commands/schedules-history.js';
import {
  schedulesOccurrences,
  schedulesOverride,
  schedulesUnoverride,
} from './commands/schedules-overrides.js';
import { kvGet, kvList, kvPut, kvRemove } from './commands/kv.js';
import {
  calendarsGet,
  calendarsImport,
  calendarsList,
  calendarsPut,
  calendarsRemove,
} from './commands/calendars.js';
import { calendarsRevisions, calendarsRollback } from './commands/calendars-history.js';
import {
  alertsGet,
  alertsList,
  channelsGet,
  channelsList,
  channelsPut,
  channelsRemove,
  checksGet,
  checksList,
  checksPut,
  checksRemove,
  heartbeat,
} from './commands/alerts.js';
import { runsCancel, runsGet, runsList, runsRerun } from './commands/runs.js';
import {
  schedulesBackfill,
  schedulesGet,
  schedulesList,
  schedulesPause,
  schedulesPut,
  schedulesRemove,
  schedulesResume,
  schedulesTrigger,
} from './commands/schedules.js';
import { tenantGet, tenantRotateSecret } from './commands/tenant.js';
import type { Wiring } from './register-admin.js';

type Common = { url?: string; key?: string; json?: boolean };

/** Commander's accumulator for a repeatable option. */
const collect = (value: string, previous: string[]): string[] => [...previous, value];

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
  client(
    program
      .command('apply')
      .description(
        "make the tenant's schedules what a schedules file says: prints the plan, asks, then applies it",
      )
      .option('-f, --file <path>', 'the schedules file (YAML or JSON; see docs/schedules-as-code.md)')
      .option('--yes', 'apply without asking (needed without a terminal)')
      .option('--dry-run', 'print the plan only')
      .option('--prune', 'also delete the stored schedules the file does not name')
      .option('--partial', 'apply the accepted schedules even when the file has refused ones')
      .addHelpText(
        'after',
        '\nPlan symbols: + create, ~ update (field: old -> new), - delete (--prune only), = unchanged.\n' +
          'Exit codes: 0 applied (or nothing to change, or --dry-run); 1 a schedule refused, a change failed\n' +
          'or not confirmed; 2 a usage error, or no terminal to confirm on without --yes.',
      ),
  ).action(
    async (
      o: Common & { file?: string; yes?: boolean; dryRun?: boolean; prune?: boolean; partial?: boolean },
    ) => w.exit(await apply({ ...args(w.env, o), confirm: w.confirm }, w.io)),
  );
  client(
    program
      .command('export')
      .description("write the tenant's schedules as a schedules file (what apply reads)")
      .option('-o, --output <path>', 'the file to write (default: standard output)')
      .option('--format <format>', 'yaml or json (default: by the extension of -o, else yaml)'),
  ).action(async (o: Common & { output?: string; format?: string }) =>
    w.exit(await exportSchedules(args(w.env, o), w.io)),
  );

  program
    .command('import')
    .description('convert schedules from elsewhere into a schedules file for apply')
    .command('crontab')
    .description(
      'write a crontab (user or system format) as a schedules file; reports what has no meaning here',
    )
    .argument('<file>', 'the crontab, e.g. the output of crontab -l, /etc/crontab or a file of /etc/cron.d')
    .option('-o, --output <path>', 'the schedules file to write (default: standard output)')
    .option('--tz <zone>', 'the zone of the lines before any CRON_TZ= or TZ= (default UTC)')
    .option('--system', 'the system format: a user field before the command (default: by the path or header)')
    .option('--format <format>', 'yaml or json (default: by the extension of -o, else yaml)')
    .action(async (file: string, o: { output?: string; tz?: string; system?: boolean; format?: string }) =>
      w.exit(await importCrontab({ file, ...o }, w.io)),
    );

  const schedules = program.command('schedules').description("a tenant's schedules, through the HTTP API");
  client(schedules.command('ls').description('list schedules, ordered by key'))
    .option('--state <state>', 'active, paused or completed')
    .option('--prefix <prefix>', 'only keys starting with this')
    .option('--target <kind>', `only this target kind (${TARGET_KINDS.join(', ')})`)
    .option('--label <key=value>', 'only schedules with this label (repeat: all must match)', collect, [])
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
      .option('--script <file>', "run this file's JavaScript in the sandbox (a script target)")
      // Not offered: refused with the reason (NO_HANDLERS) rather than as an unknown option.
      .addOption(new Option('--handler <name>').hideHelp())
      .option('--payload <json>', 'the JSON handed to the target')
      .option('--summary <text>', 'your own description (the generated one stays beside it)')
      .option(
        '--label <key=value>',
        'a label to find it by (repeat for several; replaces them all)',
        collect,
        [],
      )
      .option(
        '--id-template <template>',
        "the message id of a webhook or broker target, e.g. '{key}-{scheduledForSeconds}' (default: the occurrence id)",
      )
      .option('--dst-gap <choice>', 'a fixed local time in a DST gap: shift (run right after it) or skip')
      .option('--dst-repeat <choice>', 'a fixed local time that occurs twice: first (pass) or both')
      .option(
        '--expect-success-within <duration>',
        "each occurrence must succeed within this of its start, or an alert opens ('15m'; 'none' removes it)",
      )
      .option('--paused', 'create it paused (an existing schedule keeps its state: use pause / resume)')
      .option('--file <path>', 'a JSON body (spec, target, policies, startAt, ...); the options override it')
      .option('--if-match <version>', 'refuse (VERSION_CONFLICT) unless the stored version is this')
      .option('--dry-run', 'write nothing: show the diff, the next fire times and the runs it would cancel')
      .addHelpText(
        'after',
        `\nExample:\n  punctual schedules put reports.daily --spec '0 9 * * 1-5' --tz Europe/Paris \\\n    --webhook https://example.com/hooks/report --payload '{"report":"daily"}'\n\n` +
          'Targets: --webhook, --script, or a broker target in --file. A punctual serve process has no\n' +
          'in-process handlers, so a "handler" target is refused here.',
      ),
  ).action(async (key: string, o: Common & Record<string, string>) =>
    w.exit(await (o.dryRun ? schedulesPutDryRun : schedulesPut)({ ...args(w.env, o), key }, w.io)),
  );
  client(
    schedules
      .command('import')
      .description('create or update the schedules of a JSON-lines file, one schedule per line, in batches')
      .argument('<file>', 'one JSON object per line: the body of PUT /v1/schedules/{key} plus its key')
      .option(
        '--batch <n>',
        'lines per request, 1 to 5000 (default 1000); each request is written whole or not',
      )
      .option('--dry-run', 'report what each line would do, write nothing')
      .addHelpText(
        'after',
        '\nPrints created, updated, unchanged and refused counts, then each refused line with its reason;\n' +
          'a progress line while it runs on a terminal. Exit codes: 0 every line saved (or unchanged); 1 a\n' +
          'line refused, or a request refused whole (its lines not written, those before it written).',
      ),
  ).action(async (file: string, o: Common & { batch?: string; dryRun?: boolean }) =>
    w.exit(await schedulesImport({ ...args(w.env, o), file, isTty: w.isTty }, w.io)),
  );
  client(
    schedules
      .command('history')
      .description("a schedule's revisions, newest first: who changed what, when")
      .argument('<key>')
      .option('--limit <n>', '1 to 1000 (default 100)')
      .option('--cursor <cursor>', 'the next page (printed after a full page)'),
  ).action(async (key: string, o: Common & { limit?: string; cursor?: string }) =>
    w.exit(await schedulesHistory({ ...args(w.env, o), key }, w.io)),
  );
  client(
    schedules
      .command('rollback')
      .description("restore an earlier version's exact content as a new version")
      .argument('<key>')
      .argument('<version>'),
  ).action(async (key: string, version: string, o: Common) =>
    w.exit(await schedulesRollback({ ...args(w.env, o), key, version }, w.io)),
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
      .option('--note <text>', 'why (shown on the schedule)')
      .option('--until <instant>', 'resume by itself at this instant: ISO-8601 with Z or an offset'),
  ).action(async (key: string, o: Common & { cancelPending?: boolean; note?: string; until?: string }) =>
    w.exit(await schedulesPause({ ...args(w.env, o), key }, w.io)),
  );
  client(
    schedules
      .command('occurrences')
      .description("a schedule's upcoming occurrences with their overrides")
      .argument('<key>')
      .option('--count <n>', 'how many (1-100, default 10)'),
  ).action(async (key: string, o: Common & { count?: string }) =>
    w.exit(await schedulesOccurrences({ ...args(w.env, o), key }, w.io)),
  );
  client(
    schedules
      .command('preview')
      .description(
        "a schedule's next occurrences as they will run: its calendars and overrides applied, with notes",
      )
      .argument('<key>')
      .option('--count <n>', 'how many (1-1000, default 10)')
      .option('--explain', 'also list the candidates dropped and why (calendar, override, DST, ...)'),
  ).action(async (key: string, o: Common & { count?: string; explain?: boolean }) =>
    w.exit(await schedulesPreview({ ...args(w.env, o), key }, w.io)),
  );
  client(
    schedules
      .command('skip')
      .description('skip one occurrence (by its instant)')
      .argument('<key>')
      .argument('<instant>')
      .option('--note <text>', 'why (kept in the run)'),
  ).action(async (key: string, instant: string, o: Common & { note?: string }) =>
    w.exit(await schedulesOverride({ ...args(w.env, o), key, instant, kind: 'skip' }, w.io)),
  );
  client(
    schedules
      .command('move')
      .description('run one occurrence at another instant (it keeps its identity)')
      .argument('<key>')
      .argument('<instant>')
      .argument('<to>')
      .option('--note <text>', 'why (kept in the run)'),
  ).action(async (key: string, instant: string, to: string, o: Common & { note?: string }) =>
    w.exit(await schedulesOverride({ ...args(w.env, o), key, instant, to, kind: 'move' }, w.io)),
  );
  client(
    schedules
      .command('override')
      .description('give one occurrence another payload')
      .argument('<key>')
      .argument('<instant>')
      .requiredOption('--payload <json>', 'the payload of this occurrence')
      .option('--note <text>', 'why (kept in the run)'),
  ).action(async (key: string, instant: string, o: Common & { payload?: string; note?: string }) =>
    w.exit(await schedulesOverride({ ...args(w.env, o), key, instant, kind: 'payload' }, w.io)),
  );
  client(
    schedules
      .command('unoverride')
      .description("remove one occurrence's override")
      .argument('<key>')
      .argument('<instant>'),
  ).action(async (key: string, instant: string, o: Common) =>
    w.exit(await schedulesUnoverride({ ...args(w.env, o), key, instant }, w.io)),
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
  client(
    schedules
      .command('backfill')
      .description('create runs for past occurrences in [from, to) that have none')
      .argument('<key>')
      .requiredOption('--from <instant>', 'the first instant (inclusive): ISO-8601 with Z or an offset')
      .requiredOption('--to <instant>', 'the end (exclusive), not in the future'),
  ).action(async (key: string, o: Common & { from?: string; to?: string }) =>
    w.exit(await schedulesBackfill({ ...args(w.env, o), key }, w.io)),
  );

  client(
    schedules
      .command('rerun')
      .description('run again the final runs of [from, to) (new attempts of the same occurrences)')
      .argument('<key>')
      .requiredOption('--from <instant>', 'the first scheduledFor (inclusive): ISO-8601 with Z or an offset')
      .requiredOption('--to <instant>', 'the end (exclusive)')
      .option(
        '--state <state>',
        `only runs in this state (repeat; default dead): ${RERUNNABLE_STATES.join(', ')}`,
        collect,
        [],
      ),
  ).action(async (key: string, o: Common & { from?: string; to?: string; state?: string[] }) =>
    w.exit(await schedulesRerun({ ...args(w.env, o), key }, w.io)),
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
  client(runs.command('cancel').description('cancel a run that has not finished').argument('<id>')).action(
    async (id: string, o: Common) => w.exit(await runsCancel({ ...args(w.env, o), id }, w.io)),
  );
  client(
    runs
      .command('rerun')
      .description('run a finished run again (new attempts of the same occurrence, due now)')
      .argument('<id>'),
  ).action(async (id: string, o: Common) => w.exit(await runsRerun({ ...args(w.env, o), id }, w.io)));

  const kv = program
    .command('kv')
    .description("a tenant's key-value store (what its scripts use as ctx.kv), through the HTTP API");
  client(kv.command('ls').description('list keys and values, in key order'))
    .option('--prefix <prefix>', 'only keys starting with this')
    .option('--limit <n>', '1 to 1000 (default 100)')
    .option('--cursor <cursor>', 'the next page (printed after a full page)')
    .action(async (o: Common) => w.exit(await kvList(args(w.env, o), w.io)));
  client(kv.command('get').description("print a key's JSON value").argument('<key>')).action(
    async (key: string, o: Common) => w.exit(await kvGet({ ...args(w.env, o), key }, w.io)),
  );
  client(
    kv
      .command('put')
      .description('write a JSON value under a key')
      .argument('<key>')
      .argument('[value]', 'the JSON value, such as 42 or \'{"a": 1}\'')
      .option('--file <path>', 'read the JSON value from this file'),
  ).action(async (key: string, value: string | undefined, o: Common & { file?: string }) =>
    w.exit(await kvPut({ ...args(w.env, o), key, value }, w.io)),
  );
  client(kv.command('rm').description('delete a key').argument('<key>')).action(
    async (key: string, o: Common) => w.exit(await kvRemove({ ...args(w.env, o), key }, w.io)),
  );

  const calendars = program
    .command('calendars')
    .description(
      "a tenant's calendars (dates schedules exclude or keep to as working days), through the HTTP API",
    );
  client(calendars.command('ls').description('list calendars')).action(async (o: Common) =>
    w.exit(await calendarsList(args(w.env, o), w.io)),
  );
  client(
    calendars.command('get').description('show a calendar: its dates with labels').argument('<name>'),
  ).action(async (name: string, o: Common) => w.exit(await calendarsGet({ ...args(w.env, o), name }, w.io)));
  type CalendarOpts = Common & { tz?: string; workingDays?: string };
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
  ).action(async (name: string, o: Common) =>
    w.exit(await calendarsRemove({ ...args(w.env, o), name }, w.io)),
  );
  client(
    calendars
      .command('revisions')
      .description("a calendar's revisions, newest first: who added or removed which dates, when")
      .argument('<name>')
      .option('--limit <n>', '1 to 1000 (default 100)')
      .option('--cursor <cursor>', 'the next page (printed after a full page)'),
  ).action(async (name: string, o: Common & { limit?: string; cursor?: string }) =>
    w.exit(await calendarsRevisions({ ...args(w.env, o), name }, w.io)),
  );
  client(
    calendars
      .command('rollback')
      .description("restore an earlier version's exact dates as a new version (schedules using it re-plan)")
      .argument('<name>')
      .argument('<version>'),
  ).action(async (name: string, version: string, o: Common) =>
    w.exit(await calendarsRollback({ ...args(w.env, o), name, version }, w.io)),
  );

  const tenant = program
    .command('tenant')
    .description("the API key's own tenant: its quotas and webhook secret, through the HTTP API");
  client(
    tenant.command('get').description('show the tenant, its quotas and its webhook signing secret'),
  ).action(async (o: Common) => w.exit(await tenantGet(args(w.env, o), w.io)));
  client(
    tenant
      .command('rotate-secret')
      .description(
        'replace the webhook signing secret (the previous one is still signed with for a grace period)',
      ),
  ).action(async (o: Common) => w.exit(await tenantRotateSecret(args(w.env, o), w.io)));

  const alerts = program.command('alerts').description("a tenant's alerts, through the HTTP API");
  client(alerts.command('ls').description('list alerts, newest first'))
    .addOption(new Option('--state <state>', 'only open or only resolved alerts').choices(ALERT_STATES))
    .option('--schedule <key>', "only this schedule's alerts")
    .option('--limit <n>', '1 to 1000 (default 100)')
    .action(async (o: Common) => w.exit(await alertsList(args(w.env, o), w.io)));
  client(alerts.command('get').description('show an alert and its deliveries').argument('<id>')).action(
    async (id: string, o: Common) => w.exit(await alertsGet({ ...args(w.env, o), id }, w.io)),
  );

  const channels = program.command('channels').description("a tenant's alert channels, through the HTTP API");
  client(channels.command('ls').description('list alert channels')).action(async (o: Common) =>
    w.exit(await channelsList(args(w.env, o), w.io)),
  );
  client(channels.command('get').description('show an alert channel').argument('<name>')).action(
    async (name: string, o: Common) => w.exit(await channelsGet({ ...args(w.env, o), name }, w.io)),
  );
  client(
    channels
      .command('put')
      .description('create or replace an alert channel')
      .argument('<name>')
      .addOption(
        new Option('--kind <kind>', 'the channel kind').choices(ALERT_CHANNEL_KINDS).makeOptionMandatory(),
      )
      .requiredOption('--to <url>', 'the channel URL the alert transitions are POSTed to')
      .option('--routing-key <key>', 'the routing key (pagerduty channels)'),
  ).action(async (name: string, o: Common & { kind: string; to: string; routingKey?: string }) =>
    w.exit(await channelsPut({ ...args(w.env, o), name }, w.io)),
  );
  client(channels.command('rm').description('delete an alert channel').argument('<name>')).action(
    async (name: string, o: Common) => w.exit(await channelsRemove({ ...args(w.env, o), name }, w.io)),
  );

  const checks = program
    .command('checks')
    .description("a tenant's checks (heartbeats), through the HTTP API");
  client(checks.command('ls').description('list checks')).action(async (o: Common) =>
    w.exit(await checksList(args(w.env, o), w.io)),
  );
  client(checks.command('get').description('show a check').argument('<name>')).action(
    async (name: string, o: Common) => w.exit(await checksGet({ ...args(w.env, o), name }, w.io)),
  );
  client(
    checks
      .command('put')
      .description('create or replace a check')
      .argument('<name>')
      .addOption(new Option('--kind <kind>', 'the check kind').choices(CHECK_KINDS).default('heartbeat'))
      .option('--every <duration>', 'heartbeat: a heartbeat must arrive at least this often (10m, PT1H)')
      .option('--schedule <key>', 'deadline: the schedule a run of which must succeed in each window')
      .option('--spec <spec>', "deadline: when each window opens, a cron line or RRULE ('0 9 * * 1-5')")
      .option('--tz <zone>', 'deadline: the IANA zone the spec is read in (default UTC)')
      .option('--within <duration>', 'deadline: how long each window stays open (15m)')
      .addHelpText(
        'after',
        "\nExamples:\n  punctual checks put backup --every 10m\n  punctual checks put report-by-0915 --kind deadline --schedule reports.daily \\\n    --spec '0 9 * * 1-5' --tz Europe/Paris --within 15m\n",
      ),
  ).action(async (name: string, o: Common & { kind: string; every?: string }) =>
    w.exit(await checksPut({ ...args(w.env, o), name }, w.io)),
  );
  client(checks.command('rm').description('delete a check').argument('<name>')).action(
    async (name: string, o: Common) => w.exit(await checksRemove({ ...args(w.env, o), name }, w.io)),
  );
  client(program.command('heartbeat').description("record a check's heartbeat").argument('<name>')).action(
    async (name: string, o: Common) => w.exit(await heartbeat({ ...args(w.env, o), name }, w.io)),
  );
}
