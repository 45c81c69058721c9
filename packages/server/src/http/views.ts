// What the API shows of the library's objects: schedules, runs, attempts and tenants turned into their JSON
// shapes (schemas.ts), instants as ISO-8601 UTC with milliseconds. It must never add internal ids the client
// has no use for (schedule ids, lease owners, worker ids), stacks other than a script's own (see
// error-details-view.ts), or another tenant's data.

import {
  DST_DEFAULTS,
  type Attempt,
  type DstChoice,
  type PreviewDropped,
  type PreviewNote,
  type PreviewOccurrence,
  type Run,
  type Schedule,
  type SpecPreview,
  type Tenant,
} from 'punctual';
import type { z } from 'zod';
import { errorView } from './error-details-view.js';
import type * as s from './schemas.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

/**
 * A schedule as the API shows it. `nextFireAt` is when it fires next as users mean it (its earliest pending
 * run, else its next occurrence; null while paused): TenantApi.nextFireTimes, not the materializer's cursor.
 */
export function scheduleView(x: Schedule, nextFireAt: number | null): z.output<typeof s.schedule> {
  return {
    key: x.key,
    spec: x.spec,
    tz: x.tz,
    description: x.description,
    summary: x.summary,
    labels: x.labels,
    dst: effectiveDst(x),
    exclude: x.calendarRules?.exclude ?? [],
    businessDays: x.calendarRules?.businessDays ?? null,
    expect: x.expect ?? null,
    // The library validated the method against the same list the schema declares.
    target: x.target as z.output<typeof s.target>,
    payload: x.payload,
    policies: x.policies,
    startAt: isoOrNull(x.startAt),
    endAt: isoOrNull(x.endAt),
    maxRuns: x.maxRuns,
    jitterMs: x.jitterMs,
    state: x.state,
    version: x.version,
    nextFireAt: isoOrNull(nextFireAt),
    firedCount: x.firedCount,
    materializedCount: x.materializedCount,
    lastFiredAt: isoOrNull(x.lastFiredAt),
    lastSucceededAt: isoOrNull(x.lastSucceededAt),
    note: x.note,
    pausedUntil: isoOrNull(x.pausedUntil),
    createdAt: iso(x.createdAt),
    updatedAt: iso(x.updatedAt),
  };
}

/** The DST choice in force: the stored one, else the spec kind's default; null for @every and @at. */
export function effectiveDst(x: Pick<Schedule, 'specKind' | 'dst'>): DstChoice | null {
  if (x.specKind !== 'cron' && x.specKind !== 'rrule') return null;
  return x.dst ?? DST_DEFAULTS[x.specKind];
}

/** A preview note with its instants as ISO strings. */
export function previewNoteView(n: PreviewNote): z.output<typeof s.previewNote> {
  return 'from' in n ? { ...n, from: iso(n.from) } : n;
}

export function previewOccurrenceView(o: PreviewOccurrence): z.output<typeof s.previewOccurrence> {
  return { at: iso(o.at), notes: o.notes.map(previewNoteView) };
}

export function previewDroppedView(d: PreviewDropped): z.output<typeof s.previewDropped> {
  return { ...d, at: iso(d.at) };
}

/** A preview (of a spec or of a saved schedule) as the API shows it. */
export function previewView(p: SpecPreview): z.output<typeof s.previewResult> {
  return {
    description: p.description,
    next: p.next.map(iso),
    occurrences: p.occurrences.map(previewOccurrenceView),
    ...(p.dropped === undefined ? {} : { dropped: p.dropped.map(previewDroppedView) }),
    dst: p.dst,
  };
}

export function runView(r: Run): z.output<typeof s.run> {
  return {
    id: r.id,
    scheduleKey: r.scheduleKey,
    occurrenceId: r.occurrenceId,
    kind: r.kind,
    state: r.state,
    scheduledFor: iso(r.scheduledFor),
    dueAt: iso(r.dueAt),
    expiresAt: isoOrNull(r.expiresAt),
    startedAt: isoOrNull(r.startedAt),
    finishedAt: isoOrNull(r.finishedAt),
    attempt: r.attempt,
    maxAttempts: r.maxAttempts,
    checks: r.checks,
    reason: r.reason,
    error: errorView(r.error),
    result: r.result,
    details: r.details,
    createdAt: iso(r.createdAt),
  };
}

export function attemptView(a: Attempt): z.output<typeof s.attempt> {
  return {
    attempt: a.attempt,
    startedAt: iso(a.startedAt),
    finishedAt: iso(a.finishedAt),
    outcome: a.outcome,
    error: errorView(a.error),
    result: a.result,
  };
}

/** The tenant as its own API key sees it; `now` decides whether the previous secret is still signed with. */
export function tenantView(t: Tenant, now: number): z.output<typeof s.tenant> {
  const graceLeft =
    t.previousWebhookSecret !== null && t.previousSecretUntil !== null && t.previousSecretUntil > now;
  return {
    name: t.id,
    state: t.state,
    quotas: { ...t.quotas },
    webhookSecret: t.webhookSecret,
    previousSecretExpiresAt: graceLeft ? iso(t.previousSecretUntil as number) : null,
    createdAt: iso(t.createdAt),
  };
}
