// What a tenant can do with its schedules and runs: put (upsert), read, list, delete, pause, resume, trigger,
// backfill, and read or cancel runs. Every call is scoped to one tenant; another tenant's objects are
// indistinguishable from missing ones. Validation happens before anything is written. This class is the
// facade: each group of calls lives in its own module (schedule-puts.ts, schedule-pauses.ts, tenant-runs.ts,
// calendar-puts.ts, tenant-calendars.ts, schedule-changes.ts, calendar-changes.ts, occurrence-overrides.ts);
// it must never grow logic of its own beyond wiring them to the tenant and its engine.

import { actorOf, type ActorOption } from './actor-option.js';
import type { Clock } from './clock.js';
import type { Json } from './domain/json.js';
import type { Attempt, Run, RunState } from './domain/run.js';
import { parseLabels, type Schedule, type ScheduleInput, type ScheduleState } from './domain/schedule.js';
import { compileSpec } from './domain/timing/compile-spec.js';
import type { SpecPreview } from './domain/timing/preview-spec.js';
import { nextFireTimes, previewSavedSchedule } from './schedule-upcoming.js';
import { putBulk, type BulkPutOptions, type BulkPutResult } from './bulk-put.js';
import type { SpecCompiler } from './domain/timing/spec-compiler.js';
import type { TargetKind } from './domain/target.js';
import type { EventBus } from './events.js';
import type { RerunRange, RerunRefused } from './reruns.js';
import type { Page, PutScheduleRequest, PutScheduleResult, Store, Transition } from './store/store.js';
import type { TargetDriver } from './targets/target.js';
import type { ScheduleRevision } from './domain/schedule-revision.js';
import type { Calendar, CalendarDraft, CalendarInput } from './domain/calendar/calendar.js';
import type { AppliedCalendars } from './domain/calendar/apply-calendars.js';
import type { CalendarRevision } from './domain/calendar/calendar-revision.js';
import {
  calendarHistory,
  calendarRevision,
  rollbackCalendar,
  type CalendarRollbackResult,
} from './calendar-changes.js';
import {
  calendarStoreOf,
  requireCalendar,
  previewCalendars,
  type ImportCalendarOptions,
} from './tenant-calendars.js';
import type { OccurrenceOverride, OverrideInput } from './domain/occurrence-override.js';
import {
  overrideOccurrence,
  removeOverride,
  upcomingOccurrences,
  type UpcomingOccurrence,
} from './occurrence-overrides.js';
import {
  dryRunPut,
  revisionHistory,
  rollbackSchedule,
  scheduleRevision,
  type DryRunResult,
  type RollbackResult,
} from './schedule-changes.js';
import { clampLimit } from './page-limit.js';
import { PunctualError } from './errors.js';
import { pauseSchedule, resumeSchedule, type PauseOptions } from './schedule-pauses.js';
import {
  announcePuts,
  preparePut,
  putSchedule,
  putSchedules,
  type PutManyOptions,
  type PutOptions,
  type PutResult,
} from './schedule-puts.js';
import type { EngineHooks, TenantEngine } from './tenant-engine.js';
import {
  importCalendar,
  putCalendar,
  type CalendarImportResult,
  type CalendarPutResult,
} from './calendar-puts.js';
import { backfillRuns, cancelRun, rerunRun, rerunRunsInRange, triggerRun } from './tenant-runs.js';

export { LIBRARY_ACTOR, type ActorOption } from './actor-option.js';
export type { PutResult } from './schedule-puts.js';
export type { EngineHooks } from './tenant-engine.js';

export class TenantApi {
  /** The bus, targets and hooks the writes announce through and validate against. */
  readonly #engine: TenantEngine;

  constructor(
    readonly tenantId: string,
    readonly store: Store,
    /** The engine's clock (corrected by the offset to a shared store's server). */
    readonly clock: Clock,
    bus: EventBus,
    targets: ReadonlyMap<TargetKind, TargetDriver>,
    hooks: EngineHooks,
  ) {
    this.#engine = { bus, targets, hooks };
  }

