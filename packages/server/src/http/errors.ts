// The HTTP error contract: every error body is `{ "error": { "code", "message", "details" } }`. This module
// owns the codes the service adds, the one table from library codes to statuses, and `toErrorReply`, which
// turns anything thrown (library errors, Fastify's parse, limit and validation errors) into that body. Client
// input must never come out as a 500; only a fault of the service itself does, and its message is generic. A
// database that does not answer is 503 NOT_READY with Retry-After, never a 500.

import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isPunctualError, isStoreUnavailable, storageError, storageFault, type ErrorCode } from 'punctual';

/** Codes only the service raises (documented in docs/errors.md, "Service"). Never renamed, never reused. */
export const SERVICE_ERROR_CODES = {
  UNAUTHORIZED:
    'no valid API key: the Authorization header is missing or malformed, or the key is unknown, revoked, or its tenant is disabled',
  RATE_LIMITED:
    'the tenant sent more requests per second than its rate limit allows (Retry-After says when to retry)',
  QUOTA_EXCEEDED: 'the request would take the tenant past one of its quotas (details.quota names it)',
  VALIDATION_FAILED:
    'the request does not match its schema: a wrong type, a missing or unknown field, a value out of range',
  MALFORMED_JSON: 'the body is not valid JSON',
  MALFORMED_REQUEST: 'the request itself is broken (bad Content-Length, bad URL encoding)',
  BODY_TOO_LARGE: 'the body is larger than the service accepts (PUNCTUAL_BODY_LIMIT)',
  URI_TOO_LONG: 'a path segment is longer than any key or id can be (500 characters)',
  UNSUPPORTED_MEDIA_TYPE: 'the body is not application/json',
  NOT_FOUND: 'no route answers this method and path',
  NOT_READY: 'the service is starting or stopping, or its database is unreachable',
  INTERNAL: 'the service failed; the log has the details (never caused by request content)',
} as const;

export type ServiceErrorCode = keyof typeof SERVICE_ERROR_CODES;

/** Seconds a 503 NOT_READY asks the client to wait (Retry-After). */
const RETRY_AFTER_S = 5;

