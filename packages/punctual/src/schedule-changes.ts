// Changing schedules without fear: a schedule's revision history, the rollback to an earlier version's exact
// content, and the dry run of a put (what it would do, writing nothing). It works through a TenantApi, so it
// is scoped to that tenant; it must never write in a dry run, and a rollback writes through the same put as
// any update (same validation, same fate for pending runs).

import { calendarsNamedBy } from './tenant-calendars.js';
import { diffSchedules, type ScheduleDiff } from './domain/schedule-diff.js';
import type { ScheduleRevision } from './domain/schedule-revision.js';
import { compileStored, sameDraft, type ScheduleDraft, type ScheduleInput } from './domain/schedule.js';
import type { CompiledSpec } from './domain/timing/compiled-spec.js';
import { compileSpec } from './domain/timing/compile-spec.js';
import { PunctualError } from './errors.js';
import type { OccurrenceOverride } from './domain/occurrence-override.js';
import { overridesDroppedByPut } from './occurrence-overrides.js';
import type { Page } from './store/store.js';
import type { PutResult, TenantApi } from './tenant-api.js';

/** How many next fire times a dry run lists, before and after the change. */
export const DRY_RUN_NEXT_COUNT = 10;
/** A dry run lists at most this many of the pending runs the change would cancel. */
export const DRY_RUN_CANCELLED_MAX = 1000;

export interface RollbackResult extends PutResult {
  /** The version whose content was restored. */
  fromVersion: number;
}

export interface DryRunResult {
  /** What the put would do. */
  outcome: 'created' | 'updated' | 'unchanged';
  /** The stored version (null: none) and the version the put would leave. */
  currentVersion: number | null;
  nextVersion: number;
  /** Field -> {from, to}, against the stored schedule (every field from null for a creation). */
  diff: ScheduleDiff;
  /** The next fire times of the stored schedule (empty when none is stored) and of the changed one. */
  nextBefore: number[];
  nextAfter: number[];
  /** The pending runs the put would cancel (reason `updated`), at most DRY_RUN_CANCELLED_MAX. */
  cancelled: { id: string; scheduledFor: number }[];
  /** True when more pending runs than those listed would be cancelled. */
  cancelledTruncated: boolean;
  /** The overrides the change would drop: their occurrences are no longer in the schedule. */
  droppedOverrides: OccurrenceOverride[];
}

/** REVISION_UNKNOWN: no revision of this version is kept for the key. */
export function revisionUnknown(key: string, version: number): PunctualError {
  return new PunctualError('REVISION_UNKNOWN', `schedule "${key}" has no revision ${version}`, {
    key,
    version,
  });
}

/** Up to `count` occurrences of a compiled spec at or after `from`. Pure. */
export function nextOccurrences(spec: CompiledSpec, from: number, count: number): number[] {
  const out: number[] = [];
  let after = from - 1;
  while (out.length < count) {
    const t = spec.nextAfter(after);
    if (t === null || t <= after) break;
    out.push(t);
    after = t;
  }
  return out;
}

/** The put input that normalises back to exactly this content. */
export function inputOfContent(c: ScheduleDraft): ScheduleInput {
  return {
    key: c.key,
    spec: c.spec,
    tz: c.tz,
    target: c.target,
    payload: c.payload,
    policies: c.policies,
    startAt: c.startAt,
    endAt: c.endAt,
    maxRuns: c.maxRuns,
    jitter: c.jitterMs,
    summary: c.summary,
    labels: c.labels,
    dst: c.dst ?? null,
    exclude: c.calendarRules?.exclude ?? null,
    businessDays: c.calendarRules?.businessDays ?? null,
    expect: c.expect == null ? null : { successWithin: c.expect.successWithinMs },
  };
}

export async function revisionHistory(
  api: TenantApi,
  key: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<Page<ScheduleRevision>> {
  const res = await api.store.listScheduleRevisions({ tenantId: api.tenantId, key, ...page });
  if (res.items.length === 0 && page.cursor === undefined) await api.require(key);
  return res;
}

/** The revision of this version of the schedule; REVISION_UNKNOWN when none is kept (TenantApi.revision). */
export async function scheduleRevision(
  api: TenantApi,
  key: string,
  version: number,
): Promise<ScheduleRevision> {
  const rev = Number.isInteger(version)
    ? await api.store.getScheduleRevision(api.tenantId, key, version)
    : undefined;
  if (!rev) throw revisionUnknown(key, version);
  return rev;
}

export async function rollbackSchedule(
  api: TenantApi,
  key: string,
  version: number,
  opts: { actor: string | null; expectedVersion?: number | undefined },
): Promise<RollbackResult> {
  const current = await api.require(key);
  const rev = await api.revision(key, version);
  // Only versions of this schedule: not those of a deleted one that had the same key.
  if (rev.scheduleId !== current.id || version > current.version) throw revisionUnknown(key, version);
  const res = await api.put(inputOfContent(rev.content), {
    actor: opts.actor,
    expectedVersion: opts.expectedVersion ?? current.version,
    fromVersion: version,
  });
  return { ...res, fromVersion: version };
}

export async function dryRunPut(
  api: TenantApi,
  input: ScheduleInput,
  opts: { expectedVersion?: number | undefined },
): Promise<DryRunResult> {
  const now = api.clock.now();
  const existing = await api.store.getSchedule(api.tenantId, input?.key);
  const calendars = await calendarsNamedBy(api.store, api.tenantId, [input]);
  const req = api.preparePut(input, existing, now, opts.expectedVersion, calendars);
  if (opts.expectedVersion !== undefined && existing?.version !== opts.expectedVersion) {
    throw new PunctualError(
      'VERSION_CONFLICT',
      `schedule ${req.draft.key} is at version ${existing?.version ?? 'none'}, not ${opts.expectedVersion}`,
      { key: req.draft.key, expected: opts.expectedVersion, actual: existing?.version ?? null },
    );
  }
  const d = req.draft;
  const after = compileSpec(d.spec, {
    tz: d.tz,
    now,
    anchor: d.startAt ?? existing?.createdAt ?? now,
    startAt: d.startAt,
    endAt: d.endAt,
    validate: false,
  });
  const nextAfter = nextOccurrences(after, now, DRY_RUN_NEXT_COUNT);
  if (existing === undefined) {
    return {
      outcome: 'created',
      currentVersion: null,
      nextVersion: 1,
      diff: diffSchedules(null, d),
      nextBefore: [],
      nextAfter,
      cancelled: [],
      cancelledTruncated: false,
      droppedOverrides: [],
    };
  }
  const nextBefore = nextOccurrences(compileStored(existing, now), now, DRY_RUN_NEXT_COUNT);
  const unchanged = sameDraft(existing, d);
  const pending = unchanged
    ? { items: [] }
    : await api.store.listRuns({
        tenantId: api.tenantId,
        scheduleKey: existing.key,
        state: 'scheduled',
        limit: DRY_RUN_CANCELLED_MAX,
      });
  return {
    outcome: unchanged ? 'unchanged' : 'updated',
    currentVersion: existing.version,
    nextVersion: unchanged ? existing.version : existing.version + 1,
    diff: diffSchedules(existing, d),
    nextBefore,
    nextAfter,
    cancelled: pending.items
      .filter((r) => r.scheduleId === existing.id)
      .map((r) => ({ id: r.id, scheduledFor: r.scheduledFor })),
    cancelledTruncated: pending.nextCursor !== undefined,
    droppedOverrides: await overridesDroppedByPut(api, existing, req),
  };
}
