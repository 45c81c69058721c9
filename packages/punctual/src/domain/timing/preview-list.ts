// The list a preview shows: a compiled spec's next occurrences from `from`, as its calendars and its
// per-occurrence overrides leave them. A skipped occurrence is dropped (reason `override`), a moved one is
// listed at its new instant with a `moved` note, one with another payload carries a `payloadOverridden`
// note, as the materializer will write their runs (an override applies only to an occurrence its calendars
// let run). Shared by the preview of a spec and of a saved schedule, and by a schedule's next fire time.
// Pure: no I/O, never reads a clock; overrides and calendars arrive as input.

import { nextCalendaredAfter, calendarFate, type AppliedCalendars } from '../calendar/apply-calendars.js';
import type { OverrideKind } from '../occurrence-override.js';
import type { CompiledSpec } from './compiled-spec.js';
import type { PreviewDropped, PreviewOccurrence } from './preview-note.js';

/** Most dropped candidates an explained preview lists. */
export const MAX_PREVIEW_DROPPED = 1000;

/** What a preview needs of an occurrence override (the stored OccurrenceOverride fits). */
export interface PreviewOverride {
  /** The occurrence's nominal instant (its identity). */
  instant: number;
  kind: OverrideKind;
  /** `move`: where its run goes. */
  moveTo: number | null;
}

export interface PreviewListOptions {
  from: number;
  count: number;
  explain?: boolean | undefined;
  calendars?: AppliedCalendars | null | undefined;
  /** The schedule's overrides (any order); a moved occurrence from before `from` is listed when it runs at or after `from`. */
  overrides?: readonly PreviewOverride[] | undefined;
  /**
   * A schedule's maxRuns: at most `runs` more occurrences from the nominal instant `from` on (its
   * materializer's cursor) run. Those the calendars drop do not count; a skip override does (as when written).
   */
  remaining?: { from: number; runs: number } | null | undefined;
}

export interface PreviewList {
  occurrences: PreviewOccurrence[];
  dropped?: PreviewDropped[];
}

/** One occurrence of the search: its nominal instant and where and how it runs before overrides. */
interface Candidate {
  nominal: number;
  occurrence: PreviewOccurrence;
}

/** What an override does to an occurrence: dropped (skip) or listed (moved, other payload, untouched). */
export function overriddenOccurrence(
  c: Candidate,
  o: PreviewOverride | undefined,
): { dropped: PreviewDropped } | { occurrence: PreviewOccurrence; moved: boolean } {
  if (o === undefined) return { occurrence: c.occurrence, moved: false };
  switch (o.kind) {
    case 'skip':
      return { dropped: { at: c.nominal, reason: 'override' } };
    case 'move': {
      // The roll no longer decides where it runs; its DST notes still say what its nominal instant is.
      const notes = c.occurrence.notes.filter((n) => n.kind !== 'rolled');
      return {
        occurrence: { at: o.moveTo!, notes: [...notes, { kind: 'moved', from: c.nominal }] },
        moved: true,
      };
    }
    case 'payload':
      return {
        occurrence: { at: c.occurrence.at, notes: [...c.occurrence.notes, { kind: 'payloadOverridden' }] },
        moved: false,
      };
  }
}

/**
 * Lists up to `count` occurrences, ordered by when they run. The search stops once `count` occurrences
 * that stay where they are have been found; the overrides of occurrences beyond it (or before `from`) that
 * move one into the list are then applied too, when their instant is an occurrence the calendars let run.
 */
export function previewList(spec: CompiledSpec, opts: PreviewListOptions): PreviewList {
  const { from, count } = opts;
  const calendars = opts.calendars ?? null;
  const dropped: PreviewDropped[] = [];
  const onDropped =
    opts.explain === true
      ? (d: PreviewDropped): void => {
          if (dropped.length < MAX_PREVIEW_DROPPED) dropped.push(d);
        }
      : undefined;
  const pending = new Map((opts.overrides ?? []).map((o) => [o.instant, o]));
  const next = (after: number): Candidate | null => {
    if (calendars !== null) return nextCalendaredAfter(spec, calendars, after, onDropped);
    const o = spec.nextDetailedAfter(after, onDropped);
    return o === null || o.at <= after ? null : { nominal: o.at, occurrence: o };
  };
  const listed: PreviewOccurrence[] = [];
  const remaining = opts.remaining ?? null;
  let counted = 0;
  let exhaustedAt: number | null = null;
  let staying = 0;
  let after = from - 1;
  while (staying < count) {
    const c = next(after);
    if (c === null) break;
    if (remaining !== null && c.nominal >= remaining.from && counted++ >= remaining.runs) {
      exhaustedAt = c.nominal;
      break;
    }
    after = c.nominal;
    const r = overriddenOccurrence(c, pending.get(c.nominal));
    pending.delete(c.nominal);
    if ('dropped' in r) {
      onDropped?.(r.dropped);
      continue;
    }
    if (!r.moved) staying++;
    if (r.occurrence.at >= from || !r.moved) listed.push(r.occurrence);
  }
  // Moves of occurrences the search did not reach (before `from`, or after where it stopped).
  for (const o of pending.values()) {
    if (o.kind !== 'move' || o.moveTo === null || o.moveTo < from) continue;
    if (exhaustedAt !== null && o.instant >= exhaustedAt) continue;
    const occurrence = occurrenceAt(spec, calendars, o.instant);
    if (occurrence === null) continue;
    const r = overriddenOccurrence({ nominal: o.instant, occurrence }, o);
    if ('occurrence' in r) listed.push(r.occurrence);
  }
  listed.sort((a, b) => a.at - b.at);
  const occurrences = listed.slice(0, count);
  return opts.explain === true ? { occurrences, dropped } : { occurrences };
}

/** The occurrence at `instant` as its calendars leave it, or null when it is none or they drop it. */
function occurrenceAt(
  spec: CompiledSpec,
  calendars: AppliedCalendars | null,
  instant: number,
): PreviewOccurrence | null {
  const o = spec.nextDetailedAfter(instant - 1);
  if (o === null || o.at !== instant) return null;
  if (calendars === null) return o;
  const fate = calendarFate(instant, calendars, spec.tz);
  if (fate.kind === 'dropped') return null;
  return { at: fate.at, notes: fate.rolled === null ? o.notes : [...o.notes, fate.rolled] };
}
