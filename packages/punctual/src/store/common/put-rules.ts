// The rules of a schedule put that both stores apply the same way: when a put is refused (VERSION_CONFLICT,
// its error worded once) and when it changes nothing (see sameAsStored in store.ts). Pure: it must never run
// a statement or read a clock; the stores fetch the stored version and apply the answer.

import { PunctualError } from '../../errors.js';
import type { PutScheduleRequest } from '../store.js';

/** VERSION_CONFLICT for `key`; `expected` null: the put expected no schedule (expectAbsent). */
export function versionConflict(key: string, expected: number | null, actual: number | null): PunctualError {
  return new PunctualError(
    'VERSION_CONFLICT',
    `schedule ${key} is at version ${actual ?? 'none'}, not ${expected ?? 'none'}`,
    { key, expected, actual },
  );
}

/**
 * The refusal of a put over the stored version `actual` (null: no schedule with the key), or undefined when
 * the put may go on: expectedVersion must equal the stored version, expectAbsent wants none stored.
 */
export function putRefusal(
  req: Pick<PutScheduleRequest, 'draft' | 'expectedVersion' | 'expectAbsent'>,
  actual: number | null,
): PunctualError | undefined {
  if (req.expectedVersion !== undefined && req.expectedVersion !== actual) {
    return versionConflict(req.draft.key, req.expectedVersion, actual);
  }
  if (req.expectAbsent === true && actual !== null) return versionConflict(req.draft.key, null, actual);
  return undefined;
}
