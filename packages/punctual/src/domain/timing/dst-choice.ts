// A schedule's DST choice: what a fixed local time does when a daylight-saving change removes it (`gap`)
// or repeats it (`repeat`). This module owns the names, the defaults per spec kind and the validation; it
// never computes occurrences (cron-dst.ts and rrule-series.ts apply the choice).

import { PunctualError } from '../../errors.js';
import type { SpecKind } from './compiled-spec.js';

/** A local time in a spring-forward gap: `shift` runs it once right after the gap, `skip` drops it. */
export const DST_GAP_CHOICES = ['shift', 'skip'] as const;
/** A local time that occurs twice (fall back): `first` runs the first pass only, `both` runs both passes. */
export const DST_REPEAT_CHOICES = ['first', 'both'] as const;
export type DstGapChoice = (typeof DST_GAP_CHOICES)[number];
export type DstRepeatChoice = (typeof DST_REPEAT_CHOICES)[number];

export interface DstChoice {
  gap: DstGapChoice;
  repeat: DstRepeatChoice;
}

/** Cron follows Vixie cron for fixed-time jobs; RRULE follows RFC 5545 (a time in a gap does not exist). */
export const DST_DEFAULTS: Readonly<Record<'cron' | 'rrule', DstChoice>> = {
  cron: { gap: 'shift', repeat: 'first' },
  rrule: { gap: 'skip', repeat: 'first' },
};

function invalid(message: string, value: unknown): PunctualError {
  return new PunctualError('DST_INVALID', message, { field: 'dst', value });
}

/**
 * The effective choice for a spec kind: the given parts over the kind's defaults. `@every` and `@at` have
 * no local times, so any `dst` given for them is refused (DST_INVALID), as is an unknown part or value.
 * Returns null for `every` and `at`.
 */
export function resolveDstChoice(kind: SpecKind, given: unknown): DstChoice | null {
  if (kind === 'every' || kind === 'at') {
    if (given === undefined || given === null) return null;
    throw invalid(
      `dst applies to cron and RRULE specs only: an ${kind === 'every' ? '@every' : '@at/@in'} spec has no local times`,
      given,
    );
  }
  const base = DST_DEFAULTS[kind];
  if (given === undefined || given === null) return base;
  if (typeof given !== 'object' || Array.isArray(given))
    throw invalid('dst must be an object { gap: "shift" | "skip", repeat: "first" | "both" }', given);
  const g = given as Record<string, unknown>;
  for (const k of Object.keys(g)) {
    if (k !== 'gap' && k !== 'repeat' && g[k] !== undefined)
      throw invalid(`dst.${k} is not a DST choice; use gap and repeat`, given);
  }
  if (g.gap !== undefined && !(DST_GAP_CHOICES as readonly unknown[]).includes(g.gap))
    throw invalid(`dst.gap must be one of ${DST_GAP_CHOICES.join(', ')}`, given);
  if (g.repeat !== undefined && !(DST_REPEAT_CHOICES as readonly unknown[]).includes(g.repeat))
    throw invalid(`dst.repeat must be one of ${DST_REPEAT_CHOICES.join(', ')}`, given);
  return {
    gap: (g.gap as DstGapChoice | undefined) ?? base.gap,
    repeat: (g.repeat as DstRepeatChoice | undefined) ?? base.repeat,
  };
}

/** What a schedule stores: null when the choice is the kind's default (or the kind has none). */
export function storedDstChoice(kind: SpecKind, choice: DstChoice | null): DstChoice | null {
  if (choice === null || kind === 'every' || kind === 'at') return null;
  const base = DST_DEFAULTS[kind];
  return choice.gap === base.gap && choice.repeat === base.repeat ? null : choice;
}
