// The preview of a saved schedule: its next occurrences from `from` as they will really run, its spec
// compiled as stored (the anchor of `@every` is its startAt or creation), its calendars and its
// per-occurrence overrides applied (a skipped occurrence dropped with reason `override`, a moved one listed
// at its new instant with a `moved` note, another payload noted), and no more than its maxRuns leaves. A
// completed schedule has none. Pure: the caller reads the calendars and overrides; this never touches a
// store or reads a clock.

import type { AppliedCalendars } from './calendar/apply-calendars.js';
import { compileStored, type Schedule } from './schedule.js';
import { previewList, type PreviewOverride } from './timing/preview-list.js';
import { checkPreviewWindow, specPreviewOf, type SpecPreview } from './timing/preview-spec.js';

export function previewSchedule(
  s: Schedule,
  opts: {
    from: number;
    count: number;
    explain?: boolean | undefined;
    /** The schedule's calendars, looked up (null: it has none). */
    calendars: AppliedCalendars | null;
    overrides: readonly PreviewOverride[];
  },
): SpecPreview {
  checkPreviewWindow(opts.count, opts.from);
  const compiled = compileStored(s, opts.from);
  if (s.state === 'completed') {
    return specPreviewOf(
      compiled,
      opts.explain === true ? { occurrences: [], dropped: [] } : { occurrences: [] },
    );
  }
  const remaining =
    s.maxRuns === null || s.nextFireAt === null
      ? null
      : { from: s.nextFireAt, runs: Math.max(0, s.maxRuns - s.materializedCount) };
  return specPreviewOf(compiled, previewList(compiled, { ...opts, remaining }));
}
