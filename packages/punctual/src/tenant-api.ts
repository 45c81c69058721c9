// What a tenant can do with its schedules and runs: put (upsert), read, list, delete, pause, resume, trigger,
// backfill, and read or cancel runs. Every call is scoped to one tenant; another tenant's objects are
// indistinguishable from missing ones. Validation happens here, before anything is written.

import type { Clock } from './clock.js';
import type { Json } from './domain/json.js';
import { planResume } from './domain/resume-plan.js';
import { pausedRecord, runInsertOf } from './run-insert-of.js';
import type { Attempt, Run, RunState } from './domain/run.js';
import {
  checkPayload,
  compileStored,
  normalizeSchedule,
  parseLabels,
  parseInstant,
  type Schedule,
  type ScheduleInput,
  type ScheduleState,
} from './domain/schedule.js';
import type { CompiledSpec } from './domain/timing/compiled-spec.js';
import { compileSpec } from './domain/timing/compile-spec.js';
import type { SpecPreview } from './domain/timing/preview-spec.js';
import { nextFireTimes, previewSavedSchedule } from './schedule-upcoming.js';
import { putBulk, type BulkPutOptions, type BulkPutResult } from './bulk-put.js';
import type { SpecCompiler } from './domain/timing/spec-compiler.js';
import { TARGET_SHAPES, targetKind, type TargetKind, type TargetShape } from './domain/target.js';
import { PunctualError } from './errors.js';
import type { EventBus } from './events.js';
import { rerunInRange, rerunOne, type RerunRange, type RerunRefused } from './reruns.js';
import type {
  Page,
  PutScheduleRequest,
  PutScheduleResult,
  RunInsert,
  Store,
  Transition,
} from './store/store.js';
import type { TargetDriver } from './targets/target.js';
import type { ScheduleRevision } from './domain/schedule-revision.js';
import type { Calendar, CalendarDraft, CalendarInput } from './domain/calendar/calendar.js';
import type { AppliedCalendars } from './domain/calendar/apply-calendars.js';
import { writeFromOf } from './domain/calendar/calendar-rules.js';
import type { CalendarRevision } from './domain/calendar/calendar-revision.js';
import {
  calendarHistory,
  calendarRevision,
  rollbackCalendar,
  type CalendarRollbackResult,
} from './calendar-changes.js';
import {
  calendarInputFromIcs,
  calendarStoreOf,
  calendarsNamedBy,
  checkScheduleCalendars,
  requireCalendar,
  rewindCalendarUsers,
  writeCalendar,
  previewCalendars,
  type ImportCalendarOptions,
} from './tenant-calendars.js';
import type { OccurrenceOverride, OverrideInput } from './domain/occurrence-override.js';
import {
  overrideOccurrence,
  overridesDroppedByPut,
  removeOverride,
  upcomingOccurrences,
  type UpcomingOccurrence,
} from './occurrence-overrides.js';
import {
  dryRunPut,
  revisionHistory,
  revisionUnknown,
  rollbackSchedule,
  type DryRunResult,
  type RollbackResult,
} from './schedule-changes.js';

/** Who a change is recorded as made by when the caller names nobody. */
export const LIBRARY_ACTOR = 'library';

/** Options every write takes: who makes the change (kept in the schedule's revision). */
export interface ActorOption {
  /** Recorded in the revision; default `library`. */
  actor?: string | null | undefined;
}

export interface EngineHooks {
  /** Schedules changed: materialise anything due before `at`. */
  scheduleChanged(at: number | null): void;
  /** Runs were inserted due at `dueAt`. */
  runsInserted(dueAt: number): void;
}

export interface PutResult {
  schedule: Schedule;
  created: boolean;
  changed: boolean;
  /** Overrides of occurrences the change removed, deleted with it (docs/overrides.md). */
  droppedOverrides: OccurrenceOverride[];
}

const EARLIEST = -8.64e15;

