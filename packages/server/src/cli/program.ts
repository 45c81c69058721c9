// The `punctual` command line: wires the commands in commands/ to argv and to the real process (stdout,
// stderr, the clock, signals) and maps what they return to exit codes. No command logic lives here: each
// command is a function of (args, io) that tests call without spawning.

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { Command, CommanderError } from 'commander';
import { describe } from './commands/describe.js';
import { preview } from './commands/preview.js';
import { serve } from './commands/serve.js';
import { EXIT_USAGE, type CliIo } from './io.js';
import { registerAdmin, type Wiring } from './register-admin.js';
import { registerClient } from './register-client.js';

const io: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  now: () => Date.now(),
};

// Two levels up from both src/cli/program.ts and dist/cli/program.js.
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const program = new Command('punctual')
  .description(
    'Punctual, the durable scheduler: preview specs, run the service, administer its database and talk to its API.',
  )
  .version(version)
  .exitOverride()
  .showHelpAfterError();

program
  .command('preview')
  .description('print the description of a spec and its next instants (UTC and in the spec zone)')
  .argument('<spec...>', 'a cron line, RRULE, @every, @at or @in spec (quote it)')
  .option('--tz <zone>', 'IANA time zone the spec is read in (default UTC)')
  .option(
    '--from <instant>',
    'as if saved at this instant: occurrences at or after it (an @every starts at from + interval); ISO-8601 with Z or an offset (default now)',
  )
  .option('--count <n>', 'how many instants, 1 to 1000', '5')
  .option('--dst-gap <choice>', 'a fixed local time in a DST gap: shift (run right after it) or skip')
  .option('--dst-repeat <choice>', 'a fixed local time that occurs twice: first (pass) or both')
  .option('--explain', 'also list the candidates that were dropped, and why')
  .option(
    '--exclude <calendar>',
    'skip the dates of a calendar: a file (.ics or .json) or the name of a stored one (read through --url, --key); repeatable',
    (v: string, prev: string[]) => [...prev, v],
    [] as string[],
  )
  .option('--url <url>', 'the service, for --exclude <name> (default: PUNCTUAL_URL or http://127.0.0.1:8080)')
  .option('--key <key>', 'an API key, for --exclude <name> (default: PUNCTUAL_API_KEY)')
  .option(
    '--json',
    'print {"description", "next", "occurrences", "dst"} (and "dropped" with --explain), or {"error"}, as JSON',
  )
  .addHelpText(
    'after',
    `\nExample:\n  punctual preview '30 2 * * *' --tz America/New_York --from 2026-03-07T12:00:00Z --count 3 --explain`,
  )
  .action(
    async (
      spec: string[],
      opts: {
        tz?: string;
        from?: string;
        count?: string;
        json?: boolean;
        explain?: boolean;
        dstGap?: string;
        dstRepeat?: string;
        exclude?: string[];
        url?: string;
        key?: string;
      },
    ) => {
      const { key, ...rest } = opts;
      process.exitCode = await preview(
        { spec: spec.join(' '), ...rest, ...(key === undefined ? {} : { apiKey: key }), env: process.env },
        io,
      );
    },
  );

program
  .command('describe')
  .description('print the description of a spec alone')
  .argument('<spec...>', 'a cron line, RRULE, @every, @at or @in spec (quote it)')
  .option('--tz <zone>', 'IANA time zone the spec is read in (default UTC)')
  .option('--json', 'print {"description"} (or {"error"}) as JSON')
  .action(async (spec: string[], opts: { tz?: string; json?: boolean }) => {
    process.exitCode = await describe({ spec: spec.join(' '), ...opts }, io);
  });

program
  .command('serve')
  .description(
    'run the service: the HTTP API and the scheduler, on SQLite at PUNCTUAL_DATABASE_PATH (default ./data/punctual.db) or PostgreSQL at PUNCTUAL_DATABASE_URL',
  )
  .action(async () => {
    const stop = new AbortController();
    const onSignal = (): void => {
      // A second signal while stopping means "now": skip the graceful stop.
      if (stop.signal.aborted) process.exit(130);
      stop.abort();
    };
    process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
    const code = await serve(
      { env: process.env, isTty: process.stdout.isTTY === true, signal: stop.signal },
      io,
    );
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    process.exit(code);
  });

/** A yes/no question on the terminal: only "y" or "yes" is a yes. */
async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^\s*y(es)?\s*$/i.test(await rl.question(question));
  } finally {
    rl.close();
  }
}

const wiring: Wiring = {
  io,
  env: process.env,
  exit: (code) => void (process.exitCode = code),
  isTty: process.stdout.isTTY === true,
  ...(process.stdin.isTTY === true && process.stdout.isTTY === true ? { confirm } : {}),
};
registerAdmin(program, wiring);
registerClient(program, wiring);

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (!(e instanceof CommanderError)) {
    process.stderr.write(
      `punctual: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
    );
    process.exitCode = 1;
  } else {
    // Help and --version end with code 0; every other parse error is a usage error (already printed).
    process.exitCode = e.exitCode === 0 ? 0 : EXIT_USAGE;
  }
}
