// The schedule: what to run and when. This module owns the schedule's shape, the user-facing input, and
// `normalizeSchedule`, the pure function that validates input and turns it into what the store keeps.
// It must never perform I/O or read a clock (callers pass `now`).

import { PunctualError } from '../errors.js';
import type { Json } from './json.js';
import { JSON_MAX_DEPTH, PAYLOAD_MAX_BYTES, jsonBytes, jsonProblem } from './json-limits.js';
import { resolvePolicies, type Policies } from './policies.js';
import type { CompiledSpec, SpecKind } from './timing/compiled-spec.js';
import { compileSpec } from './timing/compile-spec.js';
import type { SpecCompiler } from './timing/spec-compiler.js';
import { storedDstChoice, type DstChoice } from './timing/dst-choice.js';
import { parseDuration } from './timing/duration.js';
import { parseTarget, type Target } from './target.js';
import { parseCalendarRules, type CalendarRules } from './calendar/calendar-rules.js';
import { parseExpect, type ScheduleExpect, type ScheduleExpectInput } from './schedule-expect.js';

export type ScheduleState = 'active' | 'paused' | 'completed';

export const DEFAULT_TENANT = 'default';

/** What a user gives to create or update a schedule. */
export interface ScheduleInput {
  key: string;
  spec: string;
  tz?: string | undefined;
  target: Target;
  payload?: Json | undefined;
  policies?: (Partial<Omit<Policies, 'retry'>> & { retry?: Partial<Policies['retry']> }) | undefined;
  /** ISO-8601 string, epoch milliseconds, or Date. */
  startAt?: string | number | Date | null | undefined;
  endAt?: string | number | Date | null | undefined;
  maxRuns?: number | null | undefined;
  /** Milliseconds or a duration string ("30s", "PT5M"). */
  jitter?: number | string | undefined;
  /** Free text the user writes about the schedule (`description` is generated from the spec). */
  summary?: string | null | undefined;
  /** Key/value strings to find schedules by (see LABELS_MAX and LABEL_KEY_RE). */
  labels?: Record<string, string> | null | undefined;
  /**
   * What a fixed local time does at a DST change (cron and RRULE only; DST_INVALID for `@every`/`@at`):
   * `gap` shift | skip, `repeat` first | both. Missing parts take the kind's default (docs/time.md).
   */
  dst?: Partial<DstChoice> | null | undefined;
  /** Calendars whose dates skip an occurrence (recorded as skipped, reason `calendar`). */
  exclude?: string[] | null | undefined;
  /** Keep to a calendar's working days: skip an occurrence on another day, or roll it to the next/previous. */
  businessDays?: { calendar: string; roll?: 'skip' | 'next' | 'previous' | undefined } | null | undefined;
  /** Each occurrence must succeed within this of its start, or an `expectation_breached` alert opens. */
  expect?: ScheduleExpectInput | null | undefined;
  /** Only when the schedule is created: `paused` creates it paused. Ignored on an update (pause / resume). */
  state?: 'active' | 'paused' | undefined;
}

/** At most this many labels per schedule. */
export const LABELS_MAX = 20;
/** A label key: 1-63 letters, digits and . _ / - (starting with a letter or digit). */
export const LABEL_KEY_RE = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,62}$/;
/** A label value: at most this many characters. */
export const LABEL_VALUE_MAX = 200;
/** A summary: at most this many characters. */
export const SUMMARY_MAX = 2000;

/** The validated, normalised schedule content: everything a version captures. */
export interface ScheduleDraft {
  tenantId: string;
  key: string;
  spec: string;
  specKind: SpecKind;
  tz: string;
  target: Target;
  payload: Json | null;
  policies: Policies;
  startAt: number | null;
  endAt: number | null;
  maxRuns: number | null;
  jitterMs: number;
  /** Generated from the spec, in English ("every day at 09:00"). */
  description: string;
  /** The user's own free text; null when none. */
  summary: string | null;
  /** Key/value strings ({} when none). */
  labels: Record<string, string>;
  /** The DST choice when it differs from the spec kind's default; null for the default (and @every/@at). */
  dst: DstChoice | null;
  /** The calendars it uses (`exclude`, `businessDays`); null for none. */
  calendarRules: CalendarRules | null;
  /** What each occurrence must achieve (successWithinMs); null (or absent, in older code) for nothing. */
  expect?: ScheduleExpect | null;
}

