// Prometheus metrics of the service, on a Registry of its own (never prom-client's global one): run outcomes,
// firing lateness, delivery durations, leases reclaimed, occurrences not fired, materializer lag and HTTP
// requests, fed by scheduler events; queue depth and schedules by state read from the store's stats on each
// scrape, and the script sandbox's threads read from its pool. Label values stay bounded: routes are
// templates, and only the first N tenants get a `tenant` label value.

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Clock, Run, Scheduler, ScriptPoolStats, Store } from 'punctual';

type StoreStats = Awaited<ReturnType<NonNullable<Store['stats']>>>;

export interface MetricsOptions {
  scheduler: Scheduler;
  clock: Pick<Clock, 'now'>;
  /** Tenants (first seen first) given their own `tenant` label value; the rest are `other`. */
  tenantLabels: number;
  /** Also collect Node's process metrics (off in tests). Default true. */
  processMetrics?: boolean;
  /** The script sandbox's pool, read on each scrape; without it there are no punctual_script_* metrics. */
  scriptStats?: () => ScriptPoolStats;
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const FINAL = ['succeeded', 'dead', 'skipped', 'expired', 'cancelled'] as const;

/** Maps tenant ids to label values, keeping the label's cardinality at most `limit + 1`. */
class TenantLabels {
  readonly #seen = new Set<string>();
  constructor(private readonly limit: number) {}
  of(tenantId: string): string {
    if (this.#seen.has(tenantId)) return tenantId;
    if (this.#seen.size < this.limit) {
      this.#seen.add(tenantId);
      return tenantId;
    }
    return 'other';
  }
}

export class Metrics {
  readonly registry = new Registry();
  readonly #tenants: TenantLabels;
  readonly #scheduler: Scheduler;
  readonly #clock: Pick<Clock, 'now'>;
  /** Target kind by `tenantId \0 scheduleKey`, so run events can be labelled without a lookup each time. */
  readonly #targets = new Map<string, string>();
  readonly #unsubscribe: (() => void)[] = [];

  readonly runsFinished: Counter<'state' | 'target' | 'tenant'>;
  readonly lateness: Histogram<'target'>;
  readonly delivery: Histogram<'target' | 'outcome'>;
  readonly leasesReclaimed: Counter;
  readonly notFired: Counter<'tenant'>;
  readonly materializerLag: Histogram;
  readonly engineErrors: Counter<'where'>;
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route'>;
  readonly runsDue: Gauge;
  readonly runsRunning: Gauge;
  readonly oldestDue: Gauge;
  readonly schedules: Gauge<'state'>;

  constructor(opts: MetricsOptions) {
    const registers = [this.registry];
    this.#scheduler = opts.scheduler;
    this.#clock = opts.clock;
    this.#tenants = new TenantLabels(opts.tenantLabels);
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
    this.notFired = new Counter({
      name: 'punctual_schedule_not_fired_total',
      help: 'Occurrences not started within the not-fired grace after their due time',
      labelNames: ['tenant'],
      registers,
    });
    this.materializerLag = new Histogram({
      name: 'punctual_materializer_lag_seconds',
      help: "How late the materializer picked up a schedule's next occurrence (now minus nextFireAt)",
      buckets: [0, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 3600],
      registers,
    });
    this.engineErrors = new Counter({
      name: 'punctual_engine_errors_total',
      help: 'Errors inside the engine (store unreachable, a listener threw); the engine carries on',
      labelNames: ['where'],
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
    if (opts.scriptStats) this.#scriptGauges(opts.scriptStats);
    this.#subscribe();
  }

  /** Threads, busy threads and queued runs of the script pool, and threads replaced so far. */
  #scriptGauges(stats: () => ScriptPoolStats): void {
    const registers = [this.registry];
    const gauge = (name: string, help: string, pick: (s: ScriptPoolStats) => number): void => {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(pick(stats()));
        },
      });
    };
    gauge('punctual_script_threads', 'Sandbox threads in the script pool', (s) => s.threads);
    gauge('punctual_script_threads_busy', 'Sandbox threads running a script now', (s) => s.busy);
    gauge('punctual_script_runs_queued', 'Script runs waiting for a sandbox thread', (s) => s.queued);
    let counted = 0;
    new Counter({
      name: 'punctual_script_threads_replaced_total',
      help: 'Sandbox threads terminated and replaced (a run past its hard margin, or a thread that died)',
      registers,
      collect() {
        const replaced = stats().replaced;
        if (replaced > counted) this.inc(replaced - counted);
        counted = replaced;
      },
    });
  }

