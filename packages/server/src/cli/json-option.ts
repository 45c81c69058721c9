// An option whose value is JSON text (--payload, --file's content): parsed, or refused as ARGUMENT_INVALID
// naming the option. It must never guess at text that is not JSON.

import { ArgumentError } from './io.js';

/** The option's JSON value; ARGUMENT_INVALID naming the option when the text is not JSON. */
export function parseJsonOption(option: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new ArgumentError(`${option} must be JSON (${(e as Error).message})`);
  }
}
