// Wires the alerting commands (a tenant's alerts, alert channels, checks and heartbeats through the HTTP
// API) to commander. No command logic lives here: each action calls a command function with (args, io) and
// hands its exit code back.

import { Option, type Command } from 'commander';
import { ALERT_CHANNEL_KINDS, ALERT_STATES, CHECK_KINDS } from 'punctual';
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
import { args, client, type ClientOptions } from './client-command.js';
import type { Wiring } from './register-admin.js';

export function registerAlerts(program: Command, w: Wiring): void {
  const alerts = program.command('alerts').description("a tenant's alerts, through the HTTP API");
  client(alerts.command('ls').description('list alerts, newest first'))
    .addOption(new Option('--state <state>', 'only open or only resolved alerts').choices(ALERT_STATES))
    .option('--schedule <key>', "only this schedule's alerts")
    .option('--limit <n>', '1 to 1000 (default 100)')
    .action(async (o: ClientOptions) => w.exit(await alertsList(args(w.env, o), w.io)));
  client(alerts.command('get').description('show an alert and its deliveries').argument('<id>')).action(
    async (id: string, o: ClientOptions) => w.exit(await alertsGet({ ...args(w.env, o), id }, w.io)),
  );

  const channels = program.command('channels').description("a tenant's alert channels, through the HTTP API");
  client(channels.command('ls').description('list alert channels')).action(async (o: ClientOptions) =>
    w.exit(await channelsList(args(w.env, o), w.io)),
  );
  client(channels.command('get').description('show an alert channel').argument('<name>')).action(
    async (name: string, o: ClientOptions) => w.exit(await channelsGet({ ...args(w.env, o), name }, w.io)),
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
  ).action(async (name: string, o: ClientOptions & { kind: string; to: string; routingKey?: string }) =>
    w.exit(await channelsPut({ ...args(w.env, o), name }, w.io)),
  );
  client(channels.command('rm').description('delete an alert channel').argument('<name>')).action(
    async (name: string, o: ClientOptions) => w.exit(await channelsRemove({ ...args(w.env, o), name }, w.io)),
  );

  const checks = program
    .command('checks')
    .description("a tenant's checks (heartbeats), through the HTTP API");
  client(checks.command('ls').description('list checks')).action(async (o: ClientOptions) =>
    w.exit(await checksList(args(w.env, o), w.io)),
  );
  client(checks.command('get').description('show a check').argument('<name>')).action(
    async (name: string, o: ClientOptions) => w.exit(await checksGet({ ...args(w.env, o), name }, w.io)),
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
  ).action(async (name: string, o: ClientOptions & { kind: string; every?: string }) =>
    w.exit(await checksPut({ ...args(w.env, o), name }, w.io)),
  );
  client(checks.command('rm').description('delete a check').argument('<name>')).action(
    async (name: string, o: ClientOptions) => w.exit(await checksRemove({ ...args(w.env, o), name }, w.io)),
  );
  client(program.command('heartbeat').description("record a check's heartbeat").argument('<name>')).action(
    async (name: string, o: ClientOptions) => w.exit(await heartbeat({ ...args(w.env, o), name }, w.io)),
  );
}
