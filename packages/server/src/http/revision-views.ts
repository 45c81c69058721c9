// What the API shows of revisions and dry runs: instants as ISO-8601 UTC (startAt and endAt in diffs too),
// no internal ids (schedule ids, sequence numbers, tenant ids). It must never change what it shows beyond
// the form of instants.

import { overrideView } from './override-views.js';
import type { DryRunResult, Json, ScheduleDiff, ScheduleRevision } from 'punctual';
import type { z } from 'zod';
import type * as r from './revision-schemas.js';
import type * as s from './schemas.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
const instantOf = (v: Json): Json => (typeof v === 'number' ? iso(v) : v);

export function diffView(d: ScheduleDiff): z.output<typeof r.scheduleDiff> {
  const out: z.output<typeof r.scheduleDiff> = { ...d };
  for (const f of ['startAt', 'endAt'] as const) {
    const c = d[f];
    if (c !== undefined) out[f] = { from: instantOf(c.from), to: instantOf(c.to) };
  }
  return out;
}

export function revisionView(x: ScheduleRevision): z.output<typeof r.revision> {
  return {
    key: x.key,
    version: x.version,
    at: iso(x.at),
    actor: x.actor,
    change: x.change,
    fromVersion: x.fromVersion,
    state: x.state,
    diff: diffView(x.diff),
  };
}

export function revisionDetailView(x: ScheduleRevision): z.output<typeof r.revisionDetail> {
  const c = x.content;
  return {
    ...revisionView(x),
    content: {
      spec: c.spec,
      specKind: c.specKind,
      tz: c.tz,
      description: c.description,
      summary: c.summary,
      labels: c.labels,
      dst: c.dst ?? null,
      calendarRules: c.calendarRules ?? null,
      expect: c.expect ?? null,
      // The library validated the target when the version was saved.
      target: c.target as z.output<typeof s.target>,
      payload: c.payload,
      policies: c.policies,
      startAt: isoOrNull(c.startAt),
      endAt: isoOrNull(c.endAt),
      maxRuns: c.maxRuns,
      jitterMs: c.jitterMs,
    },
  };
}

export function dryRunView(x: DryRunResult): z.output<typeof r.dryRunResult> {
  return {
    dryRun: true,
    outcome: x.outcome,
    currentVersion: x.currentVersion,
    nextVersion: x.nextVersion,
    diff: diffView(x.diff),
    nextBefore: x.nextBefore.map(iso),
    nextAfter: x.nextAfter.map(iso),
    cancelled: x.cancelled.map((c) => ({ id: c.id, scheduledFor: iso(c.scheduledFor) })),
    cancelledTruncated: x.cancelledTruncated,
    droppedOverrides: x.droppedOverrides.map(overrideView),
  };
}
