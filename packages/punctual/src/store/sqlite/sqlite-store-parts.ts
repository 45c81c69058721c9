// The SQLite store's function for each operation it hands to its modules: the Store operations that keep
// no state of the store's (store/common/store-ops.ts), and all of TenantStore, KvStore, CalendarStore and
// AlertStore (store/common/store-parts.ts). One line per operation, naming the module that does it; the
// operations themselves are written once. It must never run anything itself.

import type { StorePartsOps } from '../common/store-parts.js';
import type { SqliteDatabase } from './sqlite-database.js';
import * as schedules from './sqlite-schedules.js';
import * as overrides from './sqlite-overrides.js';
import * as revisions from './sqlite-revisions.js';
import * as materializer from './sqlite-materializer.js';
import * as claim from './sqlite-claim.js';
import * as leases from './sqlite-leases.js';
import * as rerun from './sqlite-rerun.js';
import * as queries from './sqlite-queries.js';
import * as tenants from './sqlite-tenants.js';
import * as calendars from './sqlite-calendars.js';
import * as calendarRevisions from './sqlite-calendar-revisions.js';
import * as kv from './sqlite-kv.js';
import * as alerts from './sqlite-alerts.js';
import * as checks from './sqlite-checks.js';
import * as expectations from './sqlite-expectations.js';

export const SQLITE_PARTS: StorePartsOps<SqliteDatabase> = {
  putSchedule: schedules.putSchedule,
  putSchedules: schedules.putSchedules,
  pauseSchedule: schedules.pauseSchedule,
  resumeSchedule: schedules.resumeSchedule,
  claimRuns: claim.claimRuns,
  settleAndClaim: claim.settleAndClaim,
  cancelRun: leases.cancelRun,
  getSchedule: schedules.getSchedule,
  getSchedules: schedules.getSchedules,
  listSchedules: schedules.listSchedules,
  deleteSchedule: schedules.deleteSchedule,
  dueTimedPauses: schedules.dueTimedPauses,
  nextTimedResumeAt: schedules.nextTimedResumeAt,
  putOccurrenceOverride: overrides.putOccurrenceOverride,
  deleteOccurrenceOverride: overrides.deleteOccurrenceOverride,
  listOccurrenceOverrides: overrides.listOccurrenceOverrides,
  overridesDue: overrides.overridesDue,
  pruneOverrides: overrides.pruneOverrides,
  listScheduleRevisions: revisions.listScheduleRevisions,
  getScheduleRevision: revisions.getScheduleRevision,
  advanceSchedule: materializer.advanceSchedule,
  advanceSchedules: materializer.advanceSchedules,
  nextScheduleAt: materializer.nextScheduleAt,
  nextRollingBackAt: materializer.nextRollingBackAt,
  settleRuns: leases.settleRuns,
  reclaimExpiredLeases: leases.reclaimExpiredLeases,
  rerunRuns: rerun.rerunRuns,
  getRun: queries.getRun,
  listRuns: queries.listRuns,
  nextRunDueAt: queries.nextRunDueAt,
  pendingDueAt: queries.pendingDueAt,
  takeNotFired: queries.takeNotFired,
  takeOverdueSchedules: materializer.takeOverdueSchedules,
  stats: queries.stats,
  createTenant: tenants.createTenant,
  getTenant: tenants.getTenant,
  listTenants: tenants.listTenants,
  updateTenant: tenants.updateTenant,
  createApiKey: tenants.createApiKey,
  findApiKey: tenants.findApiKey,
  listApiKeys: tenants.listApiKeys,
  revokeApiKey: tenants.revokeApiKey,
  touchApiKey: tenants.touchApiKey,
  countSchedules: tenants.countSchedules,
  countRunsStartedSince: tenants.countRunsStartedSince,
  getCalendar: calendars.getCalendar,
  listCalendars: calendars.listCalendars,
  putCalendar: calendars.putCalendar,
  deleteCalendar: calendars.deleteCalendar,
  calendarUsers: calendars.calendarUsers,
  listCalendarRevisions: calendarRevisions.listCalendarRevisions,
  getCalendarRevision: calendarRevisions.getCalendarRevision,
  rewindCalendarUsers: calendars.rewindCalendarUsers,
  kvGet: kv.kvGet,
  kvSet: kv.kvSet,
  kvDelete: kv.kvDelete,
  kvList: kv.kvList,
  putAlertChannel: alerts.putAlertChannel,
  getAlertChannel: alerts.getAlertChannel,
  listAlertChannels: alerts.listAlertChannels,
  deleteAlertChannel: alerts.deleteAlertChannel,
  putCheck: checks.putCheck,
  getCheck: alerts.getCheck,
  listChecks: alerts.listChecks,
  deleteCheck: alerts.deleteCheck,
  recordHeartbeat: alerts.recordHeartbeat,
  evaluateDueChecks: alerts.evaluateDueChecks,
  nextCheckAt: alerts.nextCheckAt,
  evaluateDueExpectations: expectations.evaluateDueExpectations,
  nextExpectationAt: expectations.nextExpectationAt,
  recentOutcomes: expectations.recentOutcomes,
  openAlerts: alerts.openAlerts,
  resolveAlerts: alerts.resolveAlerts,
  listAlerts: alerts.listAlerts,
  getAlert: alerts.getAlert,
  countOpenAlerts: alerts.countOpenAlerts,
  claimAlertDeliveries: alerts.claimAlertDeliveries,
  settleAlertDelivery: alerts.settleAlertDelivery,
  nextAlertDeliveryAt: alerts.nextAlertDeliveryAt,
};
