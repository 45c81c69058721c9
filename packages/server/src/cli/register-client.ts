// Wires the commands that talk to a running service (schedules, runs, kv, calendars, tenant, alerts) to
// commander. Every one takes --url (default PUNCTUAL_URL or http://127.0.0.1:8080), --key (default
// PUNCTUAL_API_KEY) and --json (client-command.ts). No command logic lives here: each action calls a command
// function with (args, io) and hands its exit code back. The schedules, calendars and alerting commands are
// wired in their own files, called here in the order the help lists them.

import type { Command } from 'commander';
import { apply } from './commands/apply.js';
import { exportSchedules } from './commands/export.js';
import { importCrontab } from './commands/import-crontab.js';
import { kvGet, kvList, kvPut, kvRemove } from './commands/kv.js';
import { runsCancel, runsGet, runsList, runsRerun } from './commands/runs.js';
import { tenantGet, tenantRotateSecret } from './commands/tenant.js';
import { args, client, type ClientOptions } from './client-command.js';
import type { Wiring } from './register-admin.js';
import { registerAlerts } from './register-alerts.js';
import { registerCalendars } from './register-calendars.js';
import { registerSchedules } from './register-schedules.js';

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
      o: ClientOptions & {
        file?: string;
        yes?: boolean;
        dryRun?: boolean;
        prune?: boolean;
        partial?: boolean;
      },
    ) => w.exit(await apply({ ...args(w.env, o), confirm: w.confirm }, w.io)),
  );
  client(
    program
      .command('export')
      .description("write the tenant's schedules as a schedules file (what apply reads)")
      .option('-o, --output <path>', 'the file to write (default: standard output)')
      .option('--format <format>', 'yaml or json (default: by the extension of -o, else yaml)'),
  ).action(async (o: ClientOptions & { output?: string; format?: string }) =>
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

  registerSchedules(program, w);

  const runs = program.command('runs').description("a tenant's runs, through the HTTP API");
  client(runs.command('ls').description('list runs, newest first'))
    .option('--schedule <key>', "only this schedule's runs")
    .option('--state <state>', 'scheduled, running, succeeded, dead, skipped, expired or cancelled')
    .option('--from <instant>', 'scheduled at or after (ISO-8601 with Z or an offset)')
    .option('--to <instant>', 'scheduled before')
    .option('--limit <n>', '1 to 1000 (default 100)')
    .option('--cursor <cursor>', 'the next page (printed after a full page)')
    .action(async (o: ClientOptions) => w.exit(await runsList(args(w.env, o), w.io)));
  client(runs.command('get').description('show a run with its attempts').argument('<id>')).action(
    async (id: string, o: ClientOptions) => w.exit(await runsGet({ ...args(w.env, o), id }, w.io)),
  );
  client(runs.command('cancel').description('cancel a run that has not finished').argument('<id>')).action(
    async (id: string, o: ClientOptions) => w.exit(await runsCancel({ ...args(w.env, o), id }, w.io)),
  );
  client(
    runs
      .command('rerun')
      .description('run a finished run again (new attempts of the same occurrence, due now)')
      .argument('<id>'),
  ).action(async (id: string, o: ClientOptions) => w.exit(await runsRerun({ ...args(w.env, o), id }, w.io)));

  const kv = program
    .command('kv')
    .description("a tenant's key-value store (what its scripts use as ctx.kv), through the HTTP API");
  client(kv.command('ls').description('list keys and values, in key order'))
    .option('--prefix <prefix>', 'only keys starting with this')
    .option('--limit <n>', '1 to 1000 (default 100)')
    .option('--cursor <cursor>', 'the next page (printed after a full page)')
    .action(async (o: ClientOptions) => w.exit(await kvList(args(w.env, o), w.io)));
  client(kv.command('get').description("print a key's JSON value").argument('<key>')).action(
    async (key: string, o: ClientOptions) => w.exit(await kvGet({ ...args(w.env, o), key }, w.io)),
  );
  client(
    kv
      .command('put')
      .description('write a JSON value under a key')
      .argument('<key>')
      .argument('[value]', 'the JSON value, such as 42 or \'{"a": 1}\'')
      .option('--file <path>', 'read the JSON value from this file'),
  ).action(async (key: string, value: string | undefined, o: ClientOptions & { file?: string }) =>
    w.exit(await kvPut({ ...args(w.env, o), key, value }, w.io)),
  );
  client(kv.command('rm').description('delete a key').argument('<key>')).action(
    async (key: string, o: ClientOptions) => w.exit(await kvRemove({ ...args(w.env, o), key }, w.io)),
  );

  registerCalendars(program, w);

  const tenant = program
    .command('tenant')
    .description("the API key's own tenant: its quotas and webhook secret, through the HTTP API");
  client(
    tenant.command('get').description('show the tenant, its quotas and its webhook signing secret'),
  ).action(async (o: ClientOptions) => w.exit(await tenantGet(args(w.env, o), w.io)));
  client(
    tenant
      .command('rotate-secret')
      .description(
        'replace the webhook signing secret (the previous one is still signed with for a grace period)',
      ),
  ).action(async (o: ClientOptions) => w.exit(await tenantRotateSecret(args(w.env, o), w.io)));

  registerAlerts(program, w);
}
