// What the API shows of a run's or an attempt's error: `{ code?, message, details? }`, where `details` holds
// what the library kept beside the message (a script's `logs`, its `stack`, a command's `stdout` and
// `stderr`, a target's own fields), cut to
// the documented caps so one noisy run cannot make a page of runs huge. It must never show a stack that is
// not the tenant's own code: only a script's failure (a `SCRIPT_*` code) carries its stack out; every other
// stack (the service's, a target driver's) stays in the service's log.

import type { RunError } from 'punctual';

/** The most log text shown per error (characters of all lines together); the rest is counted, not shown. */
export const ERROR_LOGS_MAX_CHARS = 16_384;
/** The most of a script's stack shown (characters). */
export const ERROR_STACK_MAX_CHARS = 4_096;
/** The most of a command's stdout, and of its stderr, shown (characters: the end of it, where errors are). */
export const ERROR_OUTPUT_MAX_CHARS = 16_384;
/** The most JSON text of the other details shown; larger ones are replaced by `{ "omitted": <chars> }`. */
export const ERROR_OTHER_DETAILS_MAX_CHARS = 4_096;

export interface ErrorDetailsView {
  logs?: string[];
  stack?: string;
  stdout?: string;
  stderr?: string;
  [other: string]: unknown;
}

export interface ErrorView {
  code?: string;
  message: string;
  details?: ErrorDetailsView;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

/** The end of a command's output: its last `max` characters, after a note counting the ones before. */
function tail(text: string, max: number): string {
  return text.length <= max
    ? text
    : `[${text.length - max} earlier characters not shown] …${text.slice(text.length - max)}`;
}

/** Log lines in order until ERROR_LOGS_MAX_CHARS, then one line counting the ones left out. */
function cappedLogs(lines: unknown[]): string[] {
  const kept: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const text = typeof line === 'string' ? line : JSON.stringify(line);
    if (used + text.length > ERROR_LOGS_MAX_CHARS) {
      kept.push(
        `[${lines.length - i} more log lines not shown: over the API's limit of ${ERROR_LOGS_MAX_CHARS} characters]`,
      );
      break;
    }
    kept.push(text);
    used += text.length;
  }
  return kept;
}

/** The API's view of a recorded error (null stays null). */
export function errorView(e: RunError | null): ErrorView | null {
  if (e === null) return null;
  const view: ErrorView =
    e.code === undefined ? { message: e.message } : { code: e.code, message: e.message };
  const details: ErrorDetailsView = {};
  const kept = (e as RunError & { details?: unknown }).details;
  if (typeof kept === 'object' && kept !== null && !Array.isArray(kept)) {
    const { logs, stdout, stderr, ...other } = kept as Record<string, unknown>;
    if (Array.isArray(logs) && logs.length > 0) details.logs = cappedLogs(logs);
    if (typeof stdout === 'string') details.stdout = tail(stdout, ERROR_OUTPUT_MAX_CHARS);
    if (typeof stderr === 'string') details.stderr = tail(stderr, ERROR_OUTPUT_MAX_CHARS);
    if (Object.keys(other).length > 0) {
      const text = JSON.stringify(other);
      Object.assign(details, text.length <= ERROR_OTHER_DETAILS_MAX_CHARS ? other : { omitted: text.length });
    }
  }
  if (typeof e.stack === 'string' && e.stack !== '' && e.code?.startsWith('SCRIPT_') === true) {
    details.stack = cut(e.stack, ERROR_STACK_MAX_CHARS);
  }
  if (Object.keys(details).length > 0) view.details = details;
  return view;
}
