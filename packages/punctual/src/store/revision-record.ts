// The revision a store writes beside a schedule write: which change it was, the field diff against the
// schedule as it was, and the full content of the version it leaves. Shared by the SQLite and PostgreSQL
// stores so both record the same thing. Pure: it must never perform I/O or read a clock.

import { diffSchedules, type ScheduleDiff } from '../domain/schedule-diff.js';
import type { RevisionChange, RevisionNote, ScheduleRevision } from '../domain/schedule-revision.js';
import type { Schedule, ScheduleDraft } from '../domain/schedule.js';

/** A revision before the store gives it its sequence number. */
export type RevisionInsert = Omit<ScheduleRevision, 'seq'>;

/** The content fields of a schedule (what a revision keeps), whatever else the object holds. */
export function contentOf(s: ScheduleDraft): ScheduleDraft {
  return {
    tenantId: s.tenantId,
    key: s.key,
    spec: s.spec,
    specKind: s.specKind,
    tz: s.tz,
    target: s.target,
    payload: s.payload,
    policies: s.policies,
    startAt: s.startAt,
    endAt: s.endAt,
    maxRuns: s.maxRuns,
    jitterMs: s.jitterMs,
    description: s.description,
    summary: s.summary,
    labels: s.labels,
    dst: s.dst,
    calendarRules: s.calendarRules ?? null,
    expect: s.expect ?? null,
  };
}

/** The revision of a put that created or changed `after` (`before`: the schedule as it was, if any). */
export function putRevision(
  before: Schedule | undefined,
  after: Schedule,
  note: RevisionNote | undefined,
  now: number,
): RevisionInsert {
  const change: RevisionChange =
    note?.fromVersion !== undefined ? 'rolledBack' : before === undefined ? 'created' : 'updated';
  return {
    scheduleId: after.id,
    tenantId: after.tenantId,
    key: after.key,
    version: after.version,
    at: now,
    actor: note?.actor ?? null,
    change,
    fromVersion: note?.fromVersion ?? null,
    state: after.state,
    diff: diffSchedules(before ?? null, after),
    content: contentOf(after),
  };
}

/** The revision of a pause, resume or delete of `s` (its content and version unchanged). */
export function stateRevision(
  s: Schedule,
  change: 'paused' | 'resumed' | 'deleted',
  actor: string | null | undefined,
  now: number,
): RevisionInsert {
  const to = change === 'paused' ? 'paused' : change === 'resumed' ? 'active' : 'deleted';
  const diff: ScheduleDiff = s.state === to ? {} : { state: { from: s.state, to } };
  return {
    scheduleId: s.id,
    tenantId: s.tenantId,
    key: s.key,
    version: s.version,
    at: now,
    actor: actor ?? null,
    change,
    fromVersion: null,
    state: to,
    diff,
    content: contentOf(s),
  };
}
