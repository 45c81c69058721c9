// The page size a tenant API listing takes: 100 when none is asked, else an integer from 1 to 1000
// (SCHEDULE_INVALID otherwise). It must never clamp silently: a size out of range is refused.

import { PunctualError } from './errors.js';

/** The page size asked, checked; 100 when none is. */
export function clampLimit(limit: number | undefined): number {
  if (limit === undefined) return 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new PunctualError('SCHEDULE_INVALID', 'limit must be an integer between 1 and 1000', {
      field: 'limit',
    });
  }
  return limit;
}