export interface Schedule extends ScheduleDraft {
  id: string;
  state: ScheduleState;
  version: number;
  /** Nominal instant of the next occurrence not yet materialised; null when none remain. */
  nextFireAt: number | null;
  /** Occurrences materialised so far (maxRuns counts these). */
  materializedCount: number;
  /** Runs executed to an outcome: settled by a worker as succeeded or dead (not skipped, expired, cancelled). */
  firedCount: number;
  /** When the latest executed run (counted in firedCount) started delivery; null when none yet. */
  lastFiredAt: number | null;
  /** When the latest run of this schedule succeeded; null when none yet. */
  lastSucceededAt: number | null;
  pausedAt: number | null;
  /** A timed pause resumes by itself at this instant (null: paused until resumed by hand, or not paused). */
  pausedUntil: number | null;
  note: string | null;
  createdAt: number;
  updatedAt: number;
}

const KEY_RE = /^[A-Za-z0-9_][A-Za-z0-9._:@-]{0,199}$/;

function field(name: string, why: string): PunctualError {
  return new PunctualError('SCHEDULE_INVALID', `${name} ${why}`, { field: name });
}

/** Parses an instant given as ISO-8601 text, epoch milliseconds or a Date. */
export function parseInstant(v: unknown, name: string): number | null {
  if (v === undefined || v === null) return null;
  let ms: number;
  if (v instanceof Date) ms = v.getTime();
  else if (typeof v === 'number') ms = v;
  else if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)) ms = Date.parse(v);
  else throw field(name, 'must be an ISO-8601 instant or epoch milliseconds');
  if (!Number.isFinite(ms) || !Number.isInteger(ms)) throw field(name, 'is not a valid instant');
  return ms;
}

/**
 * Validates and normalises schedule input. `now` is the instant of saving; `anchor` is the schedule's
 * creation instant (kept across updates so `@every` never drifts).
 */
export function normalizeSchedule(
  input: ScheduleInput,
  opts: { tenantId: string; now: number; createdAt?: number; compile?: SpecCompiler | undefined },
): ScheduleDraft {
  if (typeof input !== 'object' || input === null) throw field('schedule', 'must be an object');
  if (typeof input.key !== 'string' || !KEY_RE.test(input.key)) {
    throw field(
      'key',
      'must be 1-200 characters of letters, digits and . _ : @ - (not starting with . : @ -)',
    );
  }
  if (typeof input.spec !== 'string' || input.spec.trim() === '')
    throw new PunctualError('SPEC_INVALID', 'spec must be a non-empty string', { field: 'spec' });
  if (input.spec.length > 4096)
    throw new PunctualError('SPEC_INVALID', 'spec is longer than 4096 characters', { field: 'spec' });
  if (input.tz !== undefined && typeof input.tz !== 'string')
    throw new PunctualError('TIME_ZONE_UNKNOWN', 'tz must be a string naming an IANA zone', { field: 'tz' });
  const startAt = parseInstant(input.startAt, 'startAt');
  const endAt = parseInstant(input.endAt, 'endAt');
  if (startAt !== null && endAt !== null && endAt <= startAt) {
    throw new PunctualError('BOUNDS_INVALID', 'endAt must be after startAt', {
      field: 'endAt',
      startAt,
      endAt,
    });
  }
  let maxRuns: number | null = null;
  if (input.maxRuns !== undefined && input.maxRuns !== null) {
    if (!Number.isInteger(input.maxRuns) || input.maxRuns < 1)
      throw field('maxRuns', 'must be a positive integer');
    maxRuns = input.maxRuns;
  }
  let jitterMs = 0;
  if (input.jitter !== undefined) {
    jitterMs = typeof input.jitter === 'number' ? input.jitter : parseDuration(input.jitter);
    if (!Number.isInteger(jitterMs) || jitterMs < 0 || jitterMs > 24 * 3_600_000)
      throw field('jitter', 'must be between 0 and 24h');
  }
  const summary = parseSummary(input.summary);
  const labels = parseLabels(input.labels);
  if (input.state !== undefined && input.state !== 'active' && input.state !== 'paused')
    throw field('state', 'must be "active" or "paused" (on create)');
  const target = parseTarget(input.target);
  const policies = resolvePolicies(input.policies);
  const payload = input.payload === undefined ? null : input.payload;
  checkPayload(payload);
  const compiled = (opts.compile ?? compileSpec)(input.spec, {
    tz: input.tz,
    now: opts.now,
    anchor: startAt ?? opts.createdAt ?? opts.now,
    startAt,
    endAt,
    dst: input.dst,
  });
  return {
    tenantId: opts.tenantId,
    key: input.key,
    spec: compiled.source,
    specKind: compiled.kind,
    tz: compiled.tz,
    target,
    payload,
    policies,
    startAt,
    endAt,
    maxRuns,
    jitterMs,
    description: compiled.description,
    summary,
    labels,
    dst: storedDstChoice(compiled.kind, compiled.dst),
    calendarRules: parseCalendarRules(input.exclude, input.businessDays),
    expect: parseExpect(input.expect),
  };
}

