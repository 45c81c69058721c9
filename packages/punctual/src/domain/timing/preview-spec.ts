// Spec preview: compiles a spec as if saved at `from` and lists its next occurrences, for "what would this
// do?" answers in the API and dashboard: each with its notes (a DST rule moved it, a pass of a repeated
// hour) and, when asked to explain, the candidates dropped on the way. The notes come from the spec's own
// search (`nextDetailedAfter`), never from a second computation. Pure: no I/O, no timers, never reads a
// clock (`from` is given). With calendars, the occurrences are those the calendars let run: a rolled one is
// listed at the instant it runs, with a `rolled` note; with overrides, as preview-list.ts says.

import { PunctualError } from '../../errors.js';
import type { AppliedCalendars } from '../calendar/apply-calendars.js';
import type { CompiledSpec, SpecKind } from './compiled-spec.js';
import { compileSpec } from './compile-spec.js';
import type { DstChoice } from './dst-choice.js';
import type { PreviewDropped, PreviewOccurrence } from './preview-note.js';
import { previewList, type PreviewList, type PreviewOverride } from './preview-list.js';

export const MAX_PREVIEW_COUNT = 1000;

export interface SpecPreview {
  description: string;
  /** Occurrences in epoch milliseconds, the first one at or after `from`. */
  next: number[];
  /** The same occurrences with their notes. */
  occurrences: PreviewOccurrence[];
  /**
   * With `explain`: the candidates dropped from `from` up to the last occurrence (and the first one after
   * endAt), in order, at most MAX_PREVIEW_COUNT.
   */
  dropped?: PreviewDropped[];
  /** The DST choice in force (cron and RRULE), null for `@every` and `@at`. */
  dst: DstChoice | null;
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
  opts: {
    tz?: string | undefined;
    from: number;
    count: number;
    startAt?: number | null | undefined;
    endAt?: number | null | undefined;
    dst?: Partial<DstChoice> | null | undefined;
    explain?: boolean | undefined;
    /** The schedule's calendars, looked up (applyCalendarRules). */
    calendars?: AppliedCalendars | null | undefined;
    /** The schedule's per-occurrence overrides (preview-list.ts says what each does). */
    overrides?: readonly PreviewOverride[] | undefined;
  },
): SpecPreview {
  const { count, from } = opts;
  checkPreviewWindow(count, from);
  const compiled = compileSpec(spec, {
    tz: opts.tz,
    now: from,
    anchor: from,
    startAt: opts.startAt ?? null,
    endAt: opts.endAt ?? null,
    dst: opts.dst,
  });
  const list = previewList(compiled, {
    from,
    count,
    explain: opts.explain,
    calendars: opts.calendars,
    overrides: opts.overrides,
  });
  return specPreviewOf(compiled, list);
}

/** The preview's answer: the list with what the compiled spec says of itself. */
export function specPreviewOf(compiled: CompiledSpec, list: PreviewList): SpecPreview {
  const { occurrences } = list;
  return {
    description: compiled.description,
    next: occurrences.map((o) => o.at),
    occurrences,
    ...(list.dropped === undefined ? {} : { dropped: list.dropped }),
    dst: compiled.dst,
    tz: compiled.tz,
    kind: compiled.kind,
    source: compiled.source,
  };
}

/** SCHEDULE_INVALID unless `count` is 1-MAX_PREVIEW_COUNT and `from` a finite instant. */
export function checkPreviewWindow(count: number, from: number): void {
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
}
