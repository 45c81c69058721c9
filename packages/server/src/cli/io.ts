// What every command gets from the outside world: where to write and what time it is. Commands never touch
// `process` themselves, so tests call them directly with a fake io. Also owns the exit codes and the one
// way a command reports an error (JSON on stdout with --json, a line on stderr otherwise).

import { isPunctualError } from 'punctual';

export interface CliIo {
  /** Writes text to standard output as given (commands add their own newlines). */
  stdout(text: string): void;
  stderr(text: string): void;
  /** The current instant (epoch ms). The CLI is the only place that reads the real clock. */
  now(): number;
}

export const EXIT_OK = 0;
/** The library refused the input (invalid spec, unknown zone, ...). */
export const EXIT_REJECTED = 1;
/** The command line itself is wrong (unknown option, bad --count or --from). */
export const EXIT_USAGE = 2;

/** Code of an argument the command line refuses before the library sees it. Specific to the CLI. */
export const ARGUMENT_INVALID = 'ARGUMENT_INVALID';

/** An argument error found by a command: reported like a library error, with exit code 2. */
export class ArgumentError extends Error {
  readonly code = ARGUMENT_INVALID;
}

/**
 * Reports an error a user can act on and returns its exit code; anything else (a bug) is rethrown.
 * With `json`, prints exactly `{"error": {"code", "message"}}` on stdout.
 */
export function reportError(e: unknown, io: CliIo, json: boolean): number {
  let code: string;
  let exit: number;
  if (e instanceof ArgumentError) {
    code = e.code;
    exit = EXIT_USAGE;
  } else if (isPunctualError(e)) {
    code = e.code;
    exit = EXIT_REJECTED;
  } else {
    throw e;
  }
  const message = (e as Error).message;
  if (json) io.stdout(`${JSON.stringify({ error: { code, message } })}\n`);
  else io.stderr(`punctual: ${code}: ${message}\n`);
  return exit;
}
