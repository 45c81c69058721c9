// Saving schedules for one tenant: put (one), putMany (all or none, in one transaction), the validation that
// turns an input into the store's request (preparePut, also used by bulk puts and dry runs), and the
// announcement of what was saved (events, the materializer woken). Validation happens here, before anything
// is written. preparePut never reads a clock (callers pass `now`); put and putMany read the API's clock once.

import type { ActorOption } from './actor-option.js';
import { actorOf } from './actor-option.js';
import type { CalendarDraft } from './domain/calendar/calendar.js';
import { writeFromOf } from './domain/calendar/calendar-rules.js';
import type { OccurrenceOverride } from './domain/occurrence-override.js';
import { normalizeSchedule, type Schedule, type ScheduleInput } from './domain/schedule.js';
import { TARGET_SHAPES, targetKind, type TargetKind, type TargetShape } from './domain/target.js';
import type { CompiledSpec } from './domain/timing/compiled-spec.js';
import { compileSpec } from './domain/timing/compile-spec.js';
import type { SpecCompiler } from './domain/timing/spec-compiler.js';
import { PunctualError } from './errors.js';
import { overridesDroppedByPut } from './occurrence-overrides.js';
import type { PutScheduleRequest, PutScheduleResult } from './store/store.js';
import type { TargetDriver } from './targets/target.js';
import { calendarsNamedBy, checkScheduleCalendars } from './tenant-calendars.js';
import type { TenantApi } from './tenant-api.js';
import type { TenantEngine } from './tenant-engine.js';

export interface PutResult {
  schedule: Schedule;
  created: boolean;
  changed: boolean;
  /** Overrides of occurrences the change removed, deleted with it (docs/overrides.md). */
  droppedOverrides: OccurrenceOverride[];
}

/** What TenantApi.put takes beside the input. */
export type PutOptions = ActorOption & {
  expectedVersion?: number | undefined;
  fromVersion?: number | undefined;
};

/** What TenantApi.putMany takes beside the inputs. */
export type PutManyOptions = ActorOption & {
  check?: (found: (Schedule | undefined)[]) => void;
  compareAndSet?: boolean;
};

const EARLIEST = -8.64e15;

/** First occurrence to materialise for a schedule saved at `now`. A one-off in the past is still due once. */
function firstOccurrence(spec: CompiledSpec, now: number): number | null {
  return spec.kind === 'at' ? spec.nextAfter(EARLIEST) : spec.nextAfter(now - 1);
}

/** Creates or updates the schedule with this key (TenantApi.put). */
export async function putSchedule(
  api: TenantApi,
  engine: TenantEngine,
  input: ScheduleInput,
  opts: PutOptions,
): Promise<PutResult> {
  const now = api.clock.now();
  const existing = await api.store.getSchedule(api.tenantId, input?.key);
  const calendars = await calendarsNamedBy(api.store, api.tenantId, [input]);
  const req = {
    ...api.preparePut(input, existing, now, opts.expectedVersion, calendars),
    revision: { actor: actorOf(opts), fromVersion: opts.fromVersion },
  };
  const dropped = await overridesDroppedByPut(api, existing, req);
  const full = dropped.length === 0 ? req : { ...req, dropOverrides: dropped.map((o) => o.instant) };
  const res = await api.store.putSchedule(existing === undefined ? { ...full, expectNew: true } : full);
  return { ...announcePut(engine, res), droppedOverrides: res.changed ? dropped : [] };
}

/** Creates or updates many schedules in one transaction, all or none (TenantApi.putMany). */
export async function putSchedules(
  api: TenantApi,
  engine: TenantEngine,
  inputs: ScheduleInput[],
  opts: PutManyOptions,
): Promise<PutResult[]> {
  const now = api.clock.now();
  // One read for every input.
  const keys = inputs.map((input) => input?.key);
  const found = await api.store.getSchedules(
    api.tenantId,
    keys.filter((k): k is string => typeof k === 'string'),
  );
  const byKey = new Map(found.map((s) => [s.key, s]));
  const calendars = await calendarsNamedBy(api.store, api.tenantId, inputs);
  const reqs: PutScheduleRequest[] = [];
  const stored: (Schedule | undefined)[] = [];
  for (const [index, input] of inputs.entries()) {
    try {
      const existing = byKey.get(keys[index] as string);
      const cas = opts.compareAndSet === true;
      const req = {
        ...api.preparePut(input, existing, now, cas ? existing?.version : undefined, calendars),
        revision: { actor: actorOf(opts) },
      };
      reqs.push(cas && existing === undefined ? { ...req, expectAbsent: true } : req);
      stored.push(existing);
    } catch (e) {
      if (e instanceof PunctualError)
        throw new PunctualError(e.code, `schedule ${index}: ${e.message}`, { ...e.details, index });
      throw e;
    }
  }
  opts.check?.(stored);
  const dropped = await Promise.all(reqs.map((r, i) => overridesDroppedByPut(api, stored[i], r)));
  const results = await api.store.putSchedules(
    reqs.map((r, i) =>
      dropped[i]!.length === 0 ? r : { ...r, dropOverrides: dropped[i]!.map((o) => o.instant) },
    ),
  );
  return results.map((r, i) => ({
    ...announcePut(engine, r),
    droppedOverrides: r.changed ? dropped[i]! : [],
  }));
}

