// What a preview says about each instant: why an occurrence is where it is (a DST rule moved it, a
// business-day rule rolled it, an override moved it) and, when asked to explain, which candidates were
// dropped and why. This module owns the one list of note kinds and drop reasons that the library, the API's
// schemas and the dashboard derive from. It holds types and names only: it must never compute occurrences.

/** Every kind of note an occurrence in a preview can carry. */
export const PREVIEW_NOTE_KINDS = [
  'dstShifted', // the local time asked for fell in a DST gap; `asked` and `used` are local wall times
  'dstRepeat', // the local time occurs twice (autumn change); `pass` is 1 or 2
  'rolled', // a business-day rule moved it off a non-working day (`from`, `rule`, `calendar`)
  'moved', // a per-occurrence override moved it (`from`)
  'payloadOverridden', // a per-occurrence override gives this occurrence another payload
] as const;
export type PreviewNoteKind = (typeof PREVIEW_NOTE_KINDS)[number];

export type PreviewNote =
  | { kind: 'dstShifted'; asked: string; used: string }
  | { kind: 'dstRepeat'; pass: 1 | 2 }
  | { kind: 'rolled'; rule: 'next' | 'previous'; calendar: string; from: number }
  | { kind: 'moved'; from: number }
  | { kind: 'payloadOverridden' };

/** Every reason a candidate instant can be dropped from a preview (shown with `explain`). */
export const PREVIEW_DROP_REASONS = [
  'dstGap', // its local time does not exist and the schedule's DST choice is `gap: "skip"`
  'dstRepeat', // the second pass of a repeated local time, and the DST choice is `repeat: "first"`
  'exdate', // an RRULE EXDATE removes it
  'calendar', // it falls on a date of an excluded calendar (`calendar` names it)
  'notWorkingDay', // a business-day rule with `roll: "skip"` (`calendar` names it)
  'override', // a per-occurrence override skips it
  'beforeStart', // before the schedule's startAt
  'afterEnd', // after the schedule's endAt
] as const;
export type PreviewDropReason = (typeof PREVIEW_DROP_REASONS)[number];

/** One occurrence of a preview: the instant (epoch ms) and what happened to it, in order. */
export interface PreviewOccurrence {
  at: number;
  notes: PreviewNote[];
}

/** A candidate that will not run, listed when the preview is asked to explain. */
export interface PreviewDropped {
  at: number;
  reason: PreviewDropReason;
  /** The calendar's name for `calendar` and `notWorkingDay`. */
  calendar?: string;
  /** The label of the calendar date it fell on (`calendar`, `notWorkingDay`), when the date has one. */
  label?: string;
}
