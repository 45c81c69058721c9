// A schedule's upcoming list as it will really run, as a pure function: the rows of its preview (calendars
// and overrides applied, with explain) joined with its overrides (GET /v1/schedules/{key}/occurrences) by the
// nominal instant. Each row keeps its nominal `scheduledFor` (an occurrence's identity, what an override
// names) beside `at`, where it runs. It never calls the API and never computes an occurrence itself.

import type { Occurrence, OccurrenceOverride, Preview, PreviewDropped, PreviewNote } from '../api.ts';

/** The dropped candidates that are occurrences of the schedule (the others were never occurrences). */
const OCCURRENCE_DROPS: ReadonlySet<PreviewDropped['reason']> = new Set([
  'calendar',
  'notWorkingDay',
  'override',
]);

export interface UpcomingRow {
  /** The nominal instant: the occurrence's identity, what skip, move, payload and undo name. */
  scheduledFor: string;
  /** When it runs (rolled or moved included); null when it does not run. */
  at: string | null;
  notes: PreviewNote[];
  /** Why it does not run: a calendar, a non-working day, or a skip override. */
  dropped: PreviewDropped | null;
  /** Its override as the occurrences list shows it (with its note), when listed there. */
  override: OccurrenceOverride | null;
  /** True when an override applies to it (its notes or drop say so, or the list has one). */
  overridden: boolean;
}

/** The nominal instant of a previewed occurrence: a moved or rolled one names it in `from`. */
function nominal(at: string, notes: readonly PreviewNote[]): string {
  for (const n of notes) if (n.kind === 'moved' || n.kind === 'rolled') return n.from;
  return at;
}

/** The rows in the order they run, a dropped one at its nominal instant. */
export function upcomingRows(preview: Preview, occurrences: readonly Occurrence[]): UpcomingRow[] {
  const overrides = new Map(occurrences.flatMap((o) => (o.override ? [[o.scheduledFor, o.override]] : [])));
  const rows: UpcomingRow[] = preview.occurrences.map((o) => {
    const scheduledFor = nominal(o.at, o.notes);
    const override = overrides.get(scheduledFor) ?? null;
    const byNotes = o.notes.some((n) => n.kind === 'moved' || n.kind === 'payloadOverridden');
    return {
      scheduledFor,
      at: o.at,
      notes: o.notes,
      dropped: null,
      override,
      overridden: byNotes || override !== null,
    };
  });
  for (const d of preview.dropped ?? []) {
    if (!OCCURRENCE_DROPS.has(d.reason)) continue;
    const override = overrides.get(d.at) ?? null;
    rows.push({
      scheduledFor: d.at,
      at: null,
      notes: [],
      dropped: d,
      override,
      overridden: d.reason === 'override' || override !== null,
    });
  }
  const when = (r: UpcomingRow): number => Date.parse(r.at ?? r.scheduledFor);
  return rows.sort((a, b) => when(a) - when(b) || Date.parse(a.scheduledFor) - Date.parse(b.scheduledFor));
}