  /** Text exposition for GET /metrics; reads the store's stats first (one query per scrape). */
  async render(): Promise<string> {
    await this.#refreshStoreGauges();
    return this.registry.metrics();
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
    for (const off of this.#unsubscribe.splice(0)) off();
  }

  async #refreshStoreGauges(): Promise<void> {
    const store = this.#scheduler.store;
    if (!store.stats) return;
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
        this.#targets.set(
          `${schedule.tenantId}\0${schedule.key}`,
          Object.keys(schedule.target)[0] ?? 'unknown',
        ),
      ),
    );
    for (const state of FINAL) {
      on.push(
        s.on(`run:${state}`, ({ run }) => {
          this.#withTarget(run, (target) =>
            this.runsFinished.inc({ state, target, tenant: this.#tenants.of(run.tenantId) }),
          );
          if (state === 'succeeded') this.#delivered(run, 'succeeded');
          if (state === 'dead' && run.error?.code !== 'LEASE_EXPIRED') this.#delivered(run, 'failed');
        }),
      );
    }
    on.push(s.on('run:retrying', ({ run }) => this.#delivered(run, 'retry')));
    on.push(s.on('run:checkAgain', ({ run }) => this.#delivered(run, 'checkAgain')));
    on.push(
      s.on('run:started', ({ run }) => {
        // Against this attempt's due time (a retry's too), at the instant of the claim.
        const late = Math.max(0, s.clock.now() - run.dueAt) / 1000;
        this.#withTarget(run, (target) => this.lateness.observe({ target }, late));
      }),
    );
    on.push(s.on('lease:reclaimed', () => this.leasesReclaimed.inc()));
    on.push(
      s.on('schedule:notFired', ({ run }) => this.notFired.inc({ tenant: this.#tenants.of(run.tenantId) })),
    );
    on.push(
      s.on('materializer:advanced', ({ lagMs }) => this.materializerLag.observe(Math.max(0, lagMs) / 1000)),
    );
    on.push(
      s.on('error', ({ where }) => this.engineErrors.inc({ where: where.replace(/\d+/g, 'N').slice(0, 60) })),
    );
  }

  #delivered(run: Run, outcome: string): void {
    if (run.startedAt === null) return;
    const seconds = Math.max(0, (run.finishedAt ?? this.#clock.now()) - run.startedAt) / 1000;
    this.#withTarget(run, (target) => this.delivery.observe({ target, outcome }, seconds));
  }

  /** Calls `fn` with the run's target kind: from the cache, else after one lookup of its schedule. */
  #withTarget(run: Run, fn: (target: string) => void): void {
    const id = `${run.tenantId}\0${run.scheduleKey}`;
    const known = this.#targets.get(id);
    if (known !== undefined) return fn(known);
    this.#scheduler
      .tenant(run.tenantId)
      .get(run.scheduleKey)
      .then(
        (schedule) => {
          const kind = schedule ? (Object.keys(schedule.target)[0] ?? 'unknown') : 'unknown';
          if (schedule) {
            if (this.#targets.size >= 100_000) this.#targets.clear();
            this.#targets.set(id, kind);
          }
          fn(kind);
        },
        () => fn('unknown'),
      );
  }
}
