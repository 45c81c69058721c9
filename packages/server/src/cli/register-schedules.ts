// Wires `punctual schedules ...` (a tenant's schedules through the HTTP API: list, get, put, import, history,
// rollback, rm, pause, occurrences, preview, skip, move, override, unoverride, resume, trigger, backfill,
// rerun) to commander. No command logic lives here: each action calls a command function with (args, io) and
// hands its exit code back.

import { Option, type Command } from 'commander';
import { RERUNNABLE_STATES, TARGET_KINDS } from 'punctual';
import { schedulesImport } from './commands/schedules-import.js';
import { schedulesRerun } from './commands/schedules-rerun.js';
import { schedulesPreview } from './commands/schedules-preview.js';
import { schedulesHistory, schedulesPutDryRun, schedulesRollback } from './commands/schedules-history.js';
import {
  schedulesOccurrences,
  schedulesOverride,
  schedulesUnoverride,
} from './commands/schedules-overrides.js';
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
import { args, client, collect, type ClientOptions } from './client-command.js';
import type { Wiring } from './register-admin.js';

export function registerSchedules(program: Command, w: Wiring): void {
  const schedules = program.command('schedules').description("a tenant's schedules, through the HTTP API");
  client(schedules.command('ls').description('list schedules, ordered by key'))
    .option('--state <state>', 'active, paused or completed')
    .option('--prefix <prefix>', 'only keys starting with this')
    .option('--target <kind>', `only this target kind (${TARGET_KINDS.join(', ')})`)
    .option('--label <key=value>', 'only schedules with this label (repeat: all must match)', collect, [])
    .option('--limit <n>', '1 to 1000 (default 100)')
    .option('--cursor <cursor>', 'the next page (printed after a full page)')
    .action(async (o: ClientOptions) => w.exit(await schedulesList(args(w.env, o), w.io)));
  client(schedules.command('get').description('show a schedule').argument('<key>')).action(
    async (key: string, o: ClientOptions) => w.exit(await schedulesGet({ ...args(w.env, o), key }, w.io)),
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
  ).action(async (key: string, o: ClientOptions & Record<string, string>) =>
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
  ).action(async (file: string, o: ClientOptions & { batch?: string; dryRun?: boolean }) =>
    w.exit(await schedulesImport({ ...args(w.env, o), file, isTty: w.isTty }, w.io)),
  );
  client(
    schedules
      .command('history')
      .description("a schedule's revisions, newest first: who changed what, when")
      .argument('<key>')
      .option('--limit <n>', '1 to 1000 (default 100)')
      .option('--cursor <cursor>', 'the next page (printed after a full page)'),
  ).action(async (key: string, o: ClientOptions & { limit?: string; cursor?: string }) =>
    w.exit(await schedulesHistory({ ...args(w.env, o), key }, w.io)),
  );
  client(
    schedules
      .command('rollback')
      .description("restore an earlier version's exact content as a new version")
      .argument('<key>')
      .argument('<version>'),
  ).action(async (key: string, version: string, o: ClientOptions) =>
    w.exit(await schedulesRollback({ ...args(w.env, o), key, version }, w.io)),
  );
  client(
    schedules.command('rm').description('delete a schedule (its history is kept)').argument('<key>'),
  ).action(async (key: string, o: ClientOptions) =>
    w.exit(await schedulesRemove({ ...args(w.env, o), key }, w.io)),
  );
  client(
    schedules
      .command('pause')
      .description('pause a schedule: occurrences while paused are recorded as skipped')
      .argument('<key>')
      .option('--cancel-pending', 'also cancel the runs already scheduled')
      .option('--note <text>', 'why (shown on the schedule)')
      .option('--until <instant>', 'resume by itself at this instant: ISO-8601 with Z or an offset'),
  ).action(
    async (key: string, o: ClientOptions & { cancelPending?: boolean; note?: string; until?: string }) =>
      w.exit(await schedulesPause({ ...args(w.env, o), key }, w.io)),
  );
  client(
    schedules
      .command('occurrences')
      .description("a schedule's upcoming occurrences with their overrides")
      .argument('<key>')
      .option('--count <n>', 'how many (1-100, default 10)'),
  ).action(async (key: string, o: ClientOptions & { count?: string }) =>
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
  ).action(async (key: string, o: ClientOptions & { count?: string; explain?: boolean }) =>
    w.exit(await schedulesPreview({ ...args(w.env, o), key }, w.io)),
  );
  client(
    schedules
      .command('skip')
      .description('skip one occurrence (by its instant)')
      .argument('<key>')
      .argument('<instant>')
      .option('--note <text>', 'why (kept in the run)'),
  ).action(async (key: string, instant: string, o: ClientOptions & { note?: string }) =>
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
  ).action(async (key: string, instant: string, to: string, o: ClientOptions & { note?: string }) =>
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
  ).action(async (key: string, instant: string, o: ClientOptions & { payload?: string; note?: string }) =>
    w.exit(await schedulesOverride({ ...args(w.env, o), key, instant, kind: 'payload' }, w.io)),
  );
  client(
    schedules
      .command('unoverride')
      .description("remove one occurrence's override")
      .argument('<key>')
      .argument('<instant>'),
  ).action(async (key: string, instant: string, o: ClientOptions) =>
    w.exit(await schedulesUnoverride({ ...args(w.env, o), key, instant }, w.io)),
  );
  client(
    schedules.command('resume').description('resume a paused schedule from now on').argument('<key>'),
  ).action(async (key: string, o: ClientOptions) =>
    w.exit(await schedulesResume({ ...args(w.env, o), key }, w.io)),
  );
  client(
    schedules
      .command('trigger')
      .description('run a schedule now (one manual run)')
      .argument('<key>')
      .option('--payload <json>', "replaces the schedule's payload for this run"),
  ).action(async (key: string, o: ClientOptions & { payload?: string }) =>
    w.exit(await schedulesTrigger({ ...args(w.env, o), key }, w.io)),
  );
  client(
    schedules
      .command('backfill')
      .description('create runs for past occurrences in [from, to) that have none')
      .argument('<key>')
      .requiredOption('--from <instant>', 'the first instant (inclusive): ISO-8601 with Z or an offset')
      .requiredOption('--to <instant>', 'the end (exclusive), not in the future'),
  ).action(async (key: string, o: ClientOptions & { from?: string; to?: string }) =>
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
  ).action(async (key: string, o: ClientOptions & { from?: string; to?: string; state?: string[] }) =>
    w.exit(await schedulesRerun({ ...args(w.env, o), key }, w.io)),
  );
}