/** Status of every library error code. Exhaustive: a new library code does not compile until it is placed. */
export const LIBRARY_STATUS: Record<ErrorCode, number> = {
  SPEC_INVALID: 400,
  SPEC_NEVER_FIRES: 400,
  TIME_ZONE_UNKNOWN: 400,
  BOUNDS_INVALID: 400,
  DST_INVALID: 400,
  SCHEDULE_INVALID: 400,
  HANDLER_UNKNOWN: 400,
  PAYLOAD_INVALID: 400,
  TARGET_ADDRESS_REFUSED: 400,
  DURATION_INVALID: 400,
  BROKER_NOT_CONFIGURED: 400,
  BROKER_DESTINATION_INVALID: 400,
  // The target kind cannot be served by this process: like a kind that is not enabled, the schedule is refused.
  BROKER_CLIENT_MISSING: 400,
  // The operator has not turned the kind on (for this tenant): refused like a kind that is not enabled.
  TARGET_DISABLED: 400,
  ID_TEMPLATE_INVALID: 400,
  SCRIPT_SYNTAX_ERROR: 400,
  SCRIPT_TOO_LARGE: 400,
  KV_INVALID: 400,
  CALENDAR_INVALID: 400,
  CALENDAR_RANGE_REVERSED: 400,
  CALENDAR_RANGE_OVERLAP: 400,
  CALENDAR_TOO_LARGE: 400,
  CALENDAR_ICS_INVALID: 400,
  CALENDAR_ICS_TOO_LARGE: 413,
  CALENDAR_UNKNOWN: 400,
  CALENDAR_NO_WORKING_DAY: 400,
  CALENDAR_NOT_FOUND: 404,
  CALENDAR_IN_USE: 409,
  ALERT_CHANNEL_INVALID: 400,
  CHECK_INVALID: 400,
  CHECK_DEADLINE_UNMEETABLE: 400,
  EXPECT_INVALID: 400,
  // A new key beyond the tenant's key quota; a value over the size limit is 413 (libraryStatus).
  KV_QUOTA_EXCEEDED: 429,
  // The operator's configuration is wrong: not the caller's fault.
  BROKER_CONFIG_INVALID: 500,
  CURSOR_INVALID: 400,
  // Raised only by the library's start() (declared schedules), before a service listens.
  DECLARATION_KEY_DUPLICATE: 500,
  DECLARATION_KEY_TAKEN: 500,
  DECLARATION_AFTER_START: 500,
  // Raised by the command line reading a schedules file; the API never reads one.
  FILE_INVALID: 400,
  FILE_SECTION_UNKNOWN: 400,
  FILE_DUPLICATE_KEY: 400,
  BULK_KEY_DUPLICATE: 400,
  SCHEDULE_NOT_FOUND: 404,
  RUN_NOT_FOUND: 404,
  ALERT_NOT_FOUND: 404,
  ALERT_CHANNEL_NOT_FOUND: 404,
  CHECK_NOT_FOUND: 404,
  REVISION_UNKNOWN: 404,
  VERSION_CONFLICT: 409,
  RUN_NOT_CANCELLABLE: 409,
  RUN_NOT_RERUNNABLE: 409,
  // Per-occurrence overrides and timed pause.
  OCCURRENCE_UNKNOWN: 400,
  OVERRIDE_INVALID: 400,
  PAUSE_UNTIL_INVALID: 400,
  OVERRIDE_NOT_FOUND: 404,
  OCCURRENCE_STARTED: 409,
  TENANT_INVALID: 400,
  TENANT_EXISTS: 409,
  TENANT_NOT_FOUND: 404,
  API_KEY_NOT_FOUND: 404,
  SCHEMA_TOO_NEW: 503,
  STORE_CLOSED: 503,
  STORE_NOT_MIGRATED: 503,
  // Storage faults keep their own code (toErrorReply); a full disk also says when to retry.
  STORAGE_CORRUPT: 503,
  STORAGE_FULL: 503,
  // Raised only while opening the store, before the service listens.
  STORE_DRIVER_UNAVAILABLE: 500,
  // Run errors are recorded on runs, never thrown at an API caller; if one escapes it is the service's fault.
  ATTEMPT_TIMEOUT: 500,
  ATTEMPT_FAILED: 500,
  LEASE_EXPIRED: 500,
  LEASE_LOST: 500,
  CHECK_LIMIT_REACHED: 500,
  CHECK_AGAIN_IN_PAST: 500,
  RESULT_TOO_LARGE: 500,
  WEBHOOK_TIMEOUT: 500,
  WEBHOOK_CONNECTION: 500,
  WEBHOOK_SECRET_UNAVAILABLE: 500,
  BROKER_UNAVAILABLE: 500,
  BROKER_PUBLISH_FAILED: 500,
  COMMAND_FAILED: 500,
  SCRIPT_TIMEOUT: 500,
  SCRIPT_OUT_OF_MEMORY: 500,
  SCRIPT_RESULT_TOO_LARGE: 500,
  SCRIPT_HOST_CALL_REFUSED: 500,
  SCRIPT_FAILED: 500,
};

/**
 * The status of a library error: LIBRARY_STATUS, except a key-value value over the size limit, which is a
 * body too large (413) rather than a quota of the tenant's reached (429).
 */
export function libraryStatus(code: ErrorCode, details?: Record<string, unknown>): number {
  if (code === 'KV_QUOTA_EXCEEDED' && details?.field === 'value') return 413;
  return LIBRARY_STATUS[code] ?? 500;
}

export interface ErrorBody {
  error: { code: string; message: string; details: Record<string, unknown> };
}

/** An error the service raises on purpose, with its status and headers. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ServiceErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function errorBody(code: string, message: string, details: Record<string, unknown> = {}): ErrorBody {
  return { error: { code, message, details } };
}

export interface ErrorReply {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** True when the service itself failed (the caller logs it at error level). */
  internal: boolean;
}

interface ValidationIssue {
  instancePath: string;
  message: string;
  params?: { keys?: string[] };
}

const PLACE: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'headers',
};

