// The API's views of per-occurrence overrides: instants as ISO strings, internal ids left out. Pure mapping.

import type { OccurrenceOverride, Run, UpcomingOccurrence } from 'punctual';
import type { z } from 'zod';
import type * as o from './schemas/overrides.js';

const iso = (ms: number): string => new Date(ms).toISOString();

export function overrideView(x: OccurrenceOverride): z.output<typeof o.occurrenceOverride> {
  return {
    instant: iso(x.instant),
    kind: x.kind,
    moveTo: x.moveTo === null ? null : iso(x.moveTo),
    payload: x.payload,
    note: x.note,
    createdAt: iso(x.createdAt),
  };
}

export function occurrenceView(x: UpcomingOccurrence): z.output<typeof o.occurrence> {
  return {
    scheduledFor: iso(x.scheduledFor),
    at: x.at === null ? null : iso(x.at),
    override: x.override === null ? null : overrideView(x.override),
  };
}

export function overrideResultView(x: {
  override: OccurrenceOverride;
  run: Run | null;
}): z.output<typeof o.overrideResult> {
  return {
    override: overrideView(x.override),
    run: x.run === null ? null : { id: x.run.id, state: x.run.state, dueAt: iso(x.run.dueAt) },
  };
}
