// What the admin and client commands print besides their results: the CLI's own error codes, the one way
// they report an error (a `punctual: CODE: message` line on stderr, or `{"error": {...}}` on stdout with
// --json), aligned tables and instants. It never decides exit codes beyond the error it is given.

import type { CliIo } from './io.js';

/** The configuration is invalid (exit 2, like serve). */
export const CONFIG_INVALID = 'CONFIG_INVALID';
/** The database could not be opened or did not answer (exit 1). */
export const DATABASE_UNAVAILABLE = 'DATABASE_UNAVAILABLE';
/** The service at --url did not answer (exit 1). */
export const SERVICE_UNREACHABLE = 'SERVICE_UNREACHABLE';

export type Env = Readonly<Record<string, string | undefined>>;

/** Prints one error the way every command does, and returns `exit`. */
export function printError(io: CliIo, json: boolean, code: string, message: string, exit: number): number {
  if (json) io.stdout(`${JSON.stringify({ error: { code, message } })}\n`);
  else io.stderr(`punctual: ${code}: ${message}\n`);
  return exit;
}

/** Prints a value as one line of JSON. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value)}\n`);
}

/** Rows under a header, each column as wide as its widest cell, two spaces apart. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

/** Epoch milliseconds as ISO-8601 UTC, or `-` for none. */
export function iso(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '-' : new Date(ms).toISOString();
}
