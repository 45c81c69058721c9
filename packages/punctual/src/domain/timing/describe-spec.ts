// A stored spec's description, derived from what the store keeps (the normalised source, its form and its
// zone) so no row has to keep the words: the same text compileSpec gave when the schedule was saved.
// Remembered per (form, zone, source), bounded. Pure: no I/O, no clock; it never throws (a source no
// release would have stored is described literally).

import type { SpecKind } from './compiled-spec.js';
import { compileSpec } from './compile-spec.js';
import { describeCron } from './describe-cron.js';
import { memoize } from './memoize.js';

/** The instant the derivation compiles at: a stored source needs no `now` (an `@at` is already absolute). */
const ANY_INSTANT = 0;

const describeOther = memoize((kind: string, tz: string, source: string): string => {
  try {
    return compileSpec(source, { tz, now: ANY_INSTANT, anchor: ANY_INSTANT, validate: false }).description;
  } catch {
    return `${kind} ${source}, ${tz}`;
  }
}, 10_000);

/** The description of a stored spec: what compileSpec(source, { tz }).description said when it was saved. */
export function describeStoredSpec(source: string, kind: SpecKind, tz: string): string {
  return kind === 'cron' ? describeCron(source, tz) : describeOther(kind, tz, source);
}
