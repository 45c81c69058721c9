// The composition root: builds the store (SQLite by default), the target drivers, and the engine
// (materializer, worker, reaper, housekeeper) and runs them. It is the only module that knows concrete
// stores and targets. The scheduler's own schedule methods act for its default tenant; `tenant(id)` gives
// the same methods for another. Schedules declared in code are reconciled by start(), before any loop runs.

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { offsetClock, type Clock } from './clock.js';
import { DeclaredSet, reconcileDeclared, type HandlerSchedule } from './declared-schedules.js';
import type { ScheduleInput } from './domain/schedule.js';
import { ClockSync } from './engine/clock-sync.js';
import { DatabaseHealth, type DatabaseOutageState } from './engine/database-health.js';
import { PunctualError } from './errors.js';
import type { TargetKind } from './domain/target.js';
import { AlertDispatcher } from './engine/alert-dispatcher.js';
import { AlertEvaluator } from './engine/alert-evaluator.js';
import { failureRatePolicy, type FailureRatePolicy } from './domain/failure-rate.js';
import { Housekeeper } from './engine/housekeeper.js';
import { Materializer } from './engine/materializer.js';
import { Reaper } from './engine/reaper.js';
import { SpecCache } from './engine/spec-cache.js';
import { Worker } from './engine/worker.js';
import { EventBus, type EventName, type Listener } from './events.js';
import { resolveOptions, type ResolvedOptions, type SchedulerOptions } from './options.js';
import { sqliteStore } from './store/sqlite/sqlite-store.js';
import { hasAlerts } from './store/alert-store.js';
import type { Store } from './store/store.js';
import { HandlerTarget, type Handler, type PayloadSchema } from './targets/handler-target.js';
import type { TargetDriver } from './targets/target.js';
import { TenantApi, type EngineHooks } from './tenant-api.js';

export const DEFAULT_DATABASE_PATH = './data/punctual.db';

/** Time between two "not fired" checks while something is overdue already. */
const NOT_FIRED_CHECK_MS = 5_000;

/** Most runs one claim transaction takes. */
const CLAIM_BATCH = 200;
/** Most claimed runs a worker holds waiting (its prefetch buffer): a minute boundary of a million hourly schedules is 16,667. */
const PREFETCH_MAX = 20_000;

/**
 * Least time between two materializer steps its own timer starts (a tenth of the look-ahead when that is
 * shorter): at a million schedules spread over the hour, 278 fall due a second, one step each without it.
 */
const MATERIALIZER_MIN_STEP_MS = 250;

/**
 * Longest time between two materializer claims from schedules_due's first entry (engine/low-water-mark.ts):
 * how long a schedule below the mark that nobody announced (a crashed instance's lapsed claim) may wait.
 */
const MATERIALIZER_FULL_SCAN_MS = 5_000;

/** Longest a bulk put's batch waits for a materializer that is behind (engine/materializer-backlog.ts). */
const BULK_GIVE_WAY_MS = 1_000;

export class Scheduler extends TenantApi {
  readonly options: ResolvedOptions;
  readonly #bus: EventBus;
  readonly #handlers = new HandlerTarget((tenantId) => this.tenant(tenantId));
  readonly #targets: Map<TargetKind, TargetDriver>;
  readonly #materializer: Materializer;
  readonly #worker: Worker;
  readonly #reaper: Reaper;
  readonly #housekeeper: Housekeeper;
  readonly #alertEvaluator: AlertEvaluator | undefined;
  readonly #alertDispatcher: AlertDispatcher | undefined;
  readonly #tenants = new Map<string, TenantApi>();
  readonly #clockSync: ClockSync;
  readonly #health: DatabaseHealth;
  readonly #declared = new DeclaredSet();
  #started = false;
  #starting: Promise<void> | undefined;
  #migrated = false;
  #unwake: (() => void) | undefined;
  #unsignal: (() => void) | undefined;
  /** The hooks every tenant API of this scheduler announces through. */
  readonly #hooks: EngineHooks;

