// The embedded store: Store, TenantStore and KvStore on one SQLite file (or ':memory:') through the driver it
// is given (better-sqlite3 by default, or node:sqlite; see sqlite-driver.ts). One connection owns every write;
// each mutating method is one BEGIN IMMEDIATE transaction, so the store is safe for one process
// (capabilities.multiInstance is false). Methods are async to honour the contract but work synchronously
// inside. It must never read a clock: every instant is a parameter.

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
import type { Json } from '../../domain/json.js';
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
import * as calendarRevisions from './sqlite-calendar-revisions.js';
import { abortSignals, claimSignals, putSignals, resumeSignals } from '../store-signals.js';
import type { ApiKey, Tenant, TenantQuotas, TenantStore } from '../tenant-store.js';
import { storageFault } from '../storage-faults.js';
import { LATEST_VERSION, migrate, schemaVersion } from './migrations.js';
import { claimRuns } from './sqlite-claim.js';
import * as materializer from './sqlite-materializer.js';
import { SqliteDatabase, type SqliteOptions } from './sqlite-database.js';
import { KeepScan } from '../keep-scan.js';
import type { SqliteDriver } from './sqlite-driver.js';
import { cancelRun, extendLeases, reclaimExpiredLeases, settleRuns } from './sqlite-leases.js';
import { rerunRuns } from './sqlite-rerun.js';
import {
  getRun,
  listRuns,
  nextRunDueAt,
  pendingDueAt,
  pruneHistory,
  stats,
  takeNotFired,
} from './sqlite-queries.js';
import { insertRuns } from './sqlite-runs.js';
import * as schedules from './sqlite-schedules.js';
import * as overrides from './sqlite-overrides.js';
import * as revisions from './sqlite-revisions.js';
import type { RevisionNote, ScheduleRevision } from '../../domain/schedule-revision.js';
import * as kv from './sqlite-kv.js';
import * as calendars from './sqlite-calendars.js';
import * as alerts from './sqlite-alerts.js';
import * as checks from './sqlite-checks.js';
import * as expectations from './sqlite-expectations.js';
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
import * as tenants from './sqlite-tenants.js';

export type { SqliteOptions } from './sqlite-database.js';

export class SqliteStore implements Store, TenantStore, KvStore, CalendarStore, AlertStore {
  readonly capabilities: StoreCapabilities = Object.freeze({ multiInstance: false, wakeups: false });
  private readonly sql: SqliteDatabase;
  // Not an ES private field: tests wrap stores in a Proxy, whose calls would not reach one.
  private readonly listeners = new Set<(signal: StoreSignal) => void>();
  /** Where the keep-per-schedule prune reads next (store/keep-scan.ts). */
  private readonly keepScan = new KeepScan();

  constructor(opts: SqliteOptions) {
    this.sql = new SqliteDatabase(opts);
  }

  /** Connection facts for diagnostics (doctor, tests). */
  diagnostics(): {
    driver: SqliteDriver;
    journalMode: string;
    synchronous: 'OFF' | 'NORMAL' | 'FULL' | 'EXTRA';
    schemaVersion: number;
  } {
    const sync = ['OFF', 'NORMAL', 'FULL', 'EXTRA'] as const;
    return {
      driver: this.sql.driver,
      journalMode: String(this.sql.pragma('journal_mode')),
      synchronous: sync[Number(this.sql.pragma('synchronous'))] ?? 'FULL',
      schemaVersion: this.sql.read(() => schemaVersion(this.sql)),
    };
  }

  /**
   * SQLite's own check of the file: [] when it is sound, else up to `max` problems as SQLite words them.
   * `quick`: PRAGMA quick_check (linear time; does not check that indexes agree with their tables) instead
   * of integrity_check. Reads only.
   */
  integrityCheck(opts: { quick?: boolean; max?: number } = {}): string[] {
    const max = Math.max(1, Math.trunc(opts.max ?? 10));
    const pragma = `${opts.quick === true ? 'quick_check' : 'integrity_check'}(${max})`;
    try {
      const rows = this.sql.read(() => this.sql.stmt(`PRAGMA ${pragma}`).all()) as Record<string, unknown>[];
      const lines = rows.map((r) => String(Object.values(r)[0]));
      return lines.length === 1 && lines[0] === 'ok' ? [] : lines;
    } catch (e) {
      if (storageFault(e) === 'corrupt') return [e instanceof Error ? e.message : String(e)];
      throw e;
    }
  }

