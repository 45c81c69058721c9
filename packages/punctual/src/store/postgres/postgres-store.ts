// The PostgreSQL store: the Store and TenantStore contracts over pooled `pg` connections, for one or many
// Punctual processes sharing a database (capabilities.multiInstance). This file owns the store's lifecycle:
// the lazy driver load, the two pools, the LISTEN connection for wake-ups, close; each operation lives in a
// sibling postgres-*.ts file. It never reads a clock for data decisions (`now` is always a parameter), never
// interpolates a value into SQL, and never lets a connection error crash the process.

import { PunctualError } from '../../errors.js';
import { KeepScan } from '../keep-scan.js';
import type { Json } from '../../domain/json.js';
import type { Attempt, Run } from '../../domain/run.js';
import type { Schedule } from '../../domain/schedule.js';
import type {
  Advance,
  AdvanceResult,
  ClaimRequest,
  ClaimResult,
  Page,
  PruneRequest,
  PutScheduleRequest,
  PutScheduleResult,
  RunInsert,
  RevisionQuery,
  RunQuery,
  ScheduleQuery,
  SchemaVersion,
  Settlement,
  Store,
  StoreCapabilities,
  StoreSignal,
  StoreStats,
  Transition,
  RerunRequest,
  RerunResult,
  OverrideRemoval,
  OverrideWrite,
} from '../store.js';
import type { OccurrenceOverride } from '../../domain/occurrence-override.js';
import type { KvEntry, KvLimits, KvListQuery, KvStore } from '../kv-store.js';
import type {
  CalendarRevisionQuery,
  CalendarStore,
  DeleteCalendarOptions,
  PutCalendarRequest,
  PutCalendarResult,
  RewindCalendarUsers,
} from '../calendar-store.js';
import type { Calendar } from '../../domain/calendar/calendar.js';
import type { CalendarRevision } from '../../domain/calendar/calendar-revision.js';
import * as calendarRevisions from './postgres-calendar-revisions.js';
import {
  abortSignals,
  claimSignals,
  decodeSignal,
  encodeSignal,
  putSignals,
  resumeSignals,
} from '../store-signals.js';
import type { ApiKey, Tenant, TenantQuotas, TenantStore } from '../tenant-store.js';
import { appliedVersion, LATEST_VERSION, migrate, requiredVersion, type Migration } from './migrations.js';
import { claimRuns, settleAndClaim } from './postgres-claim.js';
import { measureClockOffset, type ClockOffset } from './postgres-clock-offset.js';
import {
  HOT_SESSION,
  MAIN_SESSION,
  notMigratedOr,
  PgDb,
  validateSchema,
  wakeChannel,
} from './postgres-database.js';
import { createClient, createPool } from './postgres-driver.js';
import { cancelRun, extendLeases, reclaimExpiredLeases, settleRuns } from './postgres-leases.js';
import { rerunRuns } from './postgres-rerun.js';
import {
  getRun,
  listRuns,
  nextRunDueAt,
  pendingDueAt,
  pruneHistory,
  stats,
  takeNotFired,
} from './postgres-queries.js';
import { insertRunRows } from './postgres-runs.js';
import * as materializer from './postgres-materializer.js';
import * as schedules from './postgres-schedules.js';
import * as overrides from './postgres-overrides.js';
import * as revisions from './postgres-revisions.js';
import type { RevisionNote, ScheduleRevision } from '../../domain/schedule-revision.js';
import * as kv from './postgres-kv.js';
import * as calendars from './postgres-calendars.js';
import * as alerts from './postgres-alerts.js';
import * as checks from './postgres-checks.js';
import * as expectations from './postgres-expectations.js';
import type {
  Alert,
  AlertChannel,
  AlertClearance,
  AlertCondition,
  AlertDelivery,
  Check,
  ClaimedAlertDelivery,
} from '../../domain/alert.js';
import type { AlertChannelInput, CheckInput } from '../../domain/alert-input.js';
import type { AlertDeliveryResult, AlertListQuery, AlertStore } from '../alert-store.js';
import * as tenants from './postgres-tenants.js';
import { Wakeups } from './postgres-wakeups.js';

