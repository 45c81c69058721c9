// Which dialect slot does each operation a store hands to its dialect: the slot list of docs/stores.md
// ("Layout") as types. Each dialect passes its slot modules (sqlite-store-parts.ts, postgres-store-parts.ts)
// and the compiler checks that every slot module has its operations, with the contract's arguments after the
// connection. Pure: it must never run anything itself.

import type { StorePartsOps } from './store-parts.js';

/** Which operations each slot (`<dialect>-<slot>.ts`) does. */
export interface SlotOperations {
  /** `-schedules.ts` */
  schedules:
    | 'putSchedule'
    | 'putSchedules'
    | 'pauseSchedule'
    | 'resumeSchedule'
    | 'getSchedule'
    | 'getSchedules'
    | 'listSchedules'
    | 'deleteSchedule'
    | 'dueTimedPauses'
    | 'nextTimedResumeAt';
  /** `-overrides.ts` */
  overrides:
    | 'putOccurrenceOverride'
    | 'deleteOccurrenceOverride'
    | 'listOccurrenceOverrides'
    | 'overridesDue'
    | 'pruneOverrides';
  /** `-revisions.ts` */
  revisions: 'listScheduleRevisions' | 'getScheduleRevision';
  /** `-materializer.ts` */
  materializer:
    'advanceSchedule' | 'advanceSchedules' | 'nextScheduleAt' | 'nextRollingBackAt' | 'takeOverdueSchedules';
  /** `-claim.ts` */
  claim: 'claimRuns' | 'settleAndClaim';
  /** `-leases.ts` */
  leases: 'cancelRun' | 'settleRuns' | 'reclaimExpiredLeases';
  /** `-rerun.ts` */
  rerun: 'rerunRuns';
  /** `-queries.ts` */
  queries: 'getRun' | 'listRuns' | 'nextRunDueAt' | 'pendingDueAt' | 'takeNotFired' | 'stats';
  /** `-tenants.ts` */
  tenants:
    | 'createTenant'
    | 'getTenant'
    | 'listTenants'
    | 'updateTenant'
    | 'createApiKey'
    | 'findApiKey'
    | 'listApiKeys'
    | 'revokeApiKey'
    | 'touchApiKey'
    | 'countSchedules'
    | 'countRunsStartedSince';
  /** `-calendars.ts` */
  calendars:
    | 'getCalendar'
    | 'listCalendars'
    | 'putCalendar'
    | 'deleteCalendar'
    | 'calendarUsers'
    | 'rewindCalendarUsers';
  /** `-calendar-revisions.ts` */
  calendarRevisions: 'listCalendarRevisions' | 'getCalendarRevision';
  /** `-kv.ts` */
  kv: 'kvGet' | 'kvSet' | 'kvDelete' | 'kvList';
  /** `-alerts.ts` */
  alerts:
    | 'putAlertChannel'
    | 'getAlertChannel'
    | 'listAlertChannels'
    | 'deleteAlertChannel'
    | 'getCheck'
    | 'listChecks'
    | 'deleteCheck'
    | 'recordHeartbeat'
    | 'evaluateDueChecks'
    | 'nextCheckAt'
    | 'openAlerts'
    | 'resolveAlerts'
    | 'listAlerts'
    | 'getAlert'
    | 'countOpenAlerts'
    | 'claimAlertDeliveries'
    | 'settleAlertDelivery'
    | 'nextAlertDeliveryAt';
  /** `-checks.ts` */
  checks: 'putCheck';
  /** `-expectations.ts` */
  expectations: 'evaluateDueExpectations' | 'nextExpectationAt' | 'recentOutcomes';
}

/** A dialect's slot modules, by slot: each with its slot's operations, the connection first. */
export type DialectSlots<C> = { [S in keyof SlotOperations]: Pick<StorePartsOps<C>, SlotOperations[S]> };

