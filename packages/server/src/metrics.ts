// Prometheus metrics of the service, on a Registry of its own (never prom-client's global one): run outcomes,
// skipped runs by reason, firing lateness, delivery durations (also as a fraction of the timeout), double
// fires, leases reclaimed, occurrences not fired, materializer lag, the last success of opted-in schedules and
// HTTP requests, fed by scheduler events; queue depth and schedules by state read from the store's stats on
// each scrape, and the script sandbox's threads read from its pool. Label values stay bounded: routes are
// templates, only the first N tenants get a `tenant` label value, and only the schedules the operator names
// get a `schedule` label. The registry always keeps the tenant series; `render({ tenants: false })` sums them
// over tenants, so an open scrape reveals no tenant id.

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { AlertMetrics } from './alert-metrics.js';
import type { Clock, Run, Scheduler, ScriptPoolStats, Store } from 'punctual';
import { scheduleMatcher } from './metric-schedule-labels.js';
import { withoutTenants } from './metric-tenant-sums.js';
import { registerScriptMetrics } from './script-metrics.js';
import { TenantLabels } from './tenant-labels.js';

type StoreStats = Awaited<ReturnType<NonNullable<Store['stats']>>>;

export interface MetricsOptions {
  scheduler: Scheduler;
  clock: Pick<Clock, 'now'>;
  /** Tenants (first seen first) given their own `tenant` label value; the rest are `other`. */
  tenantLabels: number;
  /**
   * Schedules with series of their own in the per-schedule metrics: `[tenant/]key` patterns, `*` for a
   * prefix, comma-separated (PUNCTUAL_METRICS_SCHEDULE_LABELS). Default: none.
   */
  scheduleLabels?: string;
  /** Also collect Node's process metrics (off in tests). Default true. */
  processMetrics?: boolean;
  /** The script sandbox's pool, read on each scrape; without it there are no punctual_script_* metrics. */
  scriptStats?: () => ScriptPoolStats;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const TIMEOUT_RATIO_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 1];
/** Runs this process started and has not seen end, kept to name the tenant of a lost lease. */
const MAX_STARTED = 100_000;

/** What the metrics need of a schedule, cached by `tenantId \0 key`. */
interface ScheduleFacts {
  target: string;
  timeoutMs: number | null;
}
const FINAL = ['succeeded', 'dead', 'skipped', 'expired', 'cancelled'] as const;

/** The counters that carry a `tenant` label. */
const TENANT_METRICS = new Set(['punctual_runs_finished_total', 'punctual_schedule_not_fired_total']);

export class Metrics {
  readonly registry = new Registry();
  readonly #tenants: TenantLabels;
  readonly #scheduler: Scheduler;
  readonly #clock: Pick<Clock, 'now'>;
  /** Target kind and timeout by `tenantId \0 scheduleKey`, so run events need no lookup each time. */
  readonly #facts = new Map<string, ScheduleFacts>();
  /** Tenant of each run this process started and has not seen end (for `lease:lost`, which has only the id). */
  readonly #started = new Map<string, string>();
  readonly #labelled: (tenantId: string, key: string) => boolean;
  readonly #unsubscribe: (() => void)[] = [];

  readonly runsFinished: Counter<'state' | 'target' | 'tenant'>;
  readonly lateness: Histogram<'target'>;
  readonly delivery: Histogram<'target' | 'outcome'>;
  readonly leasesReclaimed: Counter;
  readonly doubleFires: Counter<'tenant' | 'found'>;
  readonly skipped: Counter<'reason' | 'tenant'>;
  readonly timeoutRatio: Histogram<'target'>;
  readonly lastSuccess: Gauge<'tenant' | 'schedule'>;
  readonly notFired: Counter<'tenant'>;
  readonly materializerLag: Histogram;
  readonly engineErrors: Counter<'where'>;
  readonly databaseOutages: Histogram<'kind'>;
  readonly databaseUnavailable: Gauge;
  readonly materializerBehind: Gauge;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route'>;
  readonly runsDue: Gauge;
  readonly runsRunning: Gauge;
  readonly oldestDue: Gauge;
  readonly schedules: Gauge<'state'>;
  readonly alerts: AlertMetrics;