function parseSummary(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string') throw field('summary', 'must be a string');
  if (v.length > SUMMARY_MAX) throw field('summary', `must be at most ${SUMMARY_MAX} characters`);
  return v;
}

/** Validates labels: a plain object of at most LABELS_MAX string values, keys sorted. */
export function parseLabels(v: unknown): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw field('labels', 'must be an object of strings');
  const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
  if (entries.length > LABELS_MAX) throw field('labels', `must have at most ${LABELS_MAX} entries`);
  const out: Record<string, string> = {};
  for (const [k, x] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!LABEL_KEY_RE.test(k))
      throw field('labels', `key "${k.slice(0, 80)}" must be 1-63 letters, digits and . _ / -`);
    if (typeof x !== 'string' || x.length > LABEL_VALUE_MAX)
      throw field('labels', `value of "${k}" must be a string of at most ${LABEL_VALUE_MAX} characters`);
    out[k] = x;
  }
  return out;
}

/**
 * Parses a label filter "key:value" (or "key=value"); SCHEDULE_INVALID with field `label` when malformed.
 */
export function parseLabelFilter(text: string): [string, string] {
  const i = text.search(/[:=]/);
  const k = i < 0 ? '' : text.slice(0, i);
  if (!LABEL_KEY_RE.test(k)) {
    throw new PunctualError('SCHEDULE_INVALID', `label filter "${text.slice(0, 80)}" must be key:value`, {
      field: 'label',
    });
  }
  return [k, text.slice(i + 1)];
}

/**
 * Checks a payload (a schedule's, or a trigger's override) before anything walks it: plain JSON (an object
 * member that is undefined is left out, as in JSON text), nested at most JSON_MAX_DEPTH levels, at most
 * PAYLOAD_MAX_BYTES as JSON. SCHEDULE_INVALID with `field: 'payload'` otherwise.
 */
export function checkPayload(payload: unknown): void {
  if (payload === undefined || payload === null) return;
  const problem = jsonProblem(payload, { maxDepth: JSON_MAX_DEPTH, undefinedMembers: 'skip' });
  if (problem?.kind === 'depth') {
    throw new PunctualError(
      'SCHEDULE_INVALID',
      `payload must be nested at most ${JSON_MAX_DEPTH} levels deep`,
      { field: 'payload', maxDepth: JSON_MAX_DEPTH },
    );
  }
  if (problem !== null) throw field('payload', `must be JSON: ${problem.message}`);
  const bytes = jsonBytes(payload);
  if (bytes > PAYLOAD_MAX_BYTES) {
    throw new PunctualError(
      'SCHEDULE_INVALID',
      `payload is ${bytes} bytes as JSON; the limit is ${PAYLOAD_MAX_BYTES}`,
      { field: 'payload', bytes, limit: PAYLOAD_MAX_BYTES },
    );
  }
}

/** JSON text with object keys sorted at every depth: equal content gives equal text whatever the key order. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((x) => stableJson(x === undefined ? null : x)).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(obj[k])}`).join(',')}}`;
}

/** The content a put compares; not `description`, which follows from spec, specKind and tz (a store derives it). */
const DRAFT_FIELDS: readonly (keyof ScheduleDraft)[] = [
  'tenantId',
  'key',
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
  'summary',
  'labels',
  'dst',
  'calendarRules',
  'expect',
];

/**
 * True when two drafts hold the same schedule content, whatever the key order of their JSON parts (a store
 * may hand JSON back reordered); extra fields, e.g. of a whole Schedule, are ignored. An upsert with no
 * change keeps the version.
 */
export function sameDraft(a: ScheduleDraft, b: ScheduleDraft): boolean {
  return DRAFT_FIELDS.every((f) => stableJson(a[f] ?? null) === stableJson(b[f] ?? null));
}

/**
 * Recompiles a stored schedule's spec (validated when it was saved). No "never fires" check: running out of
 * occurrences later, e.g. once endAt has passed, is normal and missed occurrences must still be found.
 */
export function compileStored(s: Schedule, now: number): CompiledSpec {
  return compileSpec(s.spec, {
    tz: s.tz,
    now,
    anchor: s.startAt ?? s.createdAt,
    startAt: s.startAt,
    endAt: s.endAt,
    validate: false,
    // A row written by older code beside a newer one may keep a choice its new kind does not take.
    dst: s.specKind === 'cron' || s.specKind === 'rrule' ? s.dst : null,
  });
}
