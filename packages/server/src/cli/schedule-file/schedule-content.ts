// What a schedule says, in one comparable form for both sides of a plan: a file's entry (judged and filled in
// by the library's normalizeSchedule, exactly as the service will) and the API's view of a stored schedule.
// Fields the service generates (description, version, nextFireAt, counters, times) are not part of it. Also
// turns an entry into the PUT body and a view back into an entry (export). Pure: no I/O, no clock.

import { DEFAULT_POLICIES, PunctualError, normalizeSchedule, stableJson, type ScheduleInput } from 'punctual';
import { SCHEDULE_ENTRY_FIELDS, type ScheduleEntry } from './schedule-file-format.js';

/** A schedule's content: what a file sets and the API shows back. */
export interface ScheduleContent {
  spec: string;
  tz: string;
  target: unknown;
  payload: unknown;
  policies: unknown;
  /** ISO-8601 UTC, or null. */
  startAt: string | null;
  endAt: string | null;
  maxRuns: number | null;
  /** Milliseconds. */
  jitter: number;
  summary: string | null;
  labels: Record<string, string>;
  /** Each occurrence must succeed within this (ms); null for no expectation. */
  expect: { successWithinMs: number } | null;
  /** `active` or `paused`; absent when the file leaves the state alone (or the schedule is completed). */
  state?: string | undefined;
}

/** The API's view of a schedule, as far as a plan and an export read it. */
export interface ScheduleView {
  key: string;
  spec: string;
  tz: string;
  target: unknown;
  payload: unknown;
  policies: unknown;
  startAt: string | null;
  endAt: string | null;
  maxRuns: number | null;
  jitterMs: number;
  summary: string | null;
  labels: Record<string, string>;
  /** Absent from a service older than expectations (then none). */
  expect?: { successWithinMs: number } | null | undefined;
  state: string;
  version: number;
  /** When it was last saved (ISO-8601): the instant the service last judged its content. */
  updatedAt?: string | undefined;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * An entry's content, judged by the library as the service will judge it at `now` (the tenant does not
 * matter to the content). Throws the library's error (SPEC_INVALID, SCHEDULE_INVALID with `field`, ...);
 * a field the PUT body does not have is SCHEDULE_INVALID too.
 */
export function entryContent(entry: unknown, now: number): ScheduleContent {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new PunctualError('SCHEDULE_INVALID', 'a schedule must be a mapping with a key, spec and target', {
      field: 'schedule',
    });
  }
  for (const k of Object.keys(entry)) {
    if (!(SCHEDULE_ENTRY_FIELDS as readonly string[]).includes(k)) {
      throw new PunctualError(
        'SCHEDULE_INVALID',
        `"${k}" is not a schedule field (${SCHEDULE_ENTRY_FIELDS.join(', ')})`,
        { field: k },
      );
    }
  }
  const d = normalizeSchedule(entry as ScheduleInput, { tenantId: 'file', now });
  const state = (entry as { state?: unknown }).state;
  return {
    spec: d.spec,
    tz: d.tz,
    target: d.target,
    payload: d.payload,
    policies: d.policies,
    startAt: iso(d.startAt),
    endAt: iso(d.endAt),
    maxRuns: d.maxRuns,
    jitter: d.jitterMs,
    summary: d.summary,
    labels: d.labels,
    expect: d.expect ?? null,
    ...(typeof state === 'string' ? { state } : {}),
  };
}

/** A stored schedule's content as the API shows it; `state` only while it is active or paused. */
export function viewContent(v: ScheduleView): ScheduleContent {
  return {
    spec: v.spec,
    tz: v.tz,
    target: v.target,
    payload: v.payload ?? null,
    policies: v.policies,
    startAt: v.startAt === null ? null : new Date(v.startAt).toISOString(),
    endAt: v.endAt === null ? null : new Date(v.endAt).toISOString(),
    maxRuns: v.maxRuns,
    jitter: v.jitterMs,
    summary: v.summary,
    labels: v.labels,
    expect: v.expect ?? null,
    ...(v.state === 'active' || v.state === 'paused' ? { state: v.state } : {}),
  };
}

/** The PUT body of an entry: its fields as written, without the key (it is in the path). */
export function putBodyOf(entry: ScheduleEntry): Record<string, unknown> {
  const { key: _key, ...body } = entry;
  return body;
}

/** The fields of `value` that differ from `defaults` (recursively for objects); undefined when none. */
function differing(value: unknown, defaults: unknown): unknown {
  if (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof defaults === 'object' &&
    defaults !== null
  ) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const d = differing(v, (defaults as Record<string, unknown>)[k]);
      if (d !== undefined) out[k] = d;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return stableJson(value) === stableJson(defaults) ? undefined : value;
}

/**
 * A stored schedule as a file entry, the shortest that applies back to the same content: defaults left out
 * (policies equal to the defaults, a null payload, no window, no jitter), the state of an active or paused
 * schedule kept.
 */
export function viewToEntry(v: ScheduleView): ScheduleEntry {
  const e: ScheduleEntry = { key: v.key };
  if (v.summary !== null) e.summary = v.summary;
  e.spec = v.spec;
  e.tz = v.tz;
  e.target = v.target;
  if (v.payload !== null && v.payload !== undefined) e.payload = v.payload;
  const policies = differing(v.policies, DEFAULT_POLICIES);
  if (policies !== undefined) e.policies = policies;
  if (v.startAt !== null) e.startAt = v.startAt;
  if (v.endAt !== null) e.endAt = v.endAt;
  if (v.maxRuns !== null) e.maxRuns = v.maxRuns;
  if (v.jitterMs !== 0) e.jitter = v.jitterMs;
  if (Object.keys(v.labels).length > 0) e.labels = v.labels;
  if (v.expect != null) e.expect = { successWithin: v.expect.successWithinMs };
  if (v.state === 'active' || v.state === 'paused') e.state = v.state;
  return e;
}
