// The contract every spec kind compiles to. A CompiledSpec answers "what is the next occurrence after T?"
// with a bounded search, and describes itself in words. It is pure: it never reads a clock.

import type { DstChoice } from './dst-choice.js';
import type { PreviewDropped, PreviewOccurrence } from './preview-note.js';

export type SpecKind = 'cron' | 'rrule' | 'every' | 'at';

/** Told about each candidate instant a search passes over and drops (for a preview's `explain`). */
export type OnDropped = (dropped: PreviewDropped) => void;

export interface CompiledSpec {
  kind: SpecKind;
  /** Normalised source, what is stored: `@in 5m` becomes `@at <ISO instant>`; cron keeps its text. */
  source: string;
  /** IANA zone the spec is evaluated in (RRULE: taken from DTSTART;TZID when present). */
  tz: string;
  /**
   * First occurrence strictly after `after` (epoch ms), honouring startAt/endAt, or null when there is none.
   * Bounded: never searches endlessly.
   */
  nextAfter(after: number): number | null;
  /**
   * The same search as `nextAfter` (which is this one without the details): the occurrence with its notes
   * (a DST rule moved it, it is a pass of a repeated local time), and each candidate dropped on the way
   * (DST gap or repeat, EXDATE, before startAt, after endAt) told to `onDropped`, in order.
   */
  nextDetailedAfter(after: number, onDropped?: OnDropped): PreviewOccurrence | null;
  /** The DST choice in force (cron and RRULE), null for `@every` and `@at`. */
  dst: DstChoice | null;
  /** Human-readable description, e.g. "At 02:30, every day, America/New_York". */
  description: string;
}

export interface CompileOptions {
  /** IANA zone; default UTC. */
  tz?: string | undefined;
  /** The instant of saving: `@in` resolves against it; "never fires" is judged from it. */
  now: number;
  /** Anchor of `@every`: startAt when given, otherwise the schedule's creation instant. */
  anchor?: number | undefined;
  startAt?: number | null | undefined;
  endAt?: number | null | undefined;
  /**
   * Check at save time that the spec fires at least once from `now` (SPEC_NEVER_FIRES). Default true; a
   * stored schedule is recompiled with false, since running out of occurrences later is normal.
   */
  validate?: boolean | undefined;
  /** The schedule's DST choice (cron and RRULE only); missing parts take the kind's default. */
  dst?: Partial<DstChoice> | null | undefined;
}