  async migrate(): Promise<void> {
    this.sql.read(() => migrate(this.sql));
  }

  async schemaVersion(): Promise<SchemaVersion> {
    return { applied: this.sql.read(() => schemaVersion(this.sql)), expected: LATEST_VERSION };
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.sql.close();
  }

  /** Signals reach the engines of this process only: they share this store object. */
  onSignal(listener: (signal: StoreSignal) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Calls the listeners on the next turn, once the operation's caller has its result (as a NOTIFY arrives
   * after the commit); a listener that throws is ignored.
   */
  private signal(signals: StoreSignal[]): void {
    if (signals.length === 0 || this.listeners.size === 0) return;
    const listeners = [...this.listeners];
    setImmediate(() => {
      for (const signal of signals)
        for (const l of listeners) {
          try {
            l(signal);
          } catch {
            // a hint: a failing listener must not fail anything
          }
        }
    });
  }

  async putSchedule(req: PutScheduleRequest): Promise<PutScheduleResult> {
    const res = schedules.putSchedule(this.sql, req);
    this.signal(putSignals([res]));
    return res;
  }

  async putSchedules(reqs: PutScheduleRequest[]): Promise<PutScheduleResult[]> {
    const res = schedules.putSchedules(this.sql, reqs);
    this.signal(putSignals(res));
    return res;
  }

  async getSchedule(tenantId: string, key: string): Promise<Schedule | undefined> {
    return schedules.getSchedule(this.sql, tenantId, key);
  }

  async getSchedules(tenantId: string, keys: string[]): Promise<Schedule[]> {
    return schedules.getSchedules(this.sql, tenantId, keys);
  }

  async listSchedules(q: ScheduleQuery): Promise<Page<Schedule>> {
    return schedules.listSchedules(this.sql, q);
  }

  async deleteSchedule(
    tenantId: string,
    key: string,
    now: number,
    note?: RevisionNote,
  ): Promise<{ deleted: boolean; transitions: Transition[] }> {
    return schedules.deleteSchedule(this.sql, tenantId, key, now, note);
  }

  async pauseSchedule(
    tenantId: string,
    key: string,
    opts: Parameters<Store['pauseSchedule']>[2],
  ): Promise<{ schedule: Schedule; transitions: Transition[] } | undefined> {
    const res = schedules.pauseSchedule(this.sql, tenantId, key, opts);
    if (res)
      this.signal([{ kind: 'paused', scheduleId: res.schedule.id, cancelPending: opts.cancelPending }]);
    return res;
  }

  async resumeSchedule(
    tenantId: string,
    key: string,
    opts: Parameters<Store['resumeSchedule']>[2],
  ): Promise<{ schedule: Schedule; transitions: Transition[] } | undefined> {
    const res = schedules.resumeSchedule(this.sql, tenantId, key, opts);
    this.signal(resumeSignals(res));
    return res;
  }

  async dueTimedPauses(now: number, limit: number): Promise<Schedule[]> {
    return schedules.dueTimedPauses(this.sql, now, limit);
  }

  async nextTimedResumeAt(): Promise<number | null> {
    return schedules.nextTimedResumeAt(this.sql);
  }

  async putOccurrenceOverride(w: OverrideWrite): Promise<{ transition: Transition | null }> {
    return overrides.putOccurrenceOverride(this.sql, w);
  }

  async deleteOccurrenceOverride(
    r: OverrideRemoval,
  ): Promise<{ removed: boolean; transition: Transition | null }> {
    return overrides.deleteOccurrenceOverride(this.sql, r);
  }

  async listOccurrenceOverrides(
    tenantId: string,
    scheduleId: string,
    opts: { from: number; limit: number },
  ): Promise<OccurrenceOverride[]> {
    return overrides.listOccurrenceOverrides(this.sql, tenantId, scheduleId, opts);
  }

  async overridesDue(
    scheduleIds: readonly string[],
    from: number,
    until: number,
  ): Promise<OccurrenceOverride[]> {
    return overrides.overridesDue(this.sql, scheduleIds, from, until);
  }

