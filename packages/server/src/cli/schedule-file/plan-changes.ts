// The plan of `punctual apply`: what must change so the tenant's schedules are what a file says. Each entry is
// judged by the library first (a refused one is listed with its line and code, never guessed at), then
// compared with the stored schedule in the one comparable form of schedule-content.ts, so defaults the
// service fills in never count as a change and applying a file twice plans nothing. Pure: no I/O, no clock
// (`now` is given), no printing (print-plan.ts).

import { isPunctualError, stableJson } from 'punctual';
import type { FileEntry } from './read-schedule-file.js';
import { entryContent, viewContent, type ScheduleContent, type ScheduleView } from './schedule-content.js';
import type { ScheduleEntry } from './schedule-file-format.js';

export const CHANGE_KINDS = ['create', 'update', 'delete', 'unchanged'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** One field that differs; `from` or `to` is undefined when the field is absent on that side. */
export interface FieldChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface PlannedChange {
  kind: ChangeKind;
  key: string;
  /** The file's line of the entry (none for a delete). */
  line?: number | undefined;
  /** The stored version the plan saw (update, delete, unchanged): an update is sent with it as If-Match. */
  version?: number | undefined;
  /** The fields that change (update). */
  fields?: FieldChange[] | undefined;
  /** The entry as written (create, update). */
  entry?: ScheduleEntry | undefined;
  /** Whether the content (anything but the state) changes: an update that only pauses sends no PUT. */
  contentChanges?: boolean | undefined;
  /** An update that pauses or resumes the schedule. */
  stateChange?: 'pause' | 'resume' | undefined;
}

/** An entry the library refuses: nothing of the file is applied unless the caller asks for the rest. */
export interface Refusal {
  line: number;
  key?: string | undefined;
  code: string;
  message: string;
  field?: string | undefined;
}

export interface Plan {
  changes: PlannedChange[];
  refused: Refusal[];
  /** Stored schedules the file does not name, left alone without prune. */
  unnamed: string[];
  prune: boolean;
  counts: Record<ChangeKind, number>;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The leaves that differ between two values, by dotted path; objects are compared field by field. */
export function diffValues(path: string, from: unknown, to: unknown, out: FieldChange[] = []): FieldChange[] {
  if (isPlainObject(from) && isPlainObject(to)) {
    const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
    for (const k of keys) diffValues(path === '' ? k : `${path}.${k}`, from[k], to[k], out);
  } else if (
    stableJson(from ?? null) !== stableJson(to ?? null) ||
    (from === undefined) !== (to === undefined)
  ) {
    out.push({ field: path, from, to });
  }
  return out;
}

/** The fields that differ from the stored content to the file's; the state only when the file sets it. */
export function contentChanges(current: ScheduleContent, desired: ScheduleContent): FieldChange[] {
  const { state: curState, ...cur } = current;
  const { state: wantState, ...want } = desired;
  const fields = diffValues('', cur, want);
  if (wantState !== undefined && curState !== undefined && wantState !== curState) {
    fields.push({ field: 'state', from: curState, to: wantState });
  }
  return fields;
}

/**
 * An entry's content at `now`; but an entry that can no longer fire (a one-off instant now past, an endAt
 * behind) is still the stored schedule when, judged at the instant that schedule was last saved, it says
 * the same: nothing needs sending, so it is unchanged rather than refused. Any other difference is refused.
 */
function judged(value: unknown, existing: ScheduleView | undefined, now: number): ScheduleContent {
  try {
    return entryContent(value, now);
  } catch (err) {
    if (!isPunctualError(err, 'SPEC_NEVER_FIRES') || existing?.updatedAt === undefined) throw err;
    let then: ScheduleContent;
    try {
      then = entryContent(value, Date.parse(existing.updatedAt));
    } catch {
      throw err;
    }
    if (contentChanges(viewContent(existing), then).length > 0) throw err;
    return then;
  }
}

export function computePlan(input: {
  entries: readonly FileEntry[];
  current: readonly ScheduleView[];
  now: number;
  prune: boolean;
}): Plan {
  const stored = new Map(input.current.map((v) => [v.key, v]));
  const named = new Set<string>();
  const changes: PlannedChange[] = [];
  const refused: Refusal[] = [];
  for (const e of input.entries) {
    const key = isPlainObject(e.value) && typeof e.value.key === 'string' ? e.value.key : undefined;
    // A refused entry still names its key: --prune must never delete what the file meant to keep.
    if (key !== undefined) named.add(key);
    let desired: ScheduleContent;
    try {
      desired = judged(e.value, key === undefined ? undefined : stored.get(key), input.now);
    } catch (err) {
      if (!isPunctualError(err)) throw err;
      const field = typeof err.details?.field === 'string' ? err.details.field : undefined;
      refused.push({ line: e.line, key, code: err.code, message: err.message, field });
      continue;
    }
    const entry = e.value as ScheduleEntry;
    const existing = stored.get(entry.key);
    if (existing === undefined) {
      changes.push({ kind: 'create', key: entry.key, line: e.line, entry });
      continue;
    }
    const fields = contentChanges(viewContent(existing), desired);
    if (fields.length === 0) {
      changes.push({ kind: 'unchanged', key: entry.key, line: e.line, version: existing.version });
      continue;
    }
    const state = fields.find((f) => f.field === 'state');
    changes.push({
      kind: 'update',
      key: entry.key,
      line: e.line,
      version: existing.version,
      fields,
      entry,
      contentChanges: fields.some((f) => f.field !== 'state'),
      stateChange: state === undefined ? undefined : state.to === 'paused' ? 'pause' : 'resume',
    });
  }
  const unnamed = input.current
    .map((v) => v.key)
    .filter((k) => !named.has(k))
    .sort();
  if (input.prune) {
    for (const key of unnamed) changes.push({ kind: 'delete', key, version: stored.get(key)?.version });
  }
  const counts = { create: 0, update: 0, delete: 0, unchanged: 0 };
  for (const c of changes) counts[c.kind]++;
  return { changes, refused, unnamed: input.prune ? [] : unnamed, prune: input.prune, counts };
}
