// An NDJSON body (application/x-ndjson): one JSON value per line, read into an array of NdjsonLine so the
// bulk route answers each line by its number. A line that is not JSON is kept with its parse error (the
// route refuses that line only); blank lines are skipped. It never validates what a line holds.

import { HttpError } from './errors.js';

export class NdjsonLine {
  constructor(
    /** 1-based line number in the body. */
    readonly line: number,
    readonly value: unknown,
    /** Why the line is not JSON; undefined when it is. */
    readonly error?: string,
  ) {}
}

const POISON = /"(?:__proto__|constructor)"\s*:/;

/** Splits and parses an NDJSON body; an empty one is refused. */
export function parseNdjson(text: string): NdjsonLine[] {
  const out: NdjsonLine[] = [];
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    try {
      if (POISON.test(line)) throw new Error('a __proto__ or constructor key is not allowed');
      out.push(new NdjsonLine(i + 1, JSON.parse(line)));
    } catch (e) {
      out.push(new NdjsonLine(i + 1, undefined, (e as Error).message));
    }
  }
  if (out.length === 0) throw new HttpError(400, 'MALFORMED_JSON', 'the NDJSON body holds no line');
  return out;
}