function validationReply(err: FastifyError & { validationContext?: string }): ErrorReply {
  const where = PLACE[err.validationContext ?? 'body'] ?? 'body';
  const issues = (err.validation as unknown as ValidationIssue[]).slice(0, 20).map((i) => {
    const path = i.instancePath.split('/').filter(Boolean);
    // An unknown field is reported at its parent; name the field itself.
    const unknown = i.params?.keys?.[0];
    return unknown === undefined
      ? { field: path.join('.'), message: i.message }
      : { field: [...path, unknown].join('.'), message: 'is not a known field' };
  });
  const first = issues[0] ?? { field: '', message: 'is invalid' };
  const name = first.field === '' ? `the ${where}` : `${where}.${first.field}`;
  return {
    status: 400,
    body: errorBody('VALIDATION_FAILED', `${name}: ${first.message}`, {
      in: where,
      field: first.field,
      issues,
    }),
    headers: {},
    internal: false,
  };
}

function fastifyReply(err: FastifyError): ErrorReply | undefined {
  const reply = (status: number, code: ServiceErrorCode, message: string, details = {}): ErrorReply => ({
    status,
    body: errorBody(code, message, details),
    headers: {},
    internal: false,
  });
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return reply(413, 'BODY_TOO_LARGE', 'the request body is larger than the service accepts');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return reply(415, 'UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json', {
        expected: 'application/json',
      });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return reply(400, 'MALFORMED_JSON', 'the body is not valid JSON');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return reply(400, 'MALFORMED_REQUEST', 'Content-Length does not match the body');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return reply(414, 'URI_TOO_LONG', 'a path segment is longer than any key or id can be');
    case 'FST_ERR_BAD_URL':
      return reply(400, 'MALFORMED_REQUEST', 'the URL is not valid (bad percent-encoding?)');
  }
  // The JSON parser's own refusals (prototype poisoning, syntax) carry no Fastify code.
  if (err instanceof SyntaxError && err.statusCode === 400)
    return reply(400, 'MALFORMED_JSON', 'the body is not valid JSON');
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    if (err.statusCode === 404) return reply(404, 'NOT_FOUND', 'no such route');
    if (err.statusCode === 413) return reply(413, 'BODY_TOO_LARGE', 'the request body is too large');
    if (err.statusCode === 415)
      return reply(415, 'UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json');
    return reply(400, 'MALFORMED_REQUEST', 'the request could not be read');
  }
  return undefined;
}

/** Maps anything thrown while answering a request to its status, body and headers. */
export function toErrorReply(err: unknown): ErrorReply {
  if (err instanceof HttpError) {
    return {
      status: err.status,
      body: errorBody(err.code, err.message, err.details),
      headers: err.headers,
      internal: false,
    };
  }
  const fault = storageFault(err);
  if (fault !== null) {
    const e = storageError(fault);
    return {
      status: 503,
      body: errorBody(e.code, e.message),
      // A full disk may have room soon; damage needs the operator.
      headers: fault === 'full' ? { 'retry-after': '30' } : {},
      internal: false,
    };
  }
  if (isPunctualError(err)) {
    const status = libraryStatus(err.code, err.details);
    if (status >= 500 && status !== 503) return internalReply();
    return {
      status,
      body:
        status === 503
          ? errorBody('NOT_READY', err.message, { cause: err.code })
          : errorBody(err.code, err.message, err.details ?? {}),
      headers: status === 503 ? { 'retry-after': String(RETRY_AFTER_S) } : {},
      internal: status === 503,
    };
  }
  if (isStoreUnavailable(err)) return notReadyReply();
  if (hasZodFastifySchemaValidationErrors(err)) return validationReply(err as FastifyError);
  if (typeof err === 'object' && err !== null && 'code' in err) {
    const mapped = fastifyReply(err as FastifyError);
    if (mapped) return mapped;
  }
  return internalReply();
}

/** The database did not answer: the client may retry (docs/api.md, "Errors"). */
export function notReadyReply(): ErrorReply {
  return {
    status: 503,
    body: errorBody('NOT_READY', 'the database does not answer; retry later', { database: 'unreachable' }),
    headers: { 'retry-after': String(RETRY_AFTER_S) },
    internal: true,
  };
}

function internalReply(): ErrorReply {
  return {
    status: 500,
    body: errorBody('INTERNAL', 'the service failed to answer; the error is in its log'),
    headers: {},
    internal: true,
  };
}