/** Announces saved puts (events, the materializer woken once for the earliest of them). */
export function announcePuts(
  engine: TenantEngine,
  results: readonly PutScheduleResult[],
  dropped: readonly (OccurrenceOverride[] | undefined)[],
): PutResult[] {
  let earliest: number | null = null;
  let changed = false;
  for (const res of results) {
    for (const t of res.transitions) engine.bus.emitTransition(t);
    if (!res.changed) continue;
    changed = true;
    engine.bus.emit('schedule:put', { schedule: res.schedule, created: res.created });
    const at = writeFromOf(res.schedule.nextFireAt, res.schedule.calendarRules);
    if (at !== null && (earliest === null || at < earliest)) earliest = at;
  }
  if (changed) engine.hooks.scheduleChanged(earliest);
  return results.map((r, i) => ({
    schedule: r.schedule,
    created: r.created,
    changed: r.changed,
    droppedOverrides: r.changed ? (dropped[i] ?? []) : [],
  }));
}

/** Announces one saved put: its transitions, and when it changed, its event and the materializer woken. */
function announcePut(engine: TenantEngine, res: PutScheduleResult): Omit<PutResult, 'droppedOverrides'> {
  for (const t of res.transitions) engine.bus.emitTransition(t);
  if (res.changed) {
    engine.bus.emit('schedule:put', { schedule: res.schedule, created: res.created });
    engine.hooks.scheduleChanged(writeFromOf(res.schedule.nextFireAt, res.schedule.calendarRules));
  }
  return { schedule: res.schedule, created: res.created, changed: res.changed };
}

/** Validates a put and builds its store request, writing nothing (TenantApi.preparePut). */
export function preparePut(
  tenantId: string,
  targets: ReadonlyMap<TargetKind, TargetDriver>,
  input: ScheduleInput,
  existing: Schedule | undefined,
  now: number,
  expectedVersion: number | undefined,
  /** The calendars the input names (calendarsNamedBy); a name missing here is CALENDAR_UNKNOWN. */
  calendars: ReadonlyMap<string, CalendarDraft>,
  compile: SpecCompiler = compileSpec,
): PutScheduleRequest {
  const createdAt = existing?.createdAt ?? now;
  const draft = normalizeSchedule(input, { tenantId, now, createdAt, compile });
  const kind = targetKind(draft.target);
  const driver = targets.get(kind);
  if (!driver) {
    // A kind the operator must turn on (commands) says so with its own code.
    if ((TARGET_SHAPES[kind] as TargetShape<TargetKind, unknown>).optIn === true) {
      throw new PunctualError('TARGET_DISABLED', `target kind ${kind} is not enabled by the operator`, {
        field: 'target',
        kind,
      });
    }
    throw new PunctualError('SCHEDULE_INVALID', `target kind ${kind} is not enabled`, { field: 'target' });
  }
  driver.validate?.(draft.target, draft.payload, tenantId);
  const spec = compile(draft.spec, {
    tz: draft.tz,
    now,
    anchor: draft.startAt ?? createdAt,
    startAt: draft.startAt,
    endAt: draft.endAt,
    dst: draft.dst,
  });
  checkScheduleCalendars(draft, spec, calendars, now);
  // `state` applies when the schedule is created only; an update keeps the stored state (pause / resume).
  const initialState = existing === undefined ? input.state : undefined;
  return { draft, nextFireAt: firstOccurrence(spec, now), expectedVersion, initialState, now };
}
