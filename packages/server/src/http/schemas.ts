// The API's shapes, written once in zod (one module per part of the API under schemas/): they validate
// requests (bodies are strict, so an unknown field is a 400) and generate the OpenAPI document and response
// serialisation. The target's shape is built from the library's registry of target kinds (schemas/target.ts).
// It must never hold logic beyond shape, nor expose internal ids or secrets other than the tenant's own
// webhook secret.

export * from './schemas/common.js';
export * from './schemas/target.js';
export * from './schemas/schedules.js';
export * from './schemas/schedules-bulk.js';
export * from './schemas/runs.js';
export * from './schemas/preview.js';
export * from './schemas/tenant.js';
export * from './schemas/kv.js';
export * from './schemas/calendars.js';
export * from './schemas/calendar-revisions.js';
export * from './schemas/alerts.js';
