// The public API of the library. Re-exports only; no logic lives here.

export { createScheduler, Scheduler, DEFAULT_DATABASE_PATH } from './scheduler.js';
export type { SchedulerOptions, ResolvedOptions } from './options.js';
export { TenantApi, type PutResult } from './tenant-api.js';
export { systemClock, offsetClock, type Clock, type CancelTimer } from './clock.js';
export { EventBus, type PunctualEvents, type EventName, type Listener } from './events.js';
export { PunctualError, ERROR_CODES, isPunctualError, type ErrorCode } from './errors.js';
export { ok, retry, fail, checkAgain } from './targets/outcomes.js';
export type { Handler, HandlerContext, PayloadSchema } from './targets/handler-target.js';
export type { TargetDriver, Delivery } from './targets/target.js';
export type { Outcome } from './domain/outcome.js';
export type { Json } from './domain/json.js';
export type { Run, RunState, RunKind, RunReason, RunError, Attempt } from './domain/run.js';
export { DEFAULT_TENANT, type Schedule, type ScheduleInput, type ScheduleState } from './domain/schedule.js';
export {
  DEFAULT_POLICIES,
  type Policies,
  type RetryPolicy,
  type OverlapPolicy,
  type MisfirePolicy,
} from './domain/policies.js';
export type { Target, TargetKind } from './domain/target.js';
export { previewSpec } from './domain/spec/preview-spec.js';
export { compileSpec } from './domain/spec/compile-spec.js';
export { parseDuration } from './domain/spec/duration.js';
export type { CompiledSpec, SpecKind } from './domain/spec/compiled-spec.js';
export type { Store, StoreCapabilities, Transition, Page } from './store/store.js';
export { sqliteStore, SqliteStore } from './store/sqlite/sqlite-store.js';
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
export { AddressGuard, parseCidrList, isForbiddenAddress } from './targets/address-guard.js';
