// The operations a store hands to its dialect, written once for both: their types (the Store operations are
// in store-ops.ts) and, here, all of TenantStore, KvStore, CalendarStore and AlertStore. Each is given to the dialect's function for it (StorePartsOps: one line per
// operation in sqlite-store-parts.ts and postgres-store-parts.ts) with the connection the store opens (`run`).
// It owns no state and no connection, and must never read a clock (`now` is always a parameter).
// No ES private members: tests wrap stores in a Proxy, whose calls would not reach one.

import type { AlertStore } from '../alert-store.js';
import type { CalendarStore } from '../calendar-store.js';
import type { KvStore } from '../kv-store.js';
import type { Store, StoreSignal } from '../store.js';
import type { TenantStore } from '../tenant-store.js';
import type { SlotOperations } from './store-slots.js';

/**
 * Every operation a store hands to its dialect: all of TenantStore, KvStore, CalendarStore and AlertStore,
 * and the Store operations named in a slot (store-slots.ts) rather than kept by the store itself.
 */
export type StoreParts = Pick<
  Store & TenantStore & KvStore & CalendarStore & AlertStore,
  SlotOperations[keyof SlotOperations]
>;

/** A dialect's functions for the parts: each takes the connection `C` first, then the operation's arguments. */
export type StorePartsOps<C> = {
  [K in keyof StoreParts]: (
    c: C,
    ...args: Parameters<StoreParts[K]>
  ) => Awaited<ReturnType<StoreParts[K]>> | ReturnType<StoreParts[K]>;
};

export type P = StoreParts;

export abstract class StorePartsBase<C> implements TenantStore, KvStore, CalendarStore, AlertStore {
  /** The dialect's functions, one per operation. */
  protected abstract readonly ops: StorePartsOps<C>;

  /** Runs `f` with the store's connection (opened, checked migrated) and answers its result as a promise. */
  protected abstract run<R>(f: (c: C) => R | Promise<R>): Promise<R>;

  /** Sends signals once the operation that calls for them committed (a latency hint for other engines). */
  protected abstract signal(signals: StoreSignal[]): void | Promise<void>;

  protected call<K extends keyof StoreParts>(
    k: K,
    args: Parameters<StoreParts[K]>,
  ): ReturnType<StoreParts[K]> {
    const op = this.ops[k] as (c: C, ...a: Parameters<StoreParts[K]>) => unknown;
    return this.run((c) => op(c, ...args)) as ReturnType<StoreParts[K]>;
  }

  // ── tenancy (tenant-store.ts) ────────────────────────────────────────────────────────────────────────────
  createTenant(...a: Parameters<P['createTenant']>): ReturnType<P['createTenant']> {
    return this.call('createTenant', a);
  }

  getTenant(...a: Parameters<P['getTenant']>): ReturnType<P['getTenant']> {
    return this.call('getTenant', a);
  }

  listTenants(...a: Parameters<P['listTenants']>): ReturnType<P['listTenants']> {
    return this.call('listTenants', a);
  }

  updateTenant(...a: Parameters<P['updateTenant']>): ReturnType<P['updateTenant']> {
    return this.call('updateTenant', a);
  }

  createApiKey(...a: Parameters<P['createApiKey']>): ReturnType<P['createApiKey']> {
    return this.call('createApiKey', a);
  }

  findApiKey(...a: Parameters<P['findApiKey']>): ReturnType<P['findApiKey']> {
    return this.call('findApiKey', a);
  }

  listApiKeys(...a: Parameters<P['listApiKeys']>): ReturnType<P['listApiKeys']> {
    return this.call('listApiKeys', a);
  }

  revokeApiKey(...a: Parameters<P['revokeApiKey']>): ReturnType<P['revokeApiKey']> {
    return this.call('revokeApiKey', a);
  }

  touchApiKey(...a: Parameters<P['touchApiKey']>): ReturnType<P['touchApiKey']> {
    return this.call('touchApiKey', a);
  }

  countSchedules(...a: Parameters<P['countSchedules']>): ReturnType<P['countSchedules']> {
    return this.call('countSchedules', a);
  }

  countRunsStartedSince(
    ...a: Parameters<P['countRunsStartedSince']>
  ): ReturnType<P['countRunsStartedSince']> {
    return this.call('countRunsStartedSince', a);
  }

  // ── calendars (calendar-store.ts) ────────────────────────────────────────────────────────────────────────
  getCalendar(...a: Parameters<P['getCalendar']>): ReturnType<P['getCalendar']> {
    return this.call('getCalendar', a);
  }

  listCalendars(...a: Parameters<P['listCalendars']>): ReturnType<P['listCalendars']> {
    return this.call('listCalendars', a);
  }

  putCalendar(...a: Parameters<P['putCalendar']>): ReturnType<P['putCalendar']> {
    return this.call('putCalendar', a);
  }

  deleteCalendar(...a: Parameters<P['deleteCalendar']>): ReturnType<P['deleteCalendar']> {
    return this.call('deleteCalendar', a);
  }

  calendarUsers(...a: Parameters<P['calendarUsers']>): ReturnType<P['calendarUsers']> {
    return this.call('calendarUsers', a);
  }