  constructor(opts: MetricsOptions) {
    const registers = [this.registry];
    this.#scheduler = opts.scheduler;
    this.#clock = opts.clock;
    this.#tenants = new TenantLabels(opts.tenantLabels);
    this.#labelled = scheduleMatcher(opts.scheduleLabels ?? '');
    if (opts.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    this.runsFinished = new Counter({
      name: 'punctual_runs_finished_total',
      help: 'Runs that reached a final state, by state and target type',
      labelNames: ['state', 'target', 'tenant'],
      registers,
    });
    this.lateness = new Histogram({
      name: 'punctual_run_lateness_seconds',
      help: 'How late attempts start: start time minus due time (scheduled time plus jitter, or the retry time)',
      labelNames: ['target'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.delivery = new Histogram({
      name: 'punctual_delivery_duration_seconds',
      help: 'Duration of delivery attempts, by target type and outcome',
      labelNames: ['target', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.leasesReclaimed = new Counter({
      name: 'punctual_leases_reclaimed_total',
      help: 'Runs whose lease lapsed (crashed or stalled worker) and were taken back',
      registers,
    });
    this.doubleFires = new Counter({
      name: 'punctual_double_fire_total',
      help:
        'Occurrences this process delivered that another delivery also owns: the store refused its settlement ' +
        'or its lease renewal because the run was reclaimed, claimed or settled elsewhere (not cancelled)',
      labelNames: ['tenant', 'found'],
      registers,
    });
    this.skipped = new Counter({
      name: 'punctual_runs_skipped_total',
      help: 'Skipped run records, by reason (misfire, overlap, paused, outsideCatchupWindow, catchupCap, ...)',
      labelNames: ['reason', 'tenant'],
      registers,
    });
    this.timeoutRatio = new Histogram({
      name: 'punctual_delivery_timeout_ratio',
      help: "Duration of delivery attempts as a fraction of the schedule's timeoutMs (1: timed out)",
      labelNames: ['target'],
      buckets: TIMEOUT_RATIO_BUCKETS,
      registers,
    });
    this.lastSuccess = new Gauge({
      name: 'punctual_schedule_last_success_timestamp_seconds',
      help: 'When a run of the schedule last succeeded here (epoch seconds); only PUNCTUAL_METRICS_SCHEDULE_LABELS schedules',
      labelNames: ['tenant', 'schedule'],
      registers,
    });
    this.notFired = new Counter({
      name: 'punctual_schedule_not_fired_total',
      help: 'Occurrences not started within the not-fired grace after their due time',
      labelNames: ['tenant'],
      registers,
    });
    this.materializerLag = new Histogram({
      name: 'punctual_materializer_lag_seconds',
      help: "How late the materializer picked up a schedule's next occurrence (after its look-ahead instant or its last change)",
      buckets: [0, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 3600],
      registers,
    });
    this.materializerBehind = new Gauge({
      name: 'punctual_materializer_behind',
      help: '1 while the materializer picks up schedules late (bulk puts wait between batches), else 0',
      registers,
    });
    this.engineErrors = new Counter({
      name: 'punctual_engine_errors_total',
      help: 'Errors inside the engine (store unreachable, a listener threw); the engine carries on',
      labelNames: ['where'],
      registers,
    });
    this.databaseOutages = new Histogram({
      name: 'punctual_database_outage_seconds',
      help: 'Database outages the engine lived through (unreachable, interrupted, readOnly) and their length',
      labelNames: ['kind'],
      buckets: [1, 5, 10, 30, 60, 300, 1800, 3600],
      registers,
    });
    this.databaseUnavailable = new Gauge({
      name: 'punctual_database_unavailable',
      help: '1 while the engine cannot use its database (an outage is going on), else 0',
      registers,
    });
    this.httpRequests = new Counter({
      name: 'punctual_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'punctual_http_request_duration_seconds',
      help: 'Time to answer HTTP requests, by method and route template',
      labelNames: ['method', 'route'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.runsDue = new Gauge({
      name: 'punctual_runs_due',
      help: 'Scheduled runs already due and waiting for a worker (queue depth)',
      registers,
    });
    this.runsRunning = new Gauge({
      name: 'punctual_runs_running',
      help: 'Runs being delivered (leased)',
      registers,
    });
    this.oldestDue = new Gauge({
      name: 'punctual_oldest_due_run_age_seconds',
      help: 'How long the oldest due run has waited (0 when none is due)',
      registers,
    });
    this.schedules = new Gauge({
      name: 'punctual_schedules',
      help: 'Schedules by state',
      labelNames: ['state'],
      registers,
    });
    this.alerts = new AlertMetrics(this.registry, opts.scheduler);
    if (opts.scriptStats) registerScriptMetrics(this.registry, opts.scriptStats);
    this.#subscribe();
  }

  /**
   * Text exposition for GET /metrics; reads the store's stats first (one query per scrape). With `tenants:
   * false`, series labelled by tenant are summed over tenants and shown without the label.
   */
  async render(opts: { tenants: boolean } = { tenants: true }): Promise<string> {
    await this.#refreshStoreGauges();
    if (opts.tenants) return this.registry.metrics();
    const parts: string[] = [];
    for (const { name } of this.registry.getMetricsAsArray()) {
      const counter = TENANT_METRICS.has(name) ? this.registry.getSingleMetric(name) : undefined;
      parts.push(
        counter
          ? withoutTenants(await (counter as Counter).get())
          : await this.registry.getSingleMetricAsString(name),
      );
    }
    return `${parts.join('\n')}\n`;
  }

  /** The same metrics as prom-client's JSON (for GET /v1/metrics); reads the store's stats first. */
  async json(): Promise<Awaited<ReturnType<Registry['getMetricsAsJSON']>>> {
    await this.#refreshStoreGauges();
    return this.registry.getMetricsAsJSON();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  observeHttp(method: string, route: string, status: number, seconds: number): void {
    this.httpRequests.inc({ method, route, status: String(status) });
    this.httpDuration.observe({ method, route }, seconds);
  }

  /** Stops listening to the scheduler. */
  close(): void {
    this.alerts.close();
    for (const off of this.#unsubscribe.splice(0)) off();
  }

  async #refreshStoreGauges(): Promise<void> {
    await this.alerts.refresh();
    const store = this.#scheduler.store;
    let stats: StoreStats;
    try {
      stats = await store.stats(this.#clock.now());
    } catch {
      return; // an unreachable store shows in /readyz; the scrape still answers with the other metrics
    }
    this.runsDue.set(stats.dueRuns);
    this.runsRunning.set(stats.runningRuns);
    this.oldestDue.set(
      stats.oldestDueAt === null ? 0 : Math.max(0, this.#clock.now() - stats.oldestDueAt) / 1000,
    );
    for (const [state, n] of Object.entries(stats.schedulesByState)) this.schedules.set({ state }, n);
  }

  #subscribe(): void {
    const s = this.#scheduler;
    const on = this.#unsubscribe;
    on.push(
      s.on('schedule:put', ({ schedule }) =>
        this.#facts.set(`${schedule.tenantId}\0${schedule.key}`, factsOf(schedule)),
      ),
    );
    on.push(
      s.on('schedule:deleted', ({ tenantId, key }) => {
        if (this.#labelled(tenantId, key)) this.lastSuccess.remove({ tenant: tenantId, schedule: key });
      }),
    );
    for (const state of FINAL) {
      on.push(
        s.on(`run:${state}`, ({ run }) => {
          this.#started.delete(run.id);
          this.#withFacts(run, ({ target }) =>
            this.runsFinished.inc({ state, target, tenant: this.#tenants.of(run.tenantId) }),
          );
          if (state === 'skipped') {
            this.skipped.inc({ reason: run.reason ?? 'unknown', tenant: this.#tenants.of(run.tenantId) });
          }
          if (state === 'succeeded') {
            this.#delivered(run, 'succeeded');
            if (this.#labelled(run.tenantId, run.scheduleKey)) {
              const at = run.finishedAt ?? this.#clock.now();
              this.lastSuccess.set({ tenant: run.tenantId, schedule: run.scheduleKey }, at / 1000);
            }
          }
          if (state === 'dead' && run.error?.code !== 'LEASE_EXPIRED') this.#delivered(run, 'failed');
        }),
      );
    }
    on.push(
      s.on('run:retrying', ({ run }) => {
        this.#started.delete(run.id);
        this.#delivered(run, 'retry');
      }),
    );
    on.push(
      s.on('run:checkAgain', ({ run }) => {
        this.#started.delete(run.id);
        this.#delivered(run, 'checkAgain');
      }),
    );
    on.push(s.on('run:released', ({ run }) => this.#started.delete(run.id)));
    on.push(
      s.on('run:started', ({ run }) => {
        if (this.#started.size >= MAX_STARTED) this.#started.clear();
        this.#started.set(run.id, run.tenantId);
        // Against this attempt's due time (a retry's too), at the instant of the claim.
        const late = Math.max(0, s.clock.now() - run.dueAt) / 1000;
        this.#withFacts(run, ({ target }) => this.lateness.observe({ target }, late));
      }),
    );
    on.push(s.on('lease:lost', ({ runId }) => this.#leaseLost(runId)));
    on.push(s.on('lease:reclaimed', () => this.leasesReclaimed.inc()));
    on.push(s.on('schedule:notFired', (e) => this.notFired.inc({ tenant: this.#tenants.of(e.tenantId) })));
    on.push(
      s.on('materializer:advanced', ({ lagMs }) => this.materializerLag.observe(Math.max(0, lagMs) / 1000)),
      s.on('materializer:behind', () => this.materializerBehind.set(1)),
      s.on('materializer:caughtUp', () => this.materializerBehind.set(0)),
    );
    on.push(
      s.on('error', ({ where }) => this.engineErrors.inc({ where: where.replace(/\d+/g, 'N').slice(0, 60) })),
      s.on('database:unavailable', () => this.databaseUnavailable.set(1)),
      s.on('database:available', ({ kind, durationMs }) => {
        this.databaseUnavailable.set(0);
        this.databaseOutages.observe({ kind }, durationMs / 1000);
      }),
    );
  }

  #delivered(run: Run, outcome: string): void {
    if (run.startedAt === null) return;
    const ms = Math.max(0, (run.finishedAt ?? this.#clock.now()) - run.startedAt);
    this.#withFacts(run, ({ target, timeoutMs }) => {
      this.delivery.observe({ target, outcome }, ms / 1000);
      if (timeoutMs !== null && timeoutMs > 0) this.timeoutRatio.observe({ target }, ms / timeoutMs);
    });
  }

  /**
   * A delivery of this process lost its run: the store refused the settlement or the lease renewal. Unless
   * the run was cancelled (cancelPrevious, by hand, the schedule changed), another claim owns the occurrence
   * now (a reclaimed lease, another worker's claim or settlement): a second delivery of one occurrence.
   */
  #leaseLost(runId: string): void {
    const tenantId = this.#started.get(runId);
    if (tenantId === undefined) return; // never delivered here (lost while waiting in the buffer)
    this.#started.delete(runId);
    this.#scheduler
      .tenant(tenantId)
      .getRun(runId)
      .then(
        (found) => {
          const state = found?.run.state ?? 'gone';
          if (state === 'cancelled') return;
          this.doubleFires.inc({ tenant: this.#tenants.of(tenantId), found: state });
        },
        () => this.doubleFires.inc({ tenant: this.#tenants.of(tenantId), found: 'unknown' }),
      );
  }

  /** Calls `fn` with the run's schedule facts: from the cache, else after one lookup of its schedule. */
  #withFacts(run: Run, fn: (facts: ScheduleFacts) => void): void {
    const id = `${run.tenantId}\0${run.scheduleKey}`;
    const known = this.#facts.get(id);
    if (known !== undefined) return fn(known);
    const unknown: ScheduleFacts = { target: 'unknown', timeoutMs: null };
    this.#scheduler
      .tenant(run.tenantId)
      .get(run.scheduleKey)
      .then(
        (schedule) => {
          if (!schedule) return fn(unknown);
          const facts = factsOf(schedule);
          if (this.#facts.size >= 100_000) this.#facts.clear();
          this.#facts.set(id, facts);
          fn(facts);
        },
        () => fn(unknown),
      );
  }
}

function factsOf(schedule: { target: object; policies: { timeoutMs: number } }): ScheduleFacts {
  return { target: Object.keys(schedule.target)[0] ?? 'unknown', timeoutMs: schedule.policies.timeoutMs };
}