/** The operations a store hands over, each from its slot module. */
export function slotOps<C>(s: DialectSlots<C>): StorePartsOps<C> {
  return {
    putSchedule: s.schedules.putSchedule,
    putSchedules: s.schedules.putSchedules,
    pauseSchedule: s.schedules.pauseSchedule,
    resumeSchedule: s.schedules.resumeSchedule,
    claimRuns: s.claim.claimRuns,
    settleAndClaim: s.claim.settleAndClaim,
    cancelRun: s.leases.cancelRun,
    getSchedule: s.schedules.getSchedule,
    getSchedules: s.schedules.getSchedules,
    listSchedules: s.schedules.listSchedules,
    deleteSchedule: s.schedules.deleteSchedule,
    dueTimedPauses: s.schedules.dueTimedPauses,
    nextTimedResumeAt: s.schedules.nextTimedResumeAt,
    putOccurrenceOverride: s.overrides.putOccurrenceOverride,
    deleteOccurrenceOverride: s.overrides.deleteOccurrenceOverride,
    listOccurrenceOverrides: s.overrides.listOccurrenceOverrides,
    overridesDue: s.overrides.overridesDue,
    pruneOverrides: s.overrides.pruneOverrides,
    listScheduleRevisions: s.revisions.listScheduleRevisions,
    getScheduleRevision: s.revisions.getScheduleRevision,
    advanceSchedule: s.materializer.advanceSchedule,
    advanceSchedules: s.materializer.advanceSchedules,
    nextScheduleAt: s.materializer.nextScheduleAt,
    nextRollingBackAt: s.materializer.nextRollingBackAt,
    settleRuns: s.leases.settleRuns,
    reclaimExpiredLeases: s.leases.reclaimExpiredLeases,
    rerunRuns: s.rerun.rerunRuns,
    getRun: s.queries.getRun,
    listRuns: s.queries.listRuns,
    nextRunDueAt: s.queries.nextRunDueAt,
    pendingDueAt: s.queries.pendingDueAt,
    takeNotFired: s.queries.takeNotFired,
    takeOverdueSchedules: s.materializer.takeOverdueSchedules,
    stats: s.queries.stats,
    createTenant: s.tenants.createTenant,
    getTenant: s.tenants.getTenant,
    listTenants: s.tenants.listTenants,
    updateTenant: s.tenants.updateTenant,
    createApiKey: s.tenants.createApiKey,
    findApiKey: s.tenants.findApiKey,
    listApiKeys: s.tenants.listApiKeys,
    revokeApiKey: s.tenants.revokeApiKey,
    touchApiKey: s.tenants.touchApiKey,
    countSchedules: s.tenants.countSchedules,
    countRunsStartedSince: s.tenants.countRunsStartedSince,
    getCalendar: s.calendars.getCalendar,
    listCalendars: s.calendars.listCalendars,
    putCalendar: s.calendars.putCalendar,
    deleteCalendar: s.calendars.deleteCalendar,
    calendarUsers: s.calendars.calendarUsers,
    listCalendarRevisions: s.calendarRevisions.listCalendarRevisions,
    getCalendarRevision: s.calendarRevisions.getCalendarRevision,
    rewindCalendarUsers: s.calendars.rewindCalendarUsers,
    kvGet: s.kv.kvGet,
    kvSet: s.kv.kvSet,
    kvDelete: s.kv.kvDelete,
    kvList: s.kv.kvList,
    putAlertChannel: s.alerts.putAlertChannel,
    getAlertChannel: s.alerts.getAlertChannel,
    listAlertChannels: s.alerts.listAlertChannels,
    deleteAlertChannel: s.alerts.deleteAlertChannel,
    putCheck: s.checks.putCheck,
    getCheck: s.alerts.getCheck,
    listChecks: s.alerts.listChecks,
    deleteCheck: s.alerts.deleteCheck,
    recordHeartbeat: s.alerts.recordHeartbeat,
    evaluateDueChecks: s.alerts.evaluateDueChecks,
    nextCheckAt: s.alerts.nextCheckAt,
    evaluateDueExpectations: s.expectations.evaluateDueExpectations,
    nextExpectationAt: s.expectations.nextExpectationAt,
    recentOutcomes: s.expectations.recentOutcomes,
    openAlerts: s.alerts.openAlerts,
    resolveAlerts: s.alerts.resolveAlerts,
    listAlerts: s.alerts.listAlerts,
    getAlert: s.alerts.getAlert,
    countOpenAlerts: s.alerts.countOpenAlerts,
    claimAlertDeliveries: s.alerts.claimAlertDeliveries,
    settleAlertDelivery: s.alerts.settleAlertDelivery,
    nextAlertDeliveryAt: s.alerts.nextAlertDeliveryAt,
  };
}