  async pruneOverrides(req: { before: number; limit: number }): Promise<number> {
    return overrides.pruneOverrides(this.sql, req);
  }

  async listScheduleRevisions(q: RevisionQuery): Promise<Page<ScheduleRevision>> {
    return revisions.listScheduleRevisions(this.sql, q);
  }

  async getScheduleRevision(
    tenantId: string,
    key: string,
    version: number,
  ): Promise<ScheduleRevision | undefined> {
    return revisions.getScheduleRevision(this.sql, tenantId, key, version);
  }

  async claimDueSchedules(req: {
    now: number;
    horizon: number;
    limit: number;
    leaseMs: number;
    rollBackLeadMs?: number | undefined;
  }): Promise<Schedule[]> {
    return materializer.claimDueSchedules(this.sql, req);
  }

  async advanceSchedule(a: Advance): Promise<AdvanceResult> {
    return materializer.advanceSchedule(this.sql, a);
  }

  async advanceSchedules(advances: Advance[]): Promise<AdvanceResult[]> {
    return materializer.advanceSchedules(this.sql, advances);
  }

  async nextScheduleAt(): Promise<number | null> {
    return materializer.nextScheduleAt(this.sql);
  }

  async nextRollingBackAt(): Promise<number | null> {
    return materializer.nextRollingBackAt(this.sql);
  }

  async insertRuns(runs: RunInsert[], now: number): Promise<Transition[]> {
    if (runs.length === 0) return [];
    return this.sql.write(() => insertRuns(this.sql, runs, now));
  }

  async claimRuns(req: ClaimRequest): Promise<ClaimResult> {
    const res = claimRuns(this.sql, req);
    this.signal(claimSignals(res));
    return res;
  }

  async extendLeases(
    leases: { runId: string; token: string }[],
    until: number,
    _now: number,
  ): Promise<string[]> {
    return extendLeases(this.sql, leases, until);
  }

  async settleRuns(settlements: Settlement[], now: number): Promise<(Transition | null)[]> {
    return settleRuns(this.sql, settlements, now);
  }

  async settleAndClaim(
    settlements: Settlement[],
    claim: ClaimRequest,
  ): Promise<{ settled: (Transition | null)[]; claim: ClaimResult }> {
    // One commit for both: the inner transactions nest as savepoints.
    const res = this.sql.write(() => ({
      settled: settleRuns(this.sql, settlements, claim.now),
      claim: claimRuns(this.sql, claim),
    }));
    this.signal(claimSignals(res.claim));
    return res;
  }

  async reclaimExpiredLeases(now: number, limit: number): Promise<Transition[]> {
    return reclaimExpiredLeases(this.sql, now, limit);
  }

  async rerunRuns(req: RerunRequest): Promise<RerunResult> {
    return rerunRuns(this.sql, req);
  }

  async cancelRun(tenantId: string, runId: string, now: number): Promise<Transition | undefined> {
    const t = cancelRun(this.sql, tenantId, runId, now);
    this.signal(abortSignals(t ? [t] : []));
    return t;
  }

  async getRun(tenantId: string, runId: string): Promise<{ run: Run; attempts: Attempt[] } | undefined> {
    return getRun(this.sql, tenantId, runId);
  }

  async listRuns(q: RunQuery): Promise<Page<Run>> {
    return listRuns(this.sql, q);
  }

  async nextRunDueAt(): Promise<number | null> {
    return nextRunDueAt(this.sql);
  }

  async pendingDueAt(tenantId: string, scheduleIds: readonly string[]): Promise<Map<string, number>> {
    return pendingDueAt(this.sql, tenantId, scheduleIds);
  }

  async takeNotFired(now: number, graceMs: number, limit: number): Promise<Run[]> {
    return takeNotFired(this.sql, now, graceMs, limit);
  }

  async takeOverdueSchedules(now: number, graceMs: number, limit: number): Promise<Schedule[]> {
    return materializer.takeOverdueSchedules(this.sql, now, graceMs, limit);
  }

  async pruneHistory(req: PruneRequest): Promise<number> {
    return pruneHistory(this.sql, req, this.keepScan);
  }

