// The public API of the library. Re-exports only; no logic lives here.

export { createScheduler, Scheduler, DEFAULT_DATABASE_PATH } from './scheduler.js';
export type { SchedulerOptions, ResolvedOptions } from './options.js';
export {
  BULK_BATCH_MAX,
  BULK_BATCH_SIZE,
  BULK_OUTCOMES,
  type BulkOutcome,
  type BulkPutItem,
  type BulkPutOptions,
  type BulkPutResult,
} from './bulk-put.js';
export { TenantApi, LIBRARY_ACTOR, type PutResult, type ActorOption } from './tenant-api.js';
export {
  DRY_RUN_NEXT_COUNT,
  DRY_RUN_CANCELLED_MAX,
  type DryRunResult,
  type RollbackResult,
} from './schedule-changes.js';
export {
  REVISION_CHANGES,
  REVISIONS_KEPT,
  type RevisionChange,
  type RevisionNote,
  type ScheduleRevision,
} from './domain/schedule-revision.js';
export { DIFF_FIELDS, diffSchedules, type DiffField, type ScheduleDiff } from './domain/schedule-diff.js';
export type { HandlerSchedule } from './declared-schedules.js';
export {
  DECLARED_BY_LABEL,
  DEFAULT_DECLARING_APP,
  ORPHAN_POLICIES,
  type OrphanPolicy,
  type ReconcileReport,
} from './domain/declared.js';
export { RERUNNABLE_STATES, type RerunRange, type RerunnableState } from './reruns.js';
export { systemClock, offsetClock, type Clock, type CancelTimer } from './clock.js';
export {
  EventBus,
  type PunctualEvents,
  type EventName,
  type Listener,
  type RunAttemptEvent,
} from './events.js';
export {
  FAILED_SPAN_OUTCOMES,
  type AttemptSpan,
  type AttemptSpanEnd,
  type AttemptSpanOutcome,
  type AttemptSpanStart,
  type RunTracer,
  type TraceContext,
  type TraceIds,
} from './run-tracer.js';
export { PunctualError, ERROR_CODES, isPunctualError, type ErrorCode } from './errors.js';
export { ok, retry, fail, checkAgain } from './targets/outcomes.js';
export type { Handler, HandlerContext, PayloadSchema } from './targets/handler-target.js';
export type { TargetDriver, Delivery } from './targets/target.js';
export type { Outcome } from './domain/outcome.js';
export type { Json } from './domain/json.js';
export { JSON_MAX_DEPTH, PAYLOAD_MAX_BYTES } from './domain/json-limits.js';
export type { Run, RunState, RunKind, RunReason, RunError, Attempt } from './domain/run.js';
export {
  DEFAULT_TENANT,
  LABELS_MAX,
  LABEL_KEY_RE,
  LABEL_VALUE_MAX,
  SUMMARY_MAX,
  normalizeSchedule,
  parseLabelFilter,
  stableJson,
  type ScheduleDraft,
  type Schedule,
  type ScheduleInput,
  type ScheduleState,
} from './domain/schedule.js';
export { cursorFireAt, nextFireOf } from './domain/next-fire.js';
export {
  DEFAULT_POLICIES,
  type Policies,
  type RetryPolicy,
  type OverlapPolicy,
  type MisfirePolicy,
} from './domain/policies.js';
export {
  TARGET_KINDS,
  TARGET_SHAPES,
  type JsonSchema,
  type Target,
  type TargetKind,
  type TargetShape,
  type TargetValue,
} from './domain/target.js';
export {
  ID_TEMPLATE_MAX,
  ID_TEMPLATE_PLACEHOLDERS,
  messageId,
  parseIdTemplate,
  type IdTemplatePlaceholder,
} from './domain/message-id.js';
export { MAX_PREVIEW_COUNT, previewSpec, type SpecPreview } from './domain/timing/preview-spec.js';
export { previewList, type PreviewList, type PreviewOverride } from './domain/timing/preview-list.js';
export { previewSchedule } from './domain/schedule-preview.js';
export { closestName, editDistance } from './domain/did-you-mean.js';
export { compileSpec } from './domain/timing/compile-spec.js';
export { CRON_NICKNAMES } from './domain/timing/cron-spec.js';
export { parseDuration } from './domain/timing/duration.js';
export type { CompiledSpec, OnDropped, SpecKind } from './domain/timing/compiled-spec.js';
export {
  DST_DEFAULTS,
  DST_GAP_CHOICES,
  DST_REPEAT_CHOICES,
  resolveDstChoice,
  type DstChoice,
  type DstGapChoice,
  type DstRepeatChoice,
} from './domain/timing/dst-choice.js';
export {
  PREVIEW_DROP_REASONS,
  PREVIEW_NOTE_KINDS,
  type PreviewDropReason,
  type PreviewDropped,
  type PreviewNote,
  type PreviewNoteKind,
  type PreviewOccurrence,
} from './domain/timing/preview-note.js';
export {
  CALENDAR_DESCRIPTION_MAX,
  CALENDAR_LABEL_MAX,
  CALENDAR_MAX_DATES,
  CALENDAR_MAX_RANGE_DAYS,
  CALENDAR_NAME_RE,
  WEEKDAYS,
  checkCalendarName,
  normalizeCalendar,
  type Calendar,
  type CalendarDate,
  type CalendarDateInput,
  type CalendarDraft,
  type CalendarInput,
  type Weekday,
} from './domain/calendar/calendar.js';
export {
  EXCLUDE_MAX,
  ROLL_MODES,
  calendarNamesOf,
  parseCalendarRules,
  type BusinessDaysRule,
  type CalendarRules,
  type RollMode,
} from './domain/calendar/calendar-rules.js';
export {
  MAX_ROLL_DAYS,
  applyCalendarRules,
  calendarFate,
  checkCalendarsFire,
  type AppliedCalendars,
  type OccurrenceFate,
} from './domain/calendar/apply-calendars.js';
export { calendarLookup, type CalendarLookup } from './domain/calendar/calendar-lookup.js';
export {
  CALENDAR_REVISION_CHANGES,
  diffCalendars,
  type CalendarDiff,
  type CalendarRevision,
  type CalendarRevisionChange,
} from './domain/calendar/calendar-revision.js';
export { calendarInputOf, type CalendarRollbackResult } from './calendar-changes.js';
export {
  hasCalendars,
  type CalendarRevisionQuery,
  type CalendarStore,
  type DeleteCalendarOptions,
  type PutCalendarRequest,
  type PutCalendarResult,
} from './store/calendar-store.js';
export {
  ICS_DEFAULT_HORIZON_YEARS,
  ICS_MAX_BYTES,
  ICS_MAX_HORIZON_YEARS,
  parseIcs,
  type IcsImport,
} from './domain/calendar/ics-import.js';
export type { Store, StoreCapabilities, SchemaVersion, Transition, Page } from './store/store.js';
export { sqliteStore, SqliteStore } from './store/sqlite/sqlite-store.js';
export { SQLITE_DRIVERS, DEFAULT_SQLITE_DRIVER, type SqliteDriver } from './store/sqlite/sqlite-driver.js';
export type { Tenant, TenantQuotas, TenantState, ApiKey, TenantStore } from './store/tenant-store.js';
export {
  webhookTarget,
  webhookBody,
  type WebhookSecrets,
  type WebhookTargetOptions,
  type WebhookResult,
  type WebhookBody,
} from './targets/webhook/webhook-target.js';
export { generateWebhookSecret, signWebhook, verifyWebhook } from './targets/webhook/webhook-signature.js';
export { AddressGuard, parseCidrList, isForbiddenAddress, type Cidr } from './targets/address-guard.js';
export {
  BrokerConnections,
  parseBrokerConnections,
  brokerDestination,
  checkDestination,
  type BrokerKind,
  type BrokerConnection,
  type BrokerConnectionConfig,
  type BrokerConnectionsConfig,
} from './targets/brokers/broker-connections.js';
export { type BrokerDriverOptions } from './targets/brokers/broker-clients.js';
export { redisTarget, type RedisTargetOptions, type RedisResult } from './targets/brokers/redis-target.js';
export { natsTarget, type NatsTargetOptions, type NatsResult } from './targets/brokers/nats-target.js';
export {
  amqpTarget,
  amqpAddress,
  type AmqpTargetOptions,
  type AmqpResult,
} from './targets/brokers/amqp-target.js';
export type { RedisTarget, NatsTarget, AmqpTarget, BrokerTarget, CommandTarget } from './domain/target.js';
export { TENANT_ID_PATTERN } from './store/tenant-rules.js';
export {
  commandTarget,
  minimalEnv,
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_COMMAND_OUTPUT_BYTES,
  type CommandTargetOptions,
  type CommandTargetDriver,
  type CommandRunResult,
} from './targets/command/command-target.js';
export { postgresStore, PostgresStore, type PostgresStoreOptions } from './store/postgres/postgres-store.js';
export {
  scriptTarget,
  scriptOutcome,
  type ScriptTargetOptions,
  type ScriptTargetDriver,
  type ScriptRunInfo,
  type ScriptRunResult,
} from './targets/script/script-target.js';
export { DEFAULT_SCRIPT_LIMITS, type ScriptLimits } from './targets/script/script-limits.js';
export type { ScriptPoolStats } from './targets/script/script-pool.js';
export type { KvStore, KvEntry, KvLimits, KvListQuery } from './store/kv-store.js';
export { hasKv } from './store/kv-store.js';
export {
  ALERT_KINDS,
  ALERT_STATES,
  ALERT_SUBJECT_KINDS,
  ALERT_CHANNEL_KINDS,
  ALERT_TRANSITIONS,
  ALERT_DELIVERY_STATES,
  ALERT_DELIVERY_MAX_ATTEMPTS,
  CHECK_KINDS,
  CLEARED_BY_SUCCESS,
  type Alert,
  type AlertKind,
  type AlertState,
  type AlertSubjectKind,
  type AlertChannel,
  type AlertChannelKind,
  type AlertCondition,
  type AlertClearance,
  type AlertDelivery,
  type AlertDeliveryState,
  type AlertTransition,
  type Check,
  type CheckKind,
  type ClaimedAlertDelivery,
} from './domain/alert.js';
export {
  ALERT_NAME_PATTERN,
  parseAlertChannelInput,
  parseCheckInput,
  type AlertChannelInput,
  type CheckInput,
} from './domain/alert-input.js';
export {
  alertBodyFor,
  alertDedupKey,
  alertJson,
  alertMessageId,
  pagerDutyAlertBody,
  slackAlertBody,
  webhookAlertBody,
} from './domain/alert-bodies.js';
export {
  EXPECT_MAX_MS,
  EXPECT_MIN_MS,
  parseExpect,
  type ScheduleExpect,
  type ScheduleExpectInput,
} from './domain/schedule-expect.js';
export { DEFAULT_FAILURE_RATE, failureRateVerdict, type FailureRatePolicy } from './domain/failure-rate.js';
export type { AlertStore, AlertListQuery, AlertDeliveryResult } from './store/alert-store.js';
export { hasAlerts } from './store/alert-store.js';
export {
  alertChannelSender,
  type AlertSender,
  type AlertSenderOptions,
} from './targets/alert-channel-sender.js';
export { isStoreUnavailable } from './store/store-unavailable.js';
export { checkKvKey, KV_KEY_MAX_CHARS, KV_LIST_MAX } from './store/kv-rules.js';
export { storageError, storageFault, type StorageFault } from './store/storage-faults.js';
export { DATABASE_OUTAGES, databaseOutage, type DatabaseOutage } from './store/database-outage.js';
export type { DatabaseOutageState } from './engine/database-health.js';
export {
  OVERRIDE_KINDS,
  OVERRIDE_HORIZON_MS,
  OVERRIDE_NOTE_MAX,
  type OverrideKind,
  type OccurrenceOverride,
  type OverrideInput,
} from './domain/occurrence-override.js';
export { OCCURRENCES_MAX, MOVED_LOOKBACK_MS, type UpcomingOccurrence } from './occurrence-overrides.js';