export interface PostgresStoreOptions {
  connectionString: string;
  /** Schema holding Punctual's tables (created by migrate). Default `punctual`. */
  schema?: string;
  /** Connections in the main pool: every statement but the hot ones (hotPoolSize). Default 10. */
  poolSize?: number;
  /**
   * Connections that run only the hot statements: the claim page, the settlement, the materializer's advance
   * (a worker uses at most three at once: its claim loop and two settlement transactions; a materializer
   * one). Default 4.
   */
  hotPoolSize?: number;
  /** Open a LISTEN connection for wake-ups when the first listener registers. Default true. */
  listen?: boolean;
  /** Connection errors no operation can report (an idle pool client, the LISTEN connection). */
  onError?: (err: unknown) => void;
  /** @internal The migrations this code knows (default: all of this release's); tests play a newer release. */
  migrations?: readonly Migration[];
}

const DEFAULT_POOL_SIZE = 10;
const DEFAULT_HOT_POOL_SIZE = 4;

export class PostgresStore implements Store, TenantStore, KvStore, CalendarStore, AlertStore {
  readonly capabilities: StoreCapabilities = Object.freeze({ multiInstance: true, wakeups: true });
  readonly schema: string;
  readonly #opts: PostgresStoreOptions;
  #db: Promise<PgDb> | undefined;
  #wakeups: Wakeups | undefined;
  #closed = false;
  /** Where the keep-per-schedule prune reads next (store/keep-scan.ts). */
  readonly #keepScan = new KeepScan();
  /** The schema was seen migrated (by this store's migrate() or a check): data operations may run. */
  #migrated = false;

  constructor(opts: PostgresStoreOptions) {
    this.#opts = { ...opts };
    this.schema = validateSchema(opts.schema ?? 'punctual');
  }

