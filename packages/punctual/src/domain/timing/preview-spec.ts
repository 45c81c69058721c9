// Spec preview: compiles a spec as if saved at `from` and lists its next occurrences, for "what would this
// do?" answers in the API and dashboard. Pure: no I/O, no timers, never reads a clock (`from` is given).

import { PunctualError } from '../../errors.js';
import type { SpecKind } from './compiled-spec.js';
import { compileSpec } from './compile-spec.js';

export const MAX_PREVIEW_COUNT = 1000;

export interface SpecPreview {
  description: string;
  /** Occurrences in epoch milliseconds, the first one at or after `from`. */
  next: number[];
  tz: string;
  kind: SpecKind;
  source: string;
}

/**
 * Lists up to `count` (1-1000) occurrences at or after `from`. `from` is also the `now` of compilation and
 * the anchor of `@every` (unless startAt is given), so `@in 5m` resolves against it.
 */
export function previewSpec(
  spec: string,
  opts: { tz?: string; from: number; count: number; startAt?: number | null; endAt?: number | null },
): SpecPreview {
  const { count, from } = opts;
  if (!Number.isInteger(count) || count < 1 || count > MAX_PREVIEW_COUNT) {
    throw new PunctualError('SCHEDULE_INVALID', `count must be an integer from 1 to ${MAX_PREVIEW_COUNT}`, {
      field: 'count',
      value: count,
    });
  }
  if (!Number.isFinite(from)) {
    throw new PunctualError('SCHEDULE_INVALID', 'from must be a finite instant in epoch milliseconds', {
      field: 'from',
    });
  }
  const compiled = compileSpec(spec, {
    tz: opts.tz,
    now: from,
    anchor: from,
    startAt: opts.startAt ?? null,
    endAt: opts.endAt ?? null,
  });
  const next: number[] = [];
  let after = from - 1;
  while (next.length < count) {
    const t = compiled.nextAfter(after);
    if (t === null || t <= after) break;
    next.push(t);
    after = t;
  }
  return {
    description: compiled.description,
    next,
    tz: compiled.tz,
    kind: compiled.kind,
    source: compiled.source,
  };
}