  async stats(now: number): Promise<StoreStats> {
    return stats(this.sql, now);
  }

  // ── tenancy ──────────────────────────────────────────────────────────────────────────────────────
  async createTenant(t: {
    id: string;
    quotas: TenantQuotas;
    webhookSecret: string;
    now: number;
  }): Promise<Tenant> {
    return tenants.createTenant(this.sql, t);
  }

  async getTenant(id: string): Promise<Tenant | undefined> {
    return tenants.getTenant(this.sql, id);
  }

  async listTenants(): Promise<Tenant[]> {
    return tenants.listTenants(this.sql);
  }

  async updateTenant(
    id: string,
    patch: Parameters<TenantStore['updateTenant']>[1],
    now: number,
  ): Promise<Tenant | undefined> {
    return tenants.updateTenant(this.sql, id, patch, now);
  }

  async createApiKey(k: {
    tenantId: string;
    prefix: string;
    hash: string;
    name: string | null;
    now: number;
  }): Promise<ApiKey> {
    return tenants.createApiKey(this.sql, k);
  }

  async findApiKey(hash: string): Promise<{ key: ApiKey; tenant: Tenant } | undefined> {
    return tenants.findApiKey(this.sql, hash);
  }

  async listApiKeys(tenantId: string): Promise<ApiKey[]> {
    return tenants.listApiKeys(this.sql, tenantId);
  }

  async revokeApiKey(tenantId: string, keyId: string, now: number): Promise<boolean> {
    return tenants.revokeApiKey(this.sql, tenantId, keyId, now);
  }

  async touchApiKey(keyId: string, now: number): Promise<void> {
    tenants.touchApiKey(this.sql, keyId, now);
  }

  async countSchedules(tenantId: string): Promise<number> {
    return tenants.countSchedules(this.sql, tenantId);
  }

  async countRunsStartedSince(tenantId: string, since: number): Promise<number> {
    return tenants.countRunsStartedSince(this.sql, tenantId, since);
  }

  // ── tenant key-value store ───────────────────────────────────────────────────────────────────────
  async getCalendar(tenantId: string, name: string): Promise<Calendar | undefined> {
    return calendars.getCalendar(this.sql, tenantId, name);
  }

  async listCalendars(tenantId: string): Promise<Calendar[]> {
    return calendars.listCalendars(this.sql, tenantId);
  }

  async putCalendar(req: PutCalendarRequest): Promise<PutCalendarResult> {
    return calendars.putCalendar(this.sql, req);
  }

  async deleteCalendar(tenantId: string, name: string, opts: DeleteCalendarOptions): Promise<void> {
    return calendars.deleteCalendar(this.sql, tenantId, name, opts);
  }

  async calendarUsers(tenantId: string, name: string, limit: number): Promise<string[]> {
    return calendars.calendarUsers(this.sql, tenantId, name, limit);
  }

  async listCalendarRevisions(q: CalendarRevisionQuery): Promise<Page<CalendarRevision>> {
    return calendarRevisions.listCalendarRevisions(this.sql, q);
  }

  async getCalendarRevision(
    tenantId: string,
    name: string,
    version: number,
  ): Promise<CalendarRevision | undefined> {
    return calendarRevisions.getCalendarRevision(this.sql, tenantId, name, version);
  }

  async rewindCalendarUsers(
    req: RewindCalendarUsers,
  ): Promise<{ schedules: number; transitions: Transition[]; last: string | null }> {
    return calendars.rewindCalendarUsers(this.sql, req);
  }

  async kvGet(tenantId: string, key: string): Promise<{ value: Json; updatedAt: number } | undefined> {
    return kv.kvGet(this.sql, tenantId, key);
  }

  async kvSet(tenantId: string, key: string, value: Json, now: number, limits: KvLimits): Promise<void> {
    kv.kvSet(this.sql, tenantId, key, value, now, limits);
  }

  async kvDelete(tenantId: string, key: string): Promise<boolean> {
    return kv.kvDelete(this.sql, tenantId, key);
  }

  async kvList(tenantId: string, q: KvListQuery): Promise<Page<KvEntry>> {
    return kv.kvList(this.sql, tenantId, q);
  }