/** First occurrence to materialise for a schedule saved at `now`. A one-off in the past is still due once. */
function firstOccurrence(spec: CompiledSpec, now: number): number | null {
  return spec.kind === 'at' ? spec.nextAfter(EARLIEST) : spec.nextAfter(now - 1);
}

export class TenantApi {
  constructor(
    readonly tenantId: string,
    readonly store: Store,
    /** The engine's clock (corrected by the offset to a shared store's server). */
    readonly clock: Clock,
    private readonly bus: EventBus,
    private readonly targets: ReadonlyMap<TargetKind, TargetDriver>,
    private readonly hooks: EngineHooks,
  ) {}

  /**
   * Creates or updates the schedule with this key. An update bumps `version`, cancels the old version's
   * pending runs and materialises the new spec; an identical put changes nothing.
   */
  async put(
    input: ScheduleInput,
    opts: ActorOption & { expectedVersion?: number | undefined; fromVersion?: number | undefined } = {},
  ): Promise<PutResult> {
    const now = this.clock.now();
    const existing = await this.store.getSchedule(this.tenantId, input?.key);
    const calendars = await calendarsNamedBy(this.store, this.tenantId, [input]);
    const req = {
      ...this.preparePut(input, existing, now, opts.expectedVersion, calendars),
      revision: { actor: actorOf(opts), fromVersion: opts.fromVersion },
    };
    const dropped = await overridesDroppedByPut(this, existing, req);
    const full = dropped.length === 0 ? req : { ...req, dropOverrides: dropped.map((o) => o.instant) };
    const res = await this.store.putSchedule(existing === undefined ? { ...full, expectNew: true } : full);
    return { ...this.#announce(res), droppedOverrides: res.changed ? dropped : [] };
  }

  /**
   * Creates or updates many schedules in one transaction: all are saved, or none (the first invalid input
   * throws before anything is written, with `details.index`). `check` sees what each input found stored,
   * after every input is validated and before anything is written (it throws to refuse). `compareAndSet`
   * makes each write conditional on what was found: VERSION_CONFLICT when another writer came first.
   */
  async putMany(
    inputs: ScheduleInput[],
    opts: ActorOption & {
      check?: (found: (Schedule | undefined)[]) => void;
      compareAndSet?: boolean;
    } = {},
  ): Promise<PutResult[]> {
    const now = this.clock.now();
    // One read for every input.
    const keys = inputs.map((input) => input?.key);
    const found = await this.store.getSchedules(
      this.tenantId,
      keys.filter((k): k is string => typeof k === 'string'),
    );
    const byKey = new Map(found.map((s) => [s.key, s]));
    const calendars = await calendarsNamedBy(this.store, this.tenantId, inputs);
    const reqs: PutScheduleRequest[] = [];
    const stored: (Schedule | undefined)[] = [];
    for (const [index, input] of inputs.entries()) {
      try {
        const existing = byKey.get(keys[index] as string);
        const cas = opts.compareAndSet === true;
        const req = {
          ...this.preparePut(input, existing, now, cas ? existing?.version : undefined, calendars),
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
    const dropped = await Promise.all(reqs.map((r, i) => overridesDroppedByPut(this, stored[i], r)));
    const results = await this.store.putSchedules(
      reqs.map((r, i) =>
        dropped[i]!.length === 0 ? r : { ...r, dropOverrides: dropped[i]!.map((o) => o.instant) },
      ),
    );
    return results.map((r, i) => ({ ...this.#announce(r), droppedOverrides: r.changed ? dropped[i]! : [] }));
  }

  /**
   * Saves many schedules in batches (each batch one transaction, all of it or none), refusing each invalid
   * input on its own (its index, code and message) while the others are written; an answer per input in
   * the order given, plus totals. See bulk-put.ts.
   */
  putBulk(inputs: readonly unknown[], opts: BulkPutOptions = {}): Promise<BulkPutResult> {
    return putBulk(this, inputs, { ...opts, actor: actorOf(opts) });
  }

  /** @internal Announces saved puts (events, the materializer woken once for the earliest of them). */
  announcePuts(
    results: readonly PutScheduleResult[],
    dropped: readonly (OccurrenceOverride[] | undefined)[] = [],
  ): PutResult[] {
    let earliest: number | null = null;
    let changed = false;
    for (const res of results) {
      for (const t of res.transitions) this.bus.emitTransition(t);
      if (!res.changed) continue;
      changed = true;
      this.bus.emit('schedule:put', { schedule: res.schedule, created: res.created });
      const at = writeFromOf(res.schedule.nextFireAt, res.schedule.calendarRules);
      if (at !== null && (earliest === null || at < earliest)) earliest = at;
    }
    if (changed) this.hooks.scheduleChanged(earliest);
    return results.map((r, i) => ({
      schedule: r.schedule,
      created: r.created,
      changed: r.changed,
      droppedOverrides: r.changed ? (dropped[i] ?? []) : [],
    }));
  }

  /** @internal Validates a put and builds its store request, writing nothing (put, putMany, dry run). */
  preparePut(
    input: ScheduleInput,
    existing: Schedule | undefined,
    now: number,
    expectedVersion: number | undefined,
    /** The calendars the input names (calendarsNamedBy); a name missing here is CALENDAR_UNKNOWN. */
    calendars: ReadonlyMap<string, CalendarDraft> = new Map(),
    compile: SpecCompiler = compileSpec,
  ): PutScheduleRequest {
    const createdAt = existing?.createdAt ?? now;
    const draft = normalizeSchedule(input, { tenantId: this.tenantId, now, createdAt, compile });
    const kind = targetKind(draft.target);
    const driver = this.targets.get(kind);
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
    driver.validate?.(draft.target, draft.payload, this.tenantId);
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

  /** @internal Emits a run's transition (and wakes the worker for a scheduled one). */
  announce(t: Transition | null): void {
    if (t === null) return;
    this.bus.emitTransition(t);
    if (t.to === 'scheduled') this.hooks.runsInserted(t.run.dueAt);
  }

  /**
   * Overrides one occurrence (by its nominal instant): skip it, move it (`moveTo`) or give it a payload.
   * Its pending run follows at once; OCCURRENCE_STARTED when it already started (a claim came first).
   */
  overrideOccurrence(
    key: string,
    instant: string | number | Date,
    input: OverrideInput,
  ): Promise<{ override: OccurrenceOverride; run: Run | null }> {
    return overrideOccurrence(this, key, instant, input);
  }

  /** Removes an occurrence's override; its pending run goes back to the plain occurrence. */
  removeOverride(key: string, instant: string | number | Date): Promise<{ run: Run | null }> {
    return removeOverride(this, key, instant);
  }

  /** The schedule's next occurrences (default 10, at most 100) with their overrides. */
  occurrences(
    key: string,
    opts: { count?: number | undefined } = {},
  ): Promise<{ schedule: Schedule; occurrences: UpcomingOccurrence[] }> {
    return upcomingOccurrences(this, key, opts);
  }

  #announce(res: PutScheduleResult): Omit<PutResult, 'droppedOverrides'> {
    for (const t of res.transitions) this.bus.emitTransition(t);
    if (res.changed) {
      this.bus.emit('schedule:put', { schedule: res.schedule, created: res.created });
      this.hooks.scheduleChanged(writeFromOf(res.schedule.nextFireAt, res.schedule.calendarRules));
    }
    return { schedule: res.schedule, created: res.created, changed: res.changed };
  }

  get(key: string): Promise<Schedule | undefined> {
    return this.store.getSchedule(this.tenantId, key);
  }

  async require(key: string): Promise<Schedule> {
    const s = await this.get(key);
    if (!s) throw new PunctualError('SCHEDULE_NOT_FOUND', `no schedule "${key}"`, { key });
    return s;
  }

  list(
    q: {
      state?: ScheduleState;
      targetKind?: string;
      keyPrefix?: string;
      /** Only schedules with every one of these labels (key → value). */
      labels?: Record<string, string>;
      cursor?: string;
      limit?: number;
    } = {},
  ): Promise<Page<Schedule>> {
    const labels = q.labels === undefined ? undefined : Object.entries(parseLabels(q.labels));
    return this.store.listSchedules({ ...q, labels, tenantId: this.tenantId, limit: clampLimit(q.limit) });
  }

  /**
   * When each of these schedules fires next, by schedule id: its earliest pending run (materialised, not
   * started), else its next occurrence not yet materialised as its calendars and overrides leave it; null
   * while paused or when none remain (domain/next-fire.ts). A page costs one read of pending runs and one
   * of overrides, not one per row (schedule-upcoming.ts).
   */
  nextFireTimes(schedules: readonly Schedule[]): Promise<Map<string, number | null>> {
    return nextFireTimes(this.store, this.tenantId, schedules, this.clock.now());
  }

  /**
   * The schedule's next `count` (1-1000, default 10) occurrences from now as they will really run: its
   * calendars and per-occurrence overrides applied, each with its notes; with `explain`, the candidates
   * dropped and why (domain/schedule-preview.ts). SCHEDULE_NOT_FOUND for an unknown key.
   */
  async preview(
    key: string,
    opts: { count?: number | undefined; explain?: boolean | undefined } = {},
  ): Promise<{ schedule: Schedule; preview: SpecPreview }> {
    const schedule = await this.require(key);
    const preview = await previewSavedSchedule(this.store, schedule, {
      now: this.clock.now(),
      count: opts.count ?? 10,
      explain: opts.explain,
    });
    return { schedule, preview };
  }

  /** Deletes the schedule; its pending runs are cancelled and its history kept. */
  async delete(key: string, opts: ActorOption = {}): Promise<boolean> {
    const res = await this.store.deleteSchedule(this.tenantId, key, this.clock.now(), {
      actor: actorOf(opts),
    });
    for (const t of res.transitions) this.bus.emitTransition(t);
    if (res.deleted) this.bus.emit('schedule:deleted', { tenantId: this.tenantId, key });
    return res.deleted;
  }

  async pause(
    key: string,
    opts: ActorOption & {
      cancelPending?: boolean | undefined;
      note?: string | undefined;
      /** A timed pause: the schedule resumes by itself at this instant (in the future). */
      until?: string | number | Date | null | undefined;
    } = {},
  ): Promise<Schedule> {
    const now = this.clock.now();
    const until = pauseUntil(opts.until, now);
    const res = await this.store.pauseSchedule(this.tenantId, key, {
      cancelPending: opts.cancelPending ?? false,
      note: opts.note ?? null,
      now,
      actor: actorOf(opts),
      until,
    });
    if (!res) throw new PunctualError('SCHEDULE_NOT_FOUND', `no schedule "${key}"`, { key });
    for (const t of res.transitions) this.bus.emitTransition(t);
    this.bus.emit('schedule:paused', { schedule: res.schedule });
    // The materializer's timer wakes for the end of a timed pause.
    if (until !== null) this.hooks.scheduleChanged(until);
    return res.schedule;
  }

  /**
   * Resumes a paused schedule from now on. Occurrences that fell in the pause are recorded as skipped
   * (reason paused; at most maxCatchup of them, the rest as one record), never run late.
   */
  async resume(key: string, opts: ActorOption = {}): Promise<Schedule> {
    const s = await this.require(key);
    if (s.state !== 'paused') return s;
    const now = this.clock.now();
    const spec = compileStored(s, now);
    const plan = planResume(s, (t) => spec.nextAfter(t), now);
    const res = await this.store.resumeSchedule(this.tenantId, key, {
      nextFireAt: plan.nextFireAt,
      skipped: plan.skipped.map((k) => pausedRecord(s, k.scheduledFor, k.details)),
      now,
      actor: actorOf(opts),
    });
    if (!res) throw new PunctualError('SCHEDULE_NOT_FOUND', `no schedule "${key}"`, { key });
    for (const tr of res.transitions) this.bus.emitTransition(tr);
    this.bus.emit('schedule:resumed', { schedule: res.schedule });
    this.hooks.scheduleChanged(writeFromOf(res.schedule.nextFireAt, res.schedule.calendarRules));
    return res.schedule;
  }

  /**
   * The schedule's revisions, newest first (kept after a delete; at most REVISIONS_KEPT per key).
   * SCHEDULE_NOT_FOUND when the key has no schedule and no revision.
   */
  history(key: string, page: { cursor?: string; limit?: number } = {}): Promise<Page<ScheduleRevision>> {
    return revisionHistory(this, key, { cursor: page.cursor, limit: clampLimit(page.limit) });
  }

  /** The revision of this version of the schedule; REVISION_UNKNOWN when none is kept. */
  async revision(key: string, version: number): Promise<ScheduleRevision> {
    const rev = Number.isInteger(version)
      ? await this.store.getScheduleRevision(this.tenantId, key, version)
      : undefined;
    if (!rev) throw revisionUnknown(key, version);
    return rev;
  }

  /**
   * Restores the exact content of an earlier version as a new version (revision `rolledBack`); its pending
   * runs follow as for any update. Unchanged (no new version) when that content is the current one.
   */
  rollback(
    key: string,
    version: number,
    opts: ActorOption & { expectedVersion?: number | undefined } = {},
  ): Promise<RollbackResult> {
    return rollbackSchedule(this, key, version, { ...opts, actor: actorOf(opts) });
  }

  /** The tenant's calendars, by name. */
  calendars(): Promise<Calendar[]> {
    return calendarStoreOf(this.store).listCalendars(this.tenantId);
  }

  /** The calendar with this name, or CALENDAR_NOT_FOUND. */
  calendar(name: string): Promise<Calendar> {
    return requireCalendar(this.store, this.tenantId, name);
  }

  /**
   * Creates or replaces a calendar (its version bumps when the content changed); then the pending runs of
   * every schedule using it are planned again under the new dates.
   */
  async putCalendar(
    input: CalendarInput,
    opts: ActorOption & { expectedVersion?: number | undefined; fromVersion?: number | undefined } = {},
  ): Promise<{ calendar: Calendar; created: boolean; changed: boolean }> {
    const now = this.clock.now();
    const res = await writeCalendar(this.store, this.tenantId, input, {
      now,
      expectedVersion: opts.expectedVersion,
      revision: { actor: actorOf(opts), fromVersion: opts.fromVersion },
    });
    if (res.changed && !res.created) {
      await rewindCalendarUsers(this.store, this.tenantId, res.calendar.name, now, (ts) => {
        for (const t of ts) this.bus.emitTransition(t);
      });
      this.hooks.scheduleChanged(now);
    }
    return res;
  }

  /** Creates or replaces a calendar from the all-day events of an .ics text; lists the events left out. */
  async importCalendar(
    name: string,
    ics: string,
    opts: ImportCalendarOptions & ActorOption = {},
  ): Promise<{
    calendar: Calendar;
    created: boolean;
    changed: boolean;
    skipped: { summary: string | null; why: string }[];
  }> {
    const { input, skipped } = calendarInputFromIcs(name, ics, { ...opts, now: this.clock.now() });
    const res = await this.putCalendar(input, { expectedVersion: opts.expectedVersion, actor: opts.actor });
    return { ...res, skipped };
  }

  /** The calendars a preview names (see previewCalendars), looked up among `inline` and the tenant's. */
  previewCalendars(rules: {
    exclude?: unknown;
    businessDays?: unknown;
    calendars?: readonly CalendarInput[] | undefined;
  }): Promise<AppliedCalendars | null> {
    return previewCalendars(this.store, this.tenantId, rules);
  }

  /**
   * Deletes a calendar: CALENDAR_NOT_FOUND, CALENDAR_IN_USE while a schedule names it, VERSION_CONFLICT. Its
   * revisions are kept (a `deleted` one added): a rollback brings it back.
   */
  deleteCalendar(
    name: string,
    opts: ActorOption & { expectedVersion?: number | undefined } = {},
  ): Promise<void> {
    return calendarStoreOf(this.store).deleteCalendar(this.tenantId, name, {
      now: this.clock.now(),
      expectedVersion: opts.expectedVersion,
      actor: actorOf(opts),
    });
  }

  /** The keys of up to `limit` schedules (by key) whose `exclude` or `businessDays` names the calendar. */
  calendarUsers(name: string, limit = 10): Promise<string[]> {
    return calendarStoreOf(this.store).calendarUsers(this.tenantId, name, limit);
  }

  /**
   * The calendar's revisions, newest first (kept after a delete; at most REVISIONS_KEPT per name).
   * CALENDAR_NOT_FOUND when the name has no calendar and no revision.
   */
  calendarHistory(
    name: string,
    page: { cursor?: string; limit?: number } = {},
  ): Promise<Page<CalendarRevision>> {
    return calendarHistory(this, name, { cursor: page.cursor, limit: clampLimit(page.limit) });
  }

  /** The revision of this version of the calendar; REVISION_UNKNOWN when none is kept. */
  calendarRevision(name: string, version: number): Promise<CalendarRevision> {
    return calendarRevision(this, name, version);
  }

  /**
   * Restores the exact content of an earlier version of a calendar as a new version (revision `rolledBack`)
   * and re-plans the schedules using it; unchanged (no new version) when that content is the current one.
   */
  rollbackCalendar(
    name: string,
    version: number,
    opts: ActorOption & { expectedVersion?: number | undefined } = {},
  ): Promise<CalendarRollbackResult> {
    return rollbackCalendar(this, name, version, { ...opts, actor: actorOf(opts) });
  }

  /** What a put of `input` would do (created, updated or unchanged, diff, next fire times), writing nothing. */

  dryRun(input: ScheduleInput, opts: { expectedVersion?: number | undefined } = {}): Promise<DryRunResult> {
    return dryRunPut(this, input, opts);
  }

  /** Runs the schedule now, outside its spec (kind manual); `payload` overrides the schedule's for this run. */
  async trigger(key: string, opts: { payload?: Json } = {}): Promise<Run> {
    checkPayload(opts.payload);
    const s = await this.require(key);
    const now = this.clock.now();
    const [t] = await this.store.insertRuns(
      [
        runInsertOf(s, 'manual', now, {
          unique: false,
          payload: opts.payload === undefined ? null : opts.payload,
        }),
      ],
      now,
    );
    if (!t) throw new Error('trigger inserted no run');
    this.bus.emitTransition(t);
    this.hooks.runsInserted(t.run.dueAt);
    return t.run;
  }

  /**
   * One run per occurrence of the spec in [from, to) that has no run yet (kind backfill). `to` may not be in
   * the future; at most the schedule's maxCatchup runs.
   */
  async backfill(
    key: string,
    range: { from: string | number | Date; to: string | number | Date },
  ): Promise<Run[]> {
    const s = await this.require(key);
    const now = this.clock.now();
    const from = parseInstant(range.from, 'from');
    const to = parseInstant(range.to, 'to');
    if (from === null || to === null || to <= from) {
      throw new PunctualError('SCHEDULE_INVALID', 'backfill needs from < to', { field: 'to' });
    }
    if (to > now)
      throw new PunctualError('SCHEDULE_INVALID', 'backfill cannot reach into the future', { field: 'to' });
    const spec = compileStored(s, now);
    const runs: RunInsert[] = [];
    for (let t = spec.nextAfter(from - 1); t !== null && t < to; t = spec.nextAfter(t)) {
      if (runs.length >= s.policies.maxCatchup) {
        throw new PunctualError(
          'SCHEDULE_INVALID',
          `backfill range holds more than maxCatchup (${s.policies.maxCatchup}) occurrences`,
          {
            field: 'to',
          },
        );
      }
      runs.push(runInsertOf(s, 'backfill', t, { unique: true, dueAt: now }));
    }
    const inserted = await this.store.insertRuns(runs, now);
    for (const t of inserted) this.bus.emitTransition(t);
    if (inserted.length > 0) this.hooks.runsInserted(now);
    return inserted.map((t) => t.run);
  }

  /**
   * Runs a final run again: new attempts of the same occurrence (the same run, its scheduledFor and occurrence
   * id), due now, with the schedule's current version and retry budget. RUN_NOT_RERUNNABLE when it is not
   * final yet or another run holds its occurrence; SCHEDULE_NOT_FOUND when its schedule was deleted.
   */
  async rerun(id: string): Promise<Run> {
    const now = this.clock.now();
    return this.#announceReruns(await rerunOne(this.store, this.tenantId, id, now), now)[0]!;
  }

  /**
   * Runs again the schedule's runs whose scheduledFor is in [from, to) and whose state is one of `states`
   * (default dead), at most maxCatchup. Runs that cannot run again are listed in `refused`, not thrown.
   * `beforeWrite` (e.g. a quota check) is called with the number of runs found, before anything is written.
   */
  async rerunRange(
    key: string,
    range: RerunRange,
    opts: { beforeWrite?: (count: number) => Promise<void> } = {},
  ): Promise<{ runs: Run[]; refused: RerunRefused[] }> {
    const s = await this.require(key);
    const now = this.clock.now();
    const res = await rerunInRange(this.store, s, range, now, opts.beforeWrite);
    return { runs: this.#announceReruns(res.transitions, now), refused: res.refused };
  }

  #announceReruns(transitions: Transition[], now: number): Run[] {
    for (const t of transitions) this.bus.emitTransition(t);
    if (transitions.length > 0) this.hooks.runsInserted(now);
    return transitions.map((t) => t.run);
  }

  async getRun(id: string): Promise<{ run: Run; attempts: Attempt[] } | undefined> {
    return this.store.getRun(this.tenantId, id);
  }

  listRuns(
    q: {
      scheduleKey?: string;
      state?: RunState;
      from?: number;
      to?: number;
      cursor?: string;
      limit?: number;
    } = {},
  ): Promise<Page<Run>> {
    return this.store.listRuns({ ...q, tenantId: this.tenantId, limit: clampLimit(q.limit) });
  }

  async cancelRun(id: string): Promise<Run> {
    const t = await this.store.cancelRun(this.tenantId, id, this.clock.now());
    if (!t) {
      const existing = await this.store.getRun(this.tenantId, id);
      if (!existing) throw new PunctualError('RUN_NOT_FOUND', `no run "${id}"`, { id });
      throw new PunctualError('RUN_NOT_CANCELLABLE', `run "${id}" is already ${existing.run.state}`, {
        id,
        state: existing.run.state,
      });
    }
    this.bus.emitTransition(t);
    return t.run;
  }
}

/** A timed pause's end: null for none; PAUSE_UNTIL_INVALID when malformed or not after now. */
function pauseUntil(v: string | number | Date | null | undefined, now: number): number | null {
  let until: number | null;
  try {
    until = parseInstant(v, 'until');
  } catch {
    throw new PunctualError(
      'PAUSE_UNTIL_INVALID',
      'until must be an ISO-8601 instant or epoch milliseconds',
      {
        field: 'until',
        value: String(v),
      },
    );
  }
  if (until !== null && until <= now) {
    throw new PunctualError('PAUSE_UNTIL_INVALID', 'until must be in the future', {
      field: 'until',
      value: new Date(until).toISOString(),
    });
  }
  return until;
}

function actorOf(opts: ActorOption): string | null {
  return opts.actor === undefined ? LIBRARY_ACTOR : opts.actor;
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined) return 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new PunctualError('SCHEDULE_INVALID', 'limit must be an integer between 1 and 1000', {
      field: 'limit',
    });
  }
  return limit;
}