  listCalendarRevisions(
    ...a: Parameters<P['listCalendarRevisions']>
  ): ReturnType<P['listCalendarRevisions']> {
    return this.call('listCalendarRevisions', a);
  }

  getCalendarRevision(...a: Parameters<P['getCalendarRevision']>): ReturnType<P['getCalendarRevision']> {
    return this.call('getCalendarRevision', a);
  }

  rewindCalendarUsers(...a: Parameters<P['rewindCalendarUsers']>): ReturnType<P['rewindCalendarUsers']> {
    return this.call('rewindCalendarUsers', a);
  }

  // ── key-value (kv-store.ts) ──────────────────────────────────────────────────────────────────────────────
  kvGet(...a: Parameters<P['kvGet']>): ReturnType<P['kvGet']> {
    return this.call('kvGet', a);
  }

  kvSet(...a: Parameters<P['kvSet']>): ReturnType<P['kvSet']> {
    return this.call('kvSet', a);
  }

  kvDelete(...a: Parameters<P['kvDelete']>): ReturnType<P['kvDelete']> {
    return this.call('kvDelete', a);
  }

  kvList(...a: Parameters<P['kvList']>): ReturnType<P['kvList']> {
    return this.call('kvList', a);
  }

  // ── alerts, alert channels, checks and the delivery outbox (alert-store.ts) ──────────────────────────────
  putAlertChannel(...a: Parameters<P['putAlertChannel']>): ReturnType<P['putAlertChannel']> {
    return this.call('putAlertChannel', a);
  }

  getAlertChannel(...a: Parameters<P['getAlertChannel']>): ReturnType<P['getAlertChannel']> {
    return this.call('getAlertChannel', a);
  }

  listAlertChannels(...a: Parameters<P['listAlertChannels']>): ReturnType<P['listAlertChannels']> {
    return this.call('listAlertChannels', a);
  }

  deleteAlertChannel(...a: Parameters<P['deleteAlertChannel']>): ReturnType<P['deleteAlertChannel']> {
    return this.call('deleteAlertChannel', a);
  }

  putCheck(...a: Parameters<P['putCheck']>): ReturnType<P['putCheck']> {
    return this.call('putCheck', a);
  }

  getCheck(...a: Parameters<P['getCheck']>): ReturnType<P['getCheck']> {
    return this.call('getCheck', a);
  }

  listChecks(...a: Parameters<P['listChecks']>): ReturnType<P['listChecks']> {
    return this.call('listChecks', a);
  }

  deleteCheck(...a: Parameters<P['deleteCheck']>): ReturnType<P['deleteCheck']> {
    return this.call('deleteCheck', a);
  }

  recordHeartbeat(...a: Parameters<P['recordHeartbeat']>): ReturnType<P['recordHeartbeat']> {
    return this.call('recordHeartbeat', a);
  }

  evaluateDueChecks(...a: Parameters<P['evaluateDueChecks']>): ReturnType<P['evaluateDueChecks']> {
    return this.call('evaluateDueChecks', a);
  }

  nextCheckAt(...a: Parameters<P['nextCheckAt']>): ReturnType<P['nextCheckAt']> {
    return this.call('nextCheckAt', a);
  }

  evaluateDueExpectations(
    ...a: Parameters<P['evaluateDueExpectations']>
  ): ReturnType<P['evaluateDueExpectations']> {
    return this.call('evaluateDueExpectations', a);
  }

  nextExpectationAt(...a: Parameters<P['nextExpectationAt']>): ReturnType<P['nextExpectationAt']> {
    return this.call('nextExpectationAt', a);
  }

  recentOutcomes(...a: Parameters<P['recentOutcomes']>): ReturnType<P['recentOutcomes']> {
    return this.call('recentOutcomes', a);
  }

  openAlerts(...a: Parameters<P['openAlerts']>): ReturnType<P['openAlerts']> {
    return this.call('openAlerts', a);
  }

  resolveAlerts(...a: Parameters<P['resolveAlerts']>): ReturnType<P['resolveAlerts']> {
    return this.call('resolveAlerts', a);
  }

  listAlerts(...a: Parameters<P['listAlerts']>): ReturnType<P['listAlerts']> {
    return this.call('listAlerts', a);
  }

  getAlert(...a: Parameters<P['getAlert']>): ReturnType<P['getAlert']> {
    return this.call('getAlert', a);
  }

  countOpenAlerts(...a: Parameters<P['countOpenAlerts']>): ReturnType<P['countOpenAlerts']> {
    return this.call('countOpenAlerts', a);
  }

  claimAlertDeliveries(...a: Parameters<P['claimAlertDeliveries']>): ReturnType<P['claimAlertDeliveries']> {
    return this.call('claimAlertDeliveries', a);
  }

  settleAlertDelivery(...a: Parameters<P['settleAlertDelivery']>): ReturnType<P['settleAlertDelivery']> {
    return this.call('settleAlertDelivery', a);
  }

  nextAlertDeliveryAt(...a: Parameters<P['nextAlertDeliveryAt']>): ReturnType<P['nextAlertDeliveryAt']> {
    return this.call('nextAlertDeliveryAt', a);
  }
}