  constructor(opts: SchedulerOptions = {}) {
    const options = resolveOptions(opts, `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`);
    const store = opts.store ?? defaultStore();
    const bus = new EventBus();
    const targets = new Map<TargetKind, TargetDriver>();
    // The engine exists only after super(): the hooks are bound to it just below.
    const hooks: EngineHooks = {
      scheduleChanged: () => {},
      runsInserted: () => {},
      materializerCaughtUp: () => Promise.resolve(),
    };
    // The engine's clock: the given clock corrected by the measured offset to a shared store's server.
    const clockSync = new ClockSync(
      options.clock,
      bus,
      store.measureClockOffset?.bind(store),
      options.clockSync,
    );
    const clock: Clock = offsetClock(options.clock, () => clockSync.offsetMs);
    super(options.tenantId, store, clock, bus, targets, hooks);
    this.#clockSync = clockSync;
    hooks.scheduleChanged = (at) => this.scheduleChanged(at);
    hooks.runsInserted = (at) => this.wakeWorker(at);
    hooks.materializerCaughtUp = () => this.#materializer.backlog.caughtUp();
    this.#hooks = hooks;
    this.options = options;
    this.#bus = bus;
    this.#targets = targets;
    this.#health = new DatabaseHealth(clock, bus);
    targets.set('handler', this.#handlers);
    for (const t of opts.targets ?? []) targets.set(t.kind, t);
    const specs = new SpecCache();
    this.#worker = new Worker(store, clock, bus, targets, {
      workerId: options.workerId,
      concurrency: options.concurrency,
      leaseMs: options.leaseMs,
      claimBatch: CLAIM_BATCH,
      claimAheadMs: options.claimAheadMs,
      // As deep as the slots get through in 100 ms at the handlers' pace (prefetch-sizer.ts): with fast
      // handlers a minute boundary's runs are claimed ahead (claimAheadMs) and all start within that.
      prefetch: {
        min: options.concurrency,
        max: Math.max(PREFETCH_MAX, 9 * options.concurrency),
        waitMs: 100,
      },
      deferMs: 250,
      // Runs waiting in memory for a saturated target (script sandbox threads); beyond, handed back.
      maxWaiting: Math.max(100, 10 * options.concurrency),
      settleBatch: 500,
      settleParallel: 2,
      maxSleepMs: options.maxSleepMs,
      maxResultBytes: options.maxResultBytes,
      random: options.random,
      ...(opts.tracer && { tracer: opts.tracer }),
    });
    this.#materializer = new Materializer(
      store,
      clock,
      bus,
      specs,
      {
        lookaheadMs: options.lookaheadMs,
        misfireThresholdMs: options.misfireThresholdMs,
        batchSize: 200,
        parallel: store.capabilities.concurrentStatements ? 2 : 1,
        maxRunsPerStep: 100,
        claimLeaseMs: 30_000,
        maxSleepMs: options.maxSleepMs,
        minStepMs: Math.min(MATERIALIZER_MIN_STEP_MS, options.lookaheadMs / 10),
        behindLagMs: options.lookaheadMs / 4,
        giveWayMs: BULK_GIVE_WAY_MS,
        fullScanMs: MATERIALIZER_FULL_SCAN_MS,
      },
      (dueAt) => this.wakeWorker(dueAt),
    );
    this.#reaper = new Reaper(store, clock, bus, options.reapIntervalMs, () => this.#worker.wake());
    this.#housekeeper = new Housekeeper(store, clock, bus, {
      notFiredGraceMs: options.notFiredGraceMs,
      intervalMs: 30_000,
      overdueIntervalMs: Math.min(options.notFiredGraceMs, NOT_FIRED_CHECK_MS),
      retention: options.retention,
      unstarted: (now, graceMs) => this.#worker.takeUnstarted(now, graceMs),
      nextUnstartedDue: () => this.#worker.nextUnstartedDue(),
      reported: () => this.#worker.wake(),
      schedulesReported: (earliest) => {
        this.#materializer.scheduleChanged(earliest);
        this.#materializer.loop.nudge();
      },
    });
    if (hasAlerts(store)) {
      const alertSleepMs = opts.alerts?.maxSleepMs ?? 5_000;
      const sender = opts.alerts?.sender;
      this.#alertDispatcher = sender
        ? new AlertDispatcher(store, clock, bus, sender, {
            leaseMs: 60_000,
            batch: 50,
            maxSleepMs: alertSleepMs,
            sendTimeoutMs: 15_000,
          })
        : undefined;
      this.#alertEvaluator = new AlertEvaluator(store, clock, bus, {
        maxSleepMs: 30_000,
        batch: 500,
        transitioned: () => this.#alertDispatcher?.loop.nudge(),
        failureRate: failureRateOption(opts.alerts?.failureRate),
      });
    }
  }

  /**
   * Registers a named handler for `{ handler: name }` targets, with an optional payload check at save time.
   * `schedule` declares its recurring schedule (key: the handler's name unless given; target: the handler),
   * which start() creates or updates (docs/declared-schedules.md); it must come before start().
   */
  handle<P = unknown>(
    name: string,
    fn: Handler<P>,
    opts: { payloadSchema?: PayloadSchema; schedule?: HandlerSchedule } = {},
  ): this {
    if (opts.schedule !== undefined) this.#assertNotStarted(`handle("${name}", { schedule })`);
    this.#handlers.register(name, fn as Handler, opts.payloadSchema);
    if (opts.schedule !== undefined) this.#declared.setHandlerSchedule(name, opts.schedule);
    return this;
  }

  /**
   * Declares schedules of any target, which start() creates or updates and, per `declared.orphans`, removes
   * once they are no longer declared (docs/declared-schedules.md). Must come before start().
   */
  defineSchedules(schedules: readonly ScheduleInput[]): this {
    this.#assertNotStarted('defineSchedules');
    this.#declared.define(schedules);
    return this;
  }

  #assertNotStarted(what: string): void {
    if (this.#started || this.#starting !== undefined) {
      throw new PunctualError(
        'DECLARATION_AFTER_START',
        `${what} was called after start(): declare schedules before starting the scheduler`,
        { call: what },
      );
    }
  }

  on<E extends EventName>(event: E, listener: Listener<E>): () => void {
    return this.#bus.on(event, listener);
  }

  off<E extends EventName>(event: E, listener: Listener<E>): void {
    this.#bus.off(event, listener);
  }

  /** The same schedule and run methods, for another tenant. */
  tenant(tenantId: string): TenantApi {
    if (tenantId === this.tenantId) return this;
    let api = this.#tenants.get(tenantId);
    if (!api) {
      api = new TenantApi(tenantId, this.store, this.clock, this.#bus, this.#targets, this.#hooks);
      this.#tenants.set(tenantId, api);
    }
    return api;
  }

  /** Applies migrations (once); `start` calls it. */
  async migrate(): Promise<void> {
    if (this.#migrated) return;
    await this.store.migrate();
    this.#migrated = true;
  }

  /**
   * Migrates, reconciles the declared schedules (a declaration error fails it before anything is written, and
   * nothing is started), then starts the engine's loops.
   */
  async start(): Promise<void> {
    if (this.#started) return;
    this.#starting ??= this.#start().finally(() => (this.#starting = undefined));
    return this.#starting;
  }

  async #start(): Promise<void> {
    await this.migrate();
    // Measure before anything is written or claimed, then keep measuring in the background.
    await this.#clockSync.measureNow();
    const declared = this.options.declared;
    if (this.#declared.size > 0 || declared.explicit) {
      this.#bus.emit('schedules:reconciled', await reconcileDeclared(this, this.#declared, declared));
    }
    this.#clockSync.start();
    this.#started = true;
    const roles = this.options.roles;
    if (roles.materializer) this.#materializer.loop.start();
    if (roles.worker) {
      this.#worker.start();
      this.#reaper.loop.start();
    }
    this.#housekeeper.loop.start();
    this.#alertEvaluator?.start();
    this.#alertDispatcher?.loop.start();
    // Signals from any process sharing the store: act now rather than at the next timer.
    this.#unsignal = this.store.onSignal((signal) => {
      switch (signal.kind) {
        case 'schedules':
          this.scheduleChanged(signal.at);
          return;
        case 'abort':
          this.#worker.abortRuns(signal.runIds, 'the run was cancelled');
          return;
        case 'paused':
          this.#worker.schedulePaused(signal.scheduleId, signal.cancelPending);
          return;
      }
    });
    // A wake-up is about runs, for the worker; schedules changed elsewhere arrive as a `schedules` signal
    // (above). Nudging the materializer here too made each of its steps that wrote runs start the next one at
    // once (its own notification came back), past its minimum step.
    if (this.store.capabilities.wakeups && this.store.onWake) {
      this.#unwake = this.store.onWake((dueAt) => this.wakeWorker(dueAt));
    }
  }

  /**
   * Graceful stop: stops claiming, lets in-flight runs finish for up to `graceMs` (default shutdownGraceMs),
   * hands back what did not finish, then stops the background loops. Does not close the store.
   */
  async stop(opts: { graceMs?: number } = {}): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    this.#unwake?.();
    this.#unsignal?.();
    await this.#materializer.loop.stop();
    await this.#worker.stop(opts.graceMs ?? this.options.shutdownGraceMs);
    await this.#reaper.loop.stop();
    await this.#housekeeper.loop.stop();
    await this.#alertEvaluator?.stop();
    await this.#alertDispatcher?.loop.stop();
    await this.#clockSync.stop();
    this.#health.reset();
  }

  /**
   * The database outage going on (unreachable, cut mid-transaction, or read-only), or null while the engine's
   * loops can use their database. A service is not ready while it lasts.
   */
  get databaseOutage(): DatabaseOutageState | null {
    return this.#health.outage;
  }

  /** The last measured offset to the store's clock, in ms (0 for a store without one). */
  get clockOffsetMs(): number {
    return this.#clockSync.offsetMs;
  }

  /** Stops, closes the target drivers' connections (brokers), then closes the store. */
  async close(): Promise<void> {
    await this.stop();
    await Promise.allSettled([...new Set(this.#targets.values())].map((t) => t.close?.()));
    await this.store.close();
  }

  /** Runs this process is delivering right now. */
  get inFlight(): number {
    return this.#worker.inFlight;
  }

  /** Of the runs in flight, those claimed ahead of their instant and waiting for it (`claimAheadMs`). */
  get heldAhead(): number {
    return this.#worker.heldAhead;
  }

  get started(): boolean {
    return this.#started;
  }

  /** @internal Wakes the worker for a run due at `at`. */
  wakeWorker(at: number): void {
    this.#worker.wake(at);
    this.#notFiredCheckFor(at);
  }

  /** The "not fired" check runs when an occurrence due at `at` would pass its grace (if sooner than planned). */
  #notFiredCheckFor(at: number): void {
    this.#housekeeper.loop.nudge(at + this.options.notFiredGraceMs + 1);
  }

  /**
   * Alerting state changed outside the engine (a check was put, a heartbeat recorded, a channel added):
   * evaluates due checks and sends due deliveries now rather than at the next timer.
   */
  alertsChanged(): void {
    if (!this.#started) return;
    this.#alertEvaluator?.loop.nudge();
    this.#alertDispatcher?.loop.nudge();
  }

  /** @internal Schedules changed: materialise what falls due before `at`. */
  scheduleChanged(at: number | null): void {
    if (at === null) return;
    this.#materializer.scheduleChanged(at);
    if (!this.#started) return;
    this.#materializer.loop.nudge(at - this.options.lookaheadMs);
    this.#notFiredCheckFor(at);
  }
}

function defaultStore(): Store {
  mkdirSync(dirname(DEFAULT_DATABASE_PATH), { recursive: true });
  return sqliteStore({ path: DEFAULT_DATABASE_PATH });
}

/** Creates a scheduler. See SchedulerOptions for the settings and their defaults. */
export function createScheduler(opts: SchedulerOptions = {}): Scheduler {
  return new Scheduler(opts);
}

/** The failure-rate policy an option asks for: off (null) unless true or an object. */
function failureRateOption(o: Partial<FailureRatePolicy> | boolean | undefined): FailureRatePolicy | null {
  if (o === undefined || o === false) return null;
  return failureRatePolicy(o === true ? {} : o);
}