  // ── alerts, alert channels, checks and the delivery outbox (alert-store.ts) ───────────────────────
  async putAlertChannel(
    tenantId: string,
    input: AlertChannelInput,
    now: number,
  ): Promise<{ channel: AlertChannel; created: boolean }> {
    return alerts.putAlertChannel(this.sql, tenantId, input, now);
  }

  async getAlertChannel(tenantId: string, name: string): Promise<AlertChannel | undefined> {
    return alerts.getAlertChannel(this.sql, tenantId, name);
  }

  async listAlertChannels(tenantId: string): Promise<AlertChannel[]> {
    return alerts.listAlertChannels(this.sql, tenantId);
  }

  async deleteAlertChannel(tenantId: string, name: string): Promise<boolean> {
    return alerts.deleteAlertChannel(this.sql, tenantId, name);
  }

  async putCheck(
    tenantId: string,
    input: CheckInput,
    now: number,
  ): Promise<{ check: Check; created: boolean }> {
    return checks.putCheck(this.sql, tenantId, input, now);
  }

  async getCheck(tenantId: string, name: string): Promise<Check | undefined> {
    return alerts.getCheck(this.sql, tenantId, name);
  }

  async listChecks(tenantId: string): Promise<Check[]> {
    return alerts.listChecks(this.sql, tenantId);
  }

  async deleteCheck(tenantId: string, name: string, now: number): Promise<boolean> {
    return alerts.deleteCheck(this.sql, tenantId, name, now);
  }

  async recordHeartbeat(tenantId: string, name: string, now: number): Promise<Check | undefined> {
    return alerts.recordHeartbeat(this.sql, tenantId, name, now);
  }

  async evaluateDueChecks(now: number, limit: number): Promise<Alert[]> {
    return alerts.evaluateDueChecks(this.sql, now, limit);
  }

  async nextCheckAt(): Promise<number | null> {
    return alerts.nextCheckAt(this.sql);
  }

  async evaluateDueExpectations(now: number, limit: number): Promise<{ judged: number; alerts: Alert[] }> {
    return expectations.evaluateDueExpectations(this.sql, now, limit);
  }

  async nextExpectationAt(): Promise<number | null> {
    return expectations.nextExpectationAt(this.sql);
  }

  async recentOutcomes(scheduleId: string, limit: number): Promise<string[]> {
    return expectations.recentOutcomes(this.sql, scheduleId, limit);
  }

  async openAlerts(conditions: readonly AlertCondition[], now: number): Promise<Alert[]> {
    return alerts.openAlerts(this.sql, conditions, now);
  }

  async resolveAlerts(clearances: readonly AlertClearance[], now: number): Promise<Alert[]> {
    return alerts.resolveAlerts(this.sql, clearances, now);
  }

  async listAlerts(q: AlertListQuery): Promise<Alert[]> {
    return alerts.listAlerts(this.sql, q);
  }

  async getAlert(
    tenantId: string,
    id: string,
  ): Promise<{ alert: Alert; deliveries: AlertDelivery[] } | undefined> {
    return alerts.getAlert(this.sql, tenantId, id);
  }

  async countOpenAlerts(): Promise<{ tenantId: string; kind: string; count: number }[]> {
    return alerts.countOpenAlerts(this.sql);
  }

  async claimAlertDeliveries(now: number, leaseMs: number, limit: number): Promise<ClaimedAlertDelivery[]> {
    return alerts.claimAlertDeliveries(this.sql, now, leaseMs, limit);
  }

  async settleAlertDelivery(
    claimed: ClaimedAlertDelivery,
    result: AlertDeliveryResult,
    now: number,
  ): Promise<{ settled: boolean; state: AlertDelivery['state'] }> {
    return alerts.settleAlertDelivery(this.sql, claimed, result, now);
  }

  async nextAlertDeliveryAt(): Promise<number | null> {
    return alerts.nextAlertDeliveryAt(this.sql);
  }
}

/** Opens (creating if needed) a SQLite store. Call `migrate()` before using it. */
export function sqliteStore(opts: {
  path: string;
  synchronous?: 'FULL' | 'NORMAL';
  driver?: SqliteDriver | undefined;
}): SqliteStore {
  return new SqliteStore(opts);
}