  /**
   * Creates or updates the schedule with this key. An update bumps `version`, cancels the old version's
   * pending runs and materialises the new spec; an identical put changes nothing.
   */
  put(input: ScheduleInput, opts: PutOptions = {}): Promise<PutResult> {
    return putSchedule(this, this.#engine, input, opts);
  }

  /**
   * Creates or updates many schedules in one transaction: all are saved, or none (the first invalid input
   * throws before anything is written, with `details.index`). `check` sees what each input found stored,
   * after every input is validated and before anything is written (it throws to refuse). `compareAndSet`
   * makes each write conditional on what was found: VERSION_CONFLICT when another writer came first.
   */
  putMany(inputs: ScheduleInput[], opts: PutManyOptions = {}): Promise<PutResult[]> {
    return putSchedules(this, this.#engine, inputs, opts);
  }

  /**
   * Saves many schedules in batches (each batch one transaction, all of it or none), refusing each invalid
   * input on its own (its index, code and message) while the others are written; an answer per input in
   * the order given, plus totals. A failed write may leave the batch written beside it (bulk-put.ts).
   */
  putBulk(inputs: readonly unknown[], opts: BulkPutOptions = {}): Promise<BulkPutResult> {
    return putBulk(this, inputs, { ...opts, actor: actorOf(opts) });
  }

  /** @internal Announces saved puts (events, the materializer woken once for the earliest of them). */
  announcePuts(
    results: readonly PutScheduleResult[],
    dropped: readonly (OccurrenceOverride[] | undefined)[] = [],
  ): PutResult[] {
    return announcePuts(this.#engine, results, dropped);
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
    return preparePut(
      this.tenantId,
      this.#engine.targets,
      input,
      existing,
      now,
      expectedVersion,
      calendars,
      compile,
    );
  }

  /** @internal Waits while this instance's materializer is behind (bounded): a bulk put's batches give way. */
  materializerCaughtUp(): Promise<void> {
    return this.#engine.hooks.materializerCaughtUp();
  }

  /** @internal Emits a run's transition (and wakes the worker for a scheduled one). */
  announce(t: Transition | null): void {
    if (t === null) return;
    this.#engine.bus.emitTransition(t);
    if (t.to === 'scheduled') this.#engine.hooks.runsInserted(t.run.dueAt);
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
    for (const t of res.transitions) this.#engine.bus.emitTransition(t);
    if (res.deleted) this.#engine.bus.emit('schedule:deleted', { tenantId: this.tenantId, key });
    return res.deleted;
  }

  /** Pauses the schedule; a timed pause (`until`) resumes by itself. SCHEDULE_NOT_FOUND for an unknown key. */
  pause(key: string, opts: PauseOptions = {}): Promise<Schedule> {
    return pauseSchedule(this, this.#engine, key, opts);
  }

  /**
   * Resumes a paused schedule from now on. Occurrences that fell in the pause are recorded as skipped
   * (reason paused; at most maxCatchup of them, the rest as one record), never run late.
   */
  resume(key: string, opts: ActorOption = {}): Promise<Schedule> {
    return resumeSchedule(this, this.#engine, key, opts);
  }

  /**
   * The schedule's revisions, newest first (kept after a delete; at most REVISIONS_KEPT per key).
   * SCHEDULE_NOT_FOUND when the key has no schedule and no revision.
   */
  history(key: string, page: { cursor?: string; limit?: number } = {}): Promise<Page<ScheduleRevision>> {
    return revisionHistory(this, key, { cursor: page.cursor, limit: clampLimit(page.limit) });
  }

  /** The revision of this version of the schedule; REVISION_UNKNOWN when none is kept. */
  revision(key: string, version: number): Promise<ScheduleRevision> {
    return scheduleRevision(this, key, version);
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
  putCalendar(
    input: CalendarInput,
    opts: ActorOption & { expectedVersion?: number | undefined; fromVersion?: number | undefined } = {},
  ): Promise<CalendarPutResult> {
    return putCalendar(this, this.#engine, input, opts);
  }

  /** Creates or replaces a calendar from the all-day events of an .ics text; lists the events left out. */
  importCalendar(
    name: string,
    ics: string,
    opts: ImportCalendarOptions & ActorOption = {},
  ): Promise<CalendarImportResult> {
    return importCalendar(this, name, ics, opts);
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
  trigger(key: string, opts: { payload?: Json } = {}): Promise<Run> {
    return triggerRun(this, this.#engine, key, opts);
  }

  /**
   * One run per occurrence of the spec in [from, to) that has no run yet (kind backfill). `to` may not be in
   * the future; at most the schedule's maxCatchup runs.
   */
  backfill(key: string, range: { from: string | number | Date; to: string | number | Date }): Promise<Run[]> {
    return backfillRuns(this, this.#engine, key, range);
  }

  /**
   * Runs a final run again: new attempts of the same occurrence (the same run, its scheduledFor and occurrence
   * id), due now, with the schedule's current version and retry budget. RUN_NOT_RERUNNABLE when it is not
   * final yet or another run holds its occurrence; SCHEDULE_NOT_FOUND when its schedule was deleted.
   */
  rerun(id: string): Promise<Run> {
    return rerunRun(this, this.#engine, id);
  }

  /**
   * Runs again the schedule's runs whose scheduledFor is in [from, to) and whose state is one of `states`
   * (default dead), at most maxCatchup. Runs that cannot run again are listed in `refused`, not thrown.
   * `beforeWrite` (e.g. a quota check) is called with the number of runs found, before anything is written.
   */
  rerunRange(
    key: string,
    range: RerunRange,
    opts: { beforeWrite?: (count: number) => Promise<void> } = {},
  ): Promise<{ runs: Run[]; refused: RerunRefused[] }> {
    return rerunRunsInRange(this, this.#engine, key, range, opts);
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

  cancelRun(id: string): Promise<Run> {
    return cancelRun(this, this.#engine, id);
  }
}
