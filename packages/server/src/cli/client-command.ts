// What every command that talks to a running service shares: its --url, --key and --json options, and the
// step from commander's options to a command function's arguments (--key is the API key there, since `key`
// is a schedule's). It must never hold a command's own options or logic.

import type { Command } from 'commander';
import type { Wiring } from './register-admin.js';

/** The options every client command takes. */
export type ClientOptions = { url?: string; key?: string; json?: boolean };

/** Commander's accumulator for a repeatable option. */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** Commander's options as a command's arguments: --key is the API key (`key` is a schedule's). */
export function args<T extends ClientOptions>(
  env: Wiring['env'],
  o: T,
): Omit<T, 'key'> & { env: Wiring['env']; apiKey?: string } {
  const { key, ...rest } = o;
  return { ...rest, env, ...(key === undefined ? {} : { apiKey: key }) };
}

/** Adds the options every client command takes (--url, --key, --json). */
export function client(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'the service (default: PUNCTUAL_URL or http://127.0.0.1:8080)')
    .option('--key <key>', 'an API key (default: PUNCTUAL_API_KEY)')
    .option('--json', "print the API's JSON");
}
