// Helpers a handler returns to steer its run: ok, retry, fail, check again. A handler may also return a
// plain value (treated as ok with that result) or throw (treated as retry).

import type { Json } from '../domain/json.js';
import type { Outcome } from '../domain/outcome.js';
import { describeThrown } from '../errors.js';

const OUTCOME = Symbol.for('punctual.outcome');

type Branded = Outcome & { [OUTCOME]: true };

function brand(o: Outcome): Branded {
  return Object.defineProperty(o, OUTCOME, { value: true, enumerable: false }) as Branded;
}

export function isOutcome(v: unknown): v is Outcome {
  return typeof v === 'object' && v !== null && (v as Record<symbol, unknown>)[OUTCOME] === true;
}

/** The run succeeded, with an optional JSON result kept on the run. */
export function ok(result?: Json): Outcome {
  return brand({ type: 'ok', result });
}

/** A transient failure: retried with the schedule's backoff (or after `afterMs`) while attempts remain. */
export function retry(error?: unknown, opts?: { afterMs?: number }): Outcome {
  return brand({ type: 'retry', error: describeThrown(error ?? 'retry requested'), afterMs: opts?.afterMs });
}

/** A permanent failure: the run is dead at once, whatever attempts remain. */
export function fail(error: unknown): Outcome {
  return brand({ type: 'fail', error: describeThrown(error) });
}

/**
 * Ask to be run again at `at` (epoch ms or Date) for the same occurrence: the "is it there yet?" pattern,
 * bounded by the schedule's maxChecks and check horizon.
 */
export function checkAgain(at: number | Date): Outcome {
  return brand({ type: 'checkAgain', at: typeof at === 'number' ? at : at.getTime() });
}
