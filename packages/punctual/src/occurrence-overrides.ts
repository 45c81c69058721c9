// A tenant's per-occurrence overrides: skip, move or change the payload of one occurrence of a schedule by
// its nominal instant, undo that, list a schedule's upcoming occurrences with their overrides, and find the
// overrides a schedule change would drop. It works through a TenantApi, so it is scoped to that tenant;
// validation happens before anything is written, and it must never change a run that already started.

import {
  OVERRIDE_HORIZON_MS,
  occurrenceUnknown,
  parseOverrideInput,
  type OccurrenceOverride,
  type OverrideInput,
} from './domain/occurrence-override.js';
import type { Run } from './domain/run.js';
import { compileStored, parseInstant, sameDraft, type Schedule } from './domain/schedule.js';
import { compileSpec } from './domain/timing/compile-spec.js';
import type { SpecCompiler } from './domain/timing/spec-compiler.js';
import type { PutScheduleRequest } from './store/store.js';
import type { CompiledSpec } from './domain/timing/compiled-spec.js';
import { PunctualError } from './errors.js';
import { occurrenceRun, overriddenInsert } from './run-insert-of.js';
import type { TenantApi } from './tenant-api.js';

/** Most occurrences an upcoming list gives. */
export const OCCURRENCES_MAX = 100;
/** Most overrides a schedule keeps ahead of now (each is a row; a list reads at most this many). */
export const OVERRIDES_LISTED_MAX = 1000;

/** An occurrence moved from up to this long ago to a later instant is still listed as upcoming. */
export const MOVED_LOOKBACK_MS = 7 * 24 * 3600_000;

/** One upcoming occurrence: its nominal instant, when it is due, and its override if any. */
export interface UpcomingOccurrence {
  /** The nominal instant: the occurrence's identity (its run's scheduledFor). */
  scheduledFor: number;
  /** When it runs: moveTo for a moved one, null for a skipped one, else scheduledFor. */
  at: number | null;
  override: OccurrenceOverride | null;
}

/** OCCURRENCE_UNKNOWN unless `instant` is an occurrence of the compiled spec within the horizon from now. */
export function checkOccurrence(spec: CompiledSpec, key: string, instant: number, now: number): void {
  if (instant > now + OVERRIDE_HORIZON_MS) {
    throw occurrenceUnknown(key, instant, 'is beyond the override horizon (400 days)');
  }
  if (spec.nextAfter(instant - 1) !== instant) throw occurrenceUnknown(key, instant, 'is not an occurrence');
}

function instantOf(v: string | number | Date): number {
  try {
    const t = parseInstant(v, 'instant');
    if (t !== null) return t;
  } catch {
    // reported below with the override's own code
  }
  throw new PunctualError('OVERRIDE_INVALID', 'instant must be an ISO-8601 instant or epoch milliseconds', {
    field: 'instant',
  });
}

export async function overrideOccurrence(
  api: TenantApi,
  key: string,
  at: string | number | Date,
  input: OverrideInput,
): Promise<{ override: OccurrenceOverride; run: Run | null }> {
  const instant = instantOf(at);
  const s = await api.require(key);
  const now = api.clock.now();
  const fields = parseOverrideInput(input, instant, now);
  checkOccurrence(compileStored(s, now), key, instant, now);
  const override: OccurrenceOverride = {
    tenantId: s.tenantId,
    scheduleId: s.id,
    instant,
    ...fields,
    createdAt: now,
  };
  const res = await api.store.putOccurrenceOverride({ override, run: overriddenInsert(s, override), now });
  api.announce(res.transition);
  return { override, run: res.transition?.run ?? null };
}

export async function removeOverride(
  api: TenantApi,
  key: string,
  at: string | number | Date,
): Promise<{ run: Run | null }> {
  const instant = instantOf(at);
  const s = await api.require(key);
  const now = api.clock.now();
  const res = await api.store.deleteOccurrenceOverride({
    tenantId: s.tenantId,
    scheduleId: s.id,
    instant,
    run: occurrenceRun(s, instant),
    now,
  });
  if (!res.removed) {
    throw new PunctualError(
      'OVERRIDE_NOT_FOUND',
      `the occurrence ${new Date(instant).toISOString()} of "${key}" has no override`,
      { key, instant },
    );
  }
  api.announce(res.transition);
  return { run: res.transition?.run ?? null };
}

/** The schedule's next `count` occurrences from now with their overrides (moved ones still listed). */
export async function upcomingOccurrences(
  api: TenantApi,
  key: string,
  opts: { count?: number | undefined } = {},
): Promise<{ schedule: Schedule; occurrences: UpcomingOccurrence[] }> {
  const count = opts.count ?? 10;
  if (!Number.isInteger(count) || count < 1 || count > OCCURRENCES_MAX) {
    throw new PunctualError('SCHEDULE_INVALID', `count must be an integer from 1 to ${OCCURRENCES_MAX}`, {
      field: 'count',
    });
  }
  const s = await api.require(key);
  const now = api.clock.now();
  const spec = compileStored(s, now);
  const overrides = await api.store.listOccurrenceOverrides(s.tenantId, s.id, {
    from: now - MOVED_LOOKBACK_MS,
    limit: OVERRIDES_LISTED_MAX,
  });
  const byInstant = new Map(overrides.map((o) => [o.instant, o]));
  const out: UpcomingOccurrence[] = [];
  for (let t = spec.nextAfter(now - 1); t !== null && out.length < count; t = spec.nextAfter(t)) {
    out.push(upcoming(t, byInstant.get(t) ?? null));
    byInstant.delete(t);
  }
  // Occurrences moved from before now to a later instant are still to come.
  const moved = [...byInstant.values()].filter(
    (o) => o.kind === 'move' && o.instant < now && o.moveTo! >= now,
  );
  return {
    schedule: s,
    occurrences: [...moved.map((o) => upcoming(o.instant, o)), ...out].slice(0, count),
  };
}

function upcoming(t: number, o: OccurrenceOverride | null): UpcomingOccurrence {
  const at = o === null ? t : o.kind === 'skip' ? null : o.kind === 'move' ? o.moveTo : t;
  return { scheduledFor: t, at, override: o };
}

/** The overrides a put of `req` over the stored `existing` would drop (none for a creation). */
export async function overridesDroppedByPut(
  api: TenantApi,
  existing: Schedule | undefined,
  req: PutScheduleRequest,
): Promise<OccurrenceOverride[]> {
  if (existing === undefined || sameDraft(existing, req.draft)) return [];
  const overrides = await api.store.listOccurrenceOverrides(existing.tenantId, existing.id, {
    from: req.now,
    limit: OVERRIDES_LISTED_MAX,
  });
  return overridesDroppedByChange(existing, req, overrides);
}

/**
 * Of `overrides` (those of `existing` at or after req.now, by instant), the ones a put that changes `existing`
 * drops: their instants are no occurrence of the new spec. Compiled with the caller's compiler (a bulk put
 * compiles each distinct spec once). Pure.
 */
export function overridesDroppedByChange(
  existing: Schedule,
  req: PutScheduleRequest,
  overrides: readonly OccurrenceOverride[],
  compile: SpecCompiler = compileSpec,
): OccurrenceOverride[] {
  if (overrides.length === 0) return [];
  const d = req.draft;
  const spec = compile(d.spec, {
    tz: d.tz,
    now: req.now,
    anchor: d.startAt ?? existing.createdAt,
    startAt: d.startAt,
    endAt: d.endAt,
    dst: d.dst,
    validate: false,
  });
  return overrides.filter((o) => spec.nextAfter(o.instant - 1) !== o.instant);
}
