// The field diff between two versions of a schedule's content: field -> {from, to}, one entry per field
// that differs (JSON parts compared whatever their key order). Pure: it must never perform I/O or read a
// clock.

import type { Json } from './json.js';
import { stableJson, type ScheduleDraft } from './schedule.js';

/** The content fields a diff compares, in the order it lists them (tenant and key never change). */
export const DIFF_FIELDS = [
  'spec',
  'specKind',
  'tz',
  'target',
  'payload',
  'policies',
  'startAt',
  'endAt',
  'maxRuns',
  'jitterMs',
  'description',
  'summary',
  'labels',
  'dst',
  'calendarRules',
  'expect',
] as const satisfies readonly (keyof ScheduleDraft)[];

export type DiffField = (typeof DIFF_FIELDS)[number] | 'state';

export type ScheduleDiff = Partial<Record<DiffField, { from: Json; to: Json }>>;

/**
 * The fields that differ from `before` to `after`; `before` null (a creation) lists every field that is set
 * in `after` (from null), `after` null (a deletion) every field set in `before` (to null).
 */
export function diffSchedules(before: ScheduleDraft | null, after: ScheduleDraft | null): ScheduleDiff {
  const out: ScheduleDiff = {};
  for (const f of DIFF_FIELDS) {
    const from = (before?.[f] ?? null) as Json;
    const to = (after?.[f] ?? null) as Json;
    // A side that is null differs from any value (no need to serialise it: a creation lists every field).
    const differ = from === null || to === null ? from !== to : stableJson(from) !== stableJson(to);
    if (differ) out[f] = { from, to };
  }
  return out;
}

/** True when a diff holds no change. */
export function emptyDiff(d: ScheduleDiff): boolean {
  return Object.keys(d).length === 0;
}