  /**
   * The connection context of a data operation: the schema must have been migrated (checked once, then
   * remembered), else STORE_NOT_MIGRATED says to call start() or migrate() instead of "relation does not
   * exist".
   */
  #conn(): Promise<PgDb> {
    if (this.#migrated) return this.#open();
    return this.#open().then(async (db) => {
      if ((await appliedVersion(db)) === 0) throw notMigratedOr({ code: '42P01' }, this.schema);
      this.#migrated = true;
      return db;
    });
  }

  /** The connection context, created (and `pg` loaded) on first use. */
  #open(): Promise<PgDb> {
    if (this.#closed)
      return Promise.reject(new PunctualError('STORE_CLOSED', 'the PostgreSQL store was closed'));
    const url = this.#opts.connectionString;
    this.#db ??= Promise.all([
      createPool(url, this.#opts.poolSize ?? DEFAULT_POOL_SIZE, MAIN_SESSION),
      createPool(url, this.#opts.hotPoolSize ?? DEFAULT_HOT_POOL_SIZE, HOT_SESSION),
    ]).then(
      ([pool, hot]) => {
        // An idle client losing its connection emits on the pool; without a listener that would crash.
        pool.on('error', (err) => this.#report(err));
        hot.on('error', (err) => this.#report(err));
        return new PgDb(pool, hot, this.schema);
      },
      (err: unknown) => {
        this.#db = undefined;
        throw err;
      },
    );
    return this.#db;
  }

  #report(err: unknown): void {
    try {
      this.#opts.onError?.(err);
    } catch {
      // an error reporter that throws must not take the process down
    }
  }

  async migrate(): Promise<void> {
    const db = await this.#open();
    await migrate(db, this.#opts.migrations);
    this.#migrated = true;
  }

  async schemaVersion(): Promise<SchemaVersion> {
    const db = await this.#open();
    return {
      applied: await appliedVersion(db),
      expected: this.#opts.migrations?.at(-1)?.version ?? LATEST_VERSION,
      required: await requiredVersion(db),
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#wakeups?.close();
    const db = await this.#db?.catch(() => undefined);
    if (db) {
      db.markClosed();
      await Promise.all([db.pool.end(), db.hot.end()]);
    }
  }

  // ── schedules ────────────────────────────────────────────────────────────────────────────────────
  async putSchedule(req: PutScheduleRequest): Promise<PutScheduleResult> {
    const res = await schedules.putSchedule(await this.#conn(), req);
    await this.#signal(putSignals([res]));
    return res;
  }

  async putSchedules(reqs: PutScheduleRequest[]): Promise<PutScheduleResult[]> {
    const res = await schedules.putSchedules(await this.#conn(), reqs);
    await this.#signal(putSignals(res));
    return res;
  }

  async getSchedule(tenantId: string, key: string): Promise<Schedule | undefined> {
    return schedules.getSchedule(await this.#conn(), tenantId, key);
  }

  async getSchedules(tenantId: string, keys: string[]): Promise<Schedule[]> {
    return schedules.getSchedules(await this.#conn(), tenantId, keys);
  }

  async listSchedules(q: ScheduleQuery): Promise<Page<Schedule>> {
    return schedules.listSchedules(await this.#conn(), q);
  }

  async deleteSchedule(
    tenantId: string,
    key: string,
    now: number,
    note?: RevisionNote,
  ): Promise<{ deleted: boolean; transitions: Transition[] }> {
    return schedules.deleteSchedule(await this.#conn(), tenantId, key, now, note);
  }

  async pauseSchedule(
    tenantId: string,
    key: string,
    opts: Parameters<Store['pauseSchedule']>[2],
  ): Promise<{ schedule: Schedule; transitions: Transition[] } | undefined> {
    const res = await schedules.pauseSchedule(await this.#conn(), tenantId, key, opts);
    if (res)
      await this.#signal([
        { kind: 'paused', scheduleId: res.schedule.id, cancelPending: opts.cancelPending },
      ]);
    return res;
  }

  async resumeSchedule(
    tenantId: string,
    key: string,
    opts: Parameters<Store['resumeSchedule']>[2],
  ): Promise<{ schedule: Schedule; transitions: Transition[] } | undefined> {
    const res = await schedules.resumeSchedule(await this.#conn(), tenantId, key, opts);
    await this.#signal(resumeSignals(res));
    return res;
  }

  async dueTimedPauses(now: number, limit: number): Promise<Schedule[]> {
    return schedules.dueTimedPauses(await this.#conn(), now, limit);
  }

  async nextTimedResumeAt(): Promise<number | null> {
    return schedules.nextTimedResumeAt(await this.#conn());
  }

  async putOccurrenceOverride(w: OverrideWrite): Promise<{ transition: Transition | null }> {
    return overrides.putOccurrenceOverride(await this.#conn(), w);
  }

  async deleteOccurrenceOverride(
    r: OverrideRemoval,
  ): Promise<{ removed: boolean; transition: Transition | null }> {
    return overrides.deleteOccurrenceOverride(await this.#conn(), r);
  }

  async listOccurrenceOverrides(
    tenantId: string,
    scheduleId: string,
    opts: { from: number; limit: number },
  ): Promise<OccurrenceOverride[]> {
    return overrides.listOccurrenceOverrides(await this.#conn(), tenantId, scheduleId, opts);
  }

  async overridesDue(
    scheduleIds: readonly string[],
    from: number,
    until: number,
  ): Promise<OccurrenceOverride[]> {
    return overrides.overridesDue(await this.#conn(), scheduleIds, from, until);
  }

  async pruneOverrides(req: { before: number; limit: number }): Promise<number> {
    return overrides.pruneOverrides(await this.#conn(), req);
  }

  // ── materializer ─────────────────────────────────────────────────────────────────────────────────
  async listScheduleRevisions(q: RevisionQuery): Promise<Page<ScheduleRevision>> {
    return revisions.listScheduleRevisions(await this.#conn(), q);
  }

  async getScheduleRevision(
    tenantId: string,
    key: string,
    version: number,
  ): Promise<ScheduleRevision | undefined> {
    return revisions.getScheduleRevision(await this.#conn(), tenantId, key, version);
  }

  async claimDueSchedules(req: {
    now: number;
    horizon: number;
    limit: number;
    leaseMs: number;
    rollBackLeadMs?: number | undefined;
  }): Promise<Schedule[]> {
    if (req.limit <= 0) return [];
    return materializer.claimDueSchedules(await this.#conn(), req);
  }

  async advanceSchedule(a: Advance): Promise<AdvanceResult> {
    return materializer.advanceSchedule(await this.#conn(), a);
  }

  async advanceSchedules(advances: Advance[]): Promise<AdvanceResult[]> {
    return materializer.advanceSchedules(await this.#conn(), advances);
  }

  async nextScheduleAt(): Promise<number | null> {
    return materializer.nextScheduleAt(await this.#conn());
  }

  async nextRollingBackAt(): Promise<number | null> {
    return materializer.nextRollingBackAt(await this.#conn());
  }

  // ── runs ─────────────────────────────────────────────────────────────────────────────────────────
  async insertRuns(runs: RunInsert[], now: number): Promise<Transition[]> {
    if (runs.length === 0) return [];
    const db = await this.#conn();
    return db.tx((c) => insertRunRows(db, c, runs, now));
  }

  async claimRuns(req: ClaimRequest): Promise<ClaimResult> {
    const res = await claimRuns(await this.#conn(), req);
    await this.#signal(claimSignals(res));
    return res;
  }

  async extendLeases(
    leases: { runId: string; token: string }[],
    until: number,
    _now: number,
  ): Promise<string[]> {
    return extendLeases(await this.#conn(), leases, until);
  }

  async settleRuns(settlements: Settlement[], now: number): Promise<(Transition | null)[]> {
    return settleRuns(await this.#conn(), settlements, now);
  }

  /** Settles, then claims, in one statement (one commit per worker cycle) when no run needs a decision. */
  async settleAndClaim(
    settlements: Settlement[],
    claim: ClaimRequest,
  ): Promise<{ settled: (Transition | null)[]; claim: ClaimResult }> {
    const res = await settleAndClaim(await this.#conn(), settlements, claim);
    await this.#signal(claimSignals(res.claim));
    return res;
  }

  async reclaimExpiredLeases(now: number, limit: number): Promise<Transition[]> {
    return reclaimExpiredLeases(await this.#conn(), now, limit);
  }

  async rerunRuns(req: RerunRequest): Promise<RerunResult> {
    return rerunRuns(await this.#conn(), req);
  }

  async cancelRun(tenantId: string, runId: string, now: number): Promise<Transition | undefined> {
    const t = await cancelRun(await this.#conn(), tenantId, runId, now);
    await this.#signal(abortSignals(t ? [t] : []));
    return t;
  }

  async getRun(tenantId: string, runId: string): Promise<{ run: Run; attempts: Attempt[] } | undefined> {
    return getRun(await this.#conn(), tenantId, runId);
  }

  async listRuns(q: RunQuery): Promise<Page<Run>> {
    return listRuns(await this.#conn(), q);
  }

  async nextRunDueAt(): Promise<number | null> {
    return nextRunDueAt(await this.#conn());
  }

  async pendingDueAt(tenantId: string, scheduleIds: readonly string[]): Promise<Map<string, number>> {
    return pendingDueAt(await this.#conn(), tenantId, scheduleIds);
  }

  async takeNotFired(now: number, graceMs: number, limit: number): Promise<Run[]> {
    return takeNotFired(await this.#conn(), now, graceMs, limit);
  }

  async takeOverdueSchedules(now: number, graceMs: number, limit: number): Promise<Schedule[]> {
    return materializer.takeOverdueSchedules(await this.#conn(), now, graceMs, limit);
  }

  async pruneHistory(req: PruneRequest): Promise<number> {
    return pruneHistory(await this.#conn(), req, this.#keepScan);
  }

  /** Signals every instance on this schema (NOTIFY, after the operation committed); a latency hint only. */
  async #signal(signals: StoreSignal[]): Promise<void> {
    if (signals.length === 0) return;
    const db = await this.#conn();
    for (const payload of signals.flatMap(encodeSignal)) await db.notify(db.pool, payload);
  }

  /** Registers a signal listener (the wake-up channel carries them); a latency hint only. */
  onSignal(listener: (signal: StoreSignal) => void): () => void {
    return this.#listen((payload) => {
      const signal = decodeSignal(payload);
      if (signal !== undefined) listener(signal);
    });
  }

  // ── beyond the contract ──────────────────────────────────────────────────────────────────────────
  /** Registers a wake-up listener (LISTEN/NOTIFY on `<schema>_wake`); a latency hint only. */
  onWake(listener: (dueAt: number) => void): () => void {
    return this.#listen((payload) => {
      const dueAt = payload.startsWith('{') ? NaN : Number(payload);
      if (payload !== '' && Number.isFinite(dueAt)) listener(dueAt);
    });
  }

  #listen(listener: (payload: string) => void): () => void {
    if (this.#closed || this.#opts.listen === false) return () => undefined;
    this.#wakeups ??= new Wakeups({
      channel: wakeChannel(this.schema),
      connect: () => createClient(this.#opts.connectionString),
      onError: (err) => this.#report(err),
      resync: () => this.nextRunDueAt(),
    });
    return this.#wakeups.add(listener);
  }

  /** Resolves once the LISTEN connection is up (after the first onWake); for tests and health checks. */
  async wakeupsReady(): Promise<void> {
    await this.#wakeups?.ready();
  }

  /** The database server's clock minus `localNow()`, in ms, from the lowest-latency of a few samples. */
  async measureClockOffset(localNow: () => number = Date.now): Promise<number> {
    return (await this.clockOffset(localNow)).offsetMs;
  }

  /** The offset with the round trip of the sample it was taken from. */
  async clockOffset(localNow: () => number = Date.now, samples = 5): Promise<ClockOffset> {
    return measureClockOffset((await this.#open()).pool, localNow, samples);
  }

  async stats(now: number): Promise<StoreStats> {
    return stats(await this.#conn(), now);
  }

  // ── tenancy ──────────────────────────────────────────────────────────────────────────────────────
  async createTenant(t: {
    id: string;
    quotas: TenantQuotas;
    webhookSecret: string;
    now: number;
  }): Promise<Tenant> {
    return tenants.createTenant(await this.#conn(), t);
  }

  async getTenant(id: string): Promise<Tenant | undefined> {
    return tenants.getTenant(await this.#conn(), id);
  }

  async listTenants(): Promise<Tenant[]> {
    return tenants.listTenants(await this.#conn());
  }

  async updateTenant(
    id: string,
    patch: Parameters<TenantStore['updateTenant']>[1],
    now: number,
  ): Promise<Tenant | undefined> {
    return tenants.updateTenant(await this.#conn(), id, patch, now);
  }

  async createApiKey(k: {
    tenantId: string;
    prefix: string;
    hash: string;
    name: string | null;
    now: number;
  }): Promise<ApiKey> {
    return tenants.createApiKey(await this.#conn(), k);
  }

  async findApiKey(hash: string): Promise<{ key: ApiKey; tenant: Tenant } | undefined> {
    return tenants.findApiKey(await this.#conn(), hash);
  }

  async listApiKeys(tenantId: string): Promise<ApiKey[]> {
    return tenants.listApiKeys(await this.#conn(), tenantId);
  }

  async revokeApiKey(tenantId: string, keyId: string, now: number): Promise<boolean> {
    return tenants.revokeApiKey(await this.#conn(), tenantId, keyId, now);
  }

  async touchApiKey(keyId: string, now: number): Promise<void> {
    return tenants.touchApiKey(await this.#conn(), keyId, now);
  }

  async countSchedules(tenantId: string): Promise<number> {
    return tenants.countSchedules(await this.#conn(), tenantId);
  }

  async countRunsStartedSince(tenantId: string, since: number): Promise<number> {
    return tenants.countRunsStartedSince(await this.#conn(), tenantId, since);
  }

  async getCalendar(tenantId: string, name: string): Promise<Calendar | undefined> {
    return calendars.getCalendar(await this.#conn(), tenantId, name);
  }

  async listCalendars(tenantId: string): Promise<Calendar[]> {
    return calendars.listCalendars(await this.#conn(), tenantId);
  }

  async putCalendar(req: PutCalendarRequest): Promise<PutCalendarResult> {
    return calendars.putCalendar(await this.#conn(), req);
  }

  async deleteCalendar(tenantId: string, name: string, opts: DeleteCalendarOptions): Promise<void> {
    return calendars.deleteCalendar(await this.#conn(), tenantId, name, opts);
  }

  async calendarUsers(tenantId: string, name: string, limit: number): Promise<string[]> {
    return calendars.calendarUsers(await this.#conn(), tenantId, name, limit);
  }

  async listCalendarRevisions(q: CalendarRevisionQuery): Promise<Page<CalendarRevision>> {
    return calendarRevisions.listCalendarRevisions(await this.#conn(), q);
  }

  async getCalendarRevision(
    tenantId: string,
    name: string,
    version: number,
  ): Promise<CalendarRevision | undefined> {
    return calendarRevisions.getCalendarRevision(await this.#conn(), tenantId, name, version);
  }

  async rewindCalendarUsers(
    req: RewindCalendarUsers,
  ): Promise<{ schedules: number; transitions: Transition[]; last: string | null }> {
    return calendars.rewindCalendarUsers(await this.#conn(), req);
  }

  async kvGet(tenantId: string, key: string): Promise<{ value: Json; updatedAt: number } | undefined> {
    return kv.kvGet(await this.#conn(), tenantId, key);
  }

  async kvSet(tenantId: string, key: string, value: Json, now: number, limits: KvLimits): Promise<void> {
    return kv.kvSet(await this.#conn(), tenantId, key, value, now, limits);
  }

  async kvDelete(tenantId: string, key: string): Promise<boolean> {
    return kv.kvDelete(await this.#conn(), tenantId, key);
  }

  async kvList(tenantId: string, q: KvListQuery): Promise<Page<KvEntry>> {
    return kv.kvList(await this.#conn(), tenantId, q);
  }

  // ── alerts, alert channels, checks and the delivery outbox (alert-store.ts) ───────────────────────
  async putAlertChannel(
    tenantId: string,
    input: AlertChannelInput,
    now: number,
  ): Promise<{ channel: AlertChannel; created: boolean }> {
    return alerts.putAlertChannel(await this.#conn(), tenantId, input, now);
  }

  async getAlertChannel(tenantId: string, name: string): Promise<AlertChannel | undefined> {
    return alerts.getAlertChannel(await this.#conn(), tenantId, name);
  }

  async listAlertChannels(tenantId: string): Promise<AlertChannel[]> {
    return alerts.listAlertChannels(await this.#conn(), tenantId);
  }

  async deleteAlertChannel(tenantId: string, name: string): Promise<boolean> {
    return alerts.deleteAlertChannel(await this.#conn(), tenantId, name);
  }

  async putCheck(
    tenantId: string,
    input: CheckInput,
    now: number,
  ): Promise<{ check: Check; created: boolean }> {
    return checks.putCheck(await this.#conn(), tenantId, input, now);
  }

  async getCheck(tenantId: string, name: string): Promise<Check | undefined> {
    return alerts.getCheck(await this.#conn(), tenantId, name);
  }

  async listChecks(tenantId: string): Promise<Check[]> {
    return alerts.listChecks(await this.#conn(), tenantId);
  }

  async deleteCheck(tenantId: string, name: string, now: number): Promise<boolean> {
    return alerts.deleteCheck(await this.#conn(), tenantId, name, now);
  }

  async recordHeartbeat(tenantId: string, name: string, now: number): Promise<Check | undefined> {
    return alerts.recordHeartbeat(await this.#conn(), tenantId, name, now);
  }

  async evaluateDueChecks(now: number, limit: number): Promise<Alert[]> {
    return alerts.evaluateDueChecks(await this.#conn(), now, limit);
  }

  async nextCheckAt(): Promise<number | null> {
    return alerts.nextCheckAt(await this.#conn());
  }

  async evaluateDueExpectations(now: number, limit: number): Promise<{ judged: number; alerts: Alert[] }> {
    return expectations.evaluateDueExpectations(await this.#conn(), now, limit);
  }

  async nextExpectationAt(): Promise<number | null> {
    return expectations.nextExpectationAt(await this.#conn());
  }

  async recentOutcomes(scheduleId: string, limit: number): Promise<string[]> {
    return expectations.recentOutcomes(await this.#conn(), scheduleId, limit);
  }

  async openAlerts(conditions: readonly AlertCondition[], now: number): Promise<Alert[]> {
    return alerts.openAlerts(await this.#conn(), conditions, now);
  }

  async resolveAlerts(clearances: readonly AlertClearance[], now: number): Promise<Alert[]> {
    return alerts.resolveAlerts(await this.#conn(), clearances, now);
  }

  async listAlerts(q: AlertListQuery): Promise<Alert[]> {
    return alerts.listAlerts(await this.#conn(), q);
  }

  async getAlert(
    tenantId: string,
    id: string,
  ): Promise<{ alert: Alert; deliveries: AlertDelivery[] } | undefined> {
    return alerts.getAlert(await this.#conn(), tenantId, id);
  }

  async countOpenAlerts(): Promise<{ tenantId: string; kind: string; count: number }[]> {
    return alerts.countOpenAlerts(await this.#conn());
  }

  async claimAlertDeliveries(now: number, leaseMs: number, limit: number): Promise<ClaimedAlertDelivery[]> {
    return alerts.claimAlertDeliveries(await this.#conn(), now, leaseMs, limit);
  }

  async settleAlertDelivery(
    claimed: ClaimedAlertDelivery,
    result: AlertDeliveryResult,
    now: number,
  ): Promise<{ settled: boolean; state: AlertDelivery['state'] }> {
    return alerts.settleAlertDelivery(await this.#conn(), claimed, result, now);
  }

  async nextAlertDeliveryAt(): Promise<number | null> {
    return alerts.nextAlertDeliveryAt(await this.#conn());
  }
}

/** Creates a PostgreSQL store; `pg` is loaded and the pool opened on first use. Call `migrate()` first. */
export function postgresStore(opts: PostgresStoreOptions): PostgresStore {
  return new PostgresStore(opts);
}
