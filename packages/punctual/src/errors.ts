// Every error Punctual raises, declared once with a stable code. Codes are part of the public contract:
// they are listed in docs/errors.md, never reused, never renamed. This module must not import anything.

export const ERROR_CODES = {
  // Schedule input (rejected at save time, nothing changes)
  SPEC_INVALID: 'the spec string is malformed (which field and why is in the message and details)',
  SPEC_NEVER_FIRES: 'the spec is valid but can never produce an occurrence',
  TIME_ZONE_UNKNOWN:
    'the time zone is not an accepted IANA name (Area/Location, UTC or GMT): an unknown name, an abbreviation or a fixed offset',
  BOUNDS_INVALID: 'endAt is not after startAt',
  DST_INVALID:
    'the dst choice is malformed (gap: shift | skip, repeat: first | both) or given for an @every / @at spec, which has no local times',
  SCHEDULE_INVALID: 'a schedule field other than the spec is invalid (details.field names it)',
  EXPECT_INVALID:
    'a schedule `expect` is malformed: an object with successWithin, a duration between 1s and 31 days (details.field)',
  HANDLER_UNKNOWN: 'the handler target names no registered handler',
  PAYLOAD_INVALID: "the payload does not satisfy the handler's payload schema",
  TARGET_ADDRESS_REFUSED:
    'the target address is loopback, private, link-local, metadata or otherwise special and is not allowed',
  DURATION_INVALID: 'a duration is malformed or out of range',
  BROKER_NOT_CONFIGURED:
    'the broker target names no connection of its kind in the operator configuration (details.field names it)',
  BROKER_DESTINATION_INVALID:
    'the stream, subject, exchange or routing key is not allowed: wildcards, empty or dotted segments, whitespace, control characters or too long',
  BROKER_CONFIG_INVALID:
    'the operator broker configuration is invalid (details.connection names the connection)',
  BROKER_CLIENT_MISSING: "the broker's client library is not installed in this process",
  TARGET_DISABLED:
    'the target kind is one the operator must turn on (command) and it is off, or not allowed for this tenant',
  ID_TEMPLATE_INVALID:
    'a target idTemplate is invalid: an unknown placeholder, no placeholder, or a character not allowed (details.field)',
  // Calendars (dates a schedule excludes or keeps to as working days)
  CALENDAR_INVALID:
    "a calendar field is invalid: its name, a date, a label, workingDays, or a schedule's exclude / businessDays (details.field)",
  CALENDAR_RANGE_REVERSED: 'a calendar range ends before it starts (details.field)',
  CALENDAR_RANGE_OVERLAP:
    'two dates or ranges of a calendar share a day (details.field and details.overlaps)',
  CALENDAR_TOO_LARGE: 'a calendar holds more dates than the limit, or a range spans more days than the limit',
  CALENDAR_ICS_INVALID: 'the .ics text is not iCalendar, or an all-day event in it is malformed',
  CALENDAR_ICS_TOO_LARGE: 'the .ics text is larger than the import limit',
  CALENDAR_UNKNOWN: 'a schedule or preview names a calendar the tenant does not have (details.field)',
  CALENDAR_NOT_FOUND: 'no calendar with that name for this tenant',
  CALENDAR_IN_USE: 'the calendar is used by schedules and cannot be deleted (details.schedules)',
  CALENDAR_NO_WORKING_DAY:
    'a business-day roll finds no working day of its calendar within the roll limit (details.calendar)',
  // Declared schedules (scheduler.handle(..., { schedule }) and defineSchedules, applied by start())
  DECLARATION_KEY_DUPLICATE: 'two declared schedules of one scheduler have the same key (details.key)',
  DECLARATION_KEY_TAKEN:
    'a declared schedule has the key of a schedule this application did not declare: made by hand or through the API, or declared by another application (details.owner)',
  DECLARATION_AFTER_START:
    'a schedule was declared after start(): declarations are applied by start(), so declare them before it',
  // Schedule files (`punctual apply`, `punctual import crontab`)
  FILE_INVALID:
    'a schedules file is not valid YAML or JSON, or not of its shape (details.line and details.column locate it)',
  FILE_SECTION_UNKNOWN:
    'a schedules file has a top-level section other than the known ones (details.section)',
  FILE_DUPLICATE_KEY: 'a schedules file names the same schedule key twice (details.lines holds both lines)',
  // Bulk puts (`putBulk`, POST /v1/schedules/bulk, `punctual schedules import`)
  BULK_KEY_DUPLICATE:
    'a bulk put names the same schedule key twice: the later input is refused (details.firstIndex)',
  // Lookups and concurrency
  SCHEDULE_NOT_FOUND: 'no schedule with that key for this tenant',
  RUN_NOT_FOUND: 'no run with that id for this tenant',
  VERSION_CONFLICT: 'the schedule changed since the version the caller expected',
  REVISION_UNKNOWN:
    'the schedule or calendar has no kept revision with that version (never existed, dropped by retention, or of a deleted schedule with the same key)',
  RUN_NOT_CANCELLABLE: 'the run already reached a final state',
  RUN_NOT_RERUNNABLE:
    'the run cannot run again: it is not final yet, or another run holds its occurrence (details.why)',
  CURSOR_INVALID: 'the page cursor was not returned by this listing (or was altered)',
  // Per-occurrence overrides and timed pause (docs/overrides.md)
  OCCURRENCE_UNKNOWN:
    'the instant is not an occurrence of the schedule within the override horizon (details.field names the input)',
  OCCURRENCE_STARTED:
    'the occurrence already started, ended or was missed: an override can no longer change it (details.state)',
  OVERRIDE_INVALID: 'an occurrence override is malformed: its kind, moveTo, payload or note (details.field)',
  OVERRIDE_NOT_FOUND: 'the occurrence has no override to remove',
  PAUSE_UNTIL_INVALID: 'a timed pause `until` is malformed or not in the future',
  // Alerts, alert channels and checks
  ALERT_NOT_FOUND: 'no alert with that id for this tenant',
  ALERT_CHANNEL_INVALID:
    'an alert channel body is invalid: name, kind, url or routing key (details.field names it)',
  ALERT_CHANNEL_NOT_FOUND: 'no alert channel with that name for this tenant',
  CHECK_INVALID: 'a check body is invalid: name, kind or interval (details.field names it)',
  CHECK_DEADLINE_UNMEETABLE:
    'a deadline check can never be met: `within` not above zero or not shorter than the gap to the next window, or a spec that never opens a window (details.field)',
  CHECK_NOT_FOUND: 'no check with that name for this tenant (a heartbeat names a check that does not exist)',
  // Tenancy
  TENANT_INVALID: 'a tenant field is invalid: the id, a quota or the webhook secret (details.field names it)',
  TENANT_EXISTS: 'a tenant with that id already exists',
  TENANT_NOT_FOUND: 'no tenant with that id',
  API_KEY_NOT_FOUND: 'no live API key with that id for this tenant',
  // Store
  SCHEMA_TOO_NEW: 'the database was migrated by a newer Punctual; refusing to run against it',
  STORE_CLOSED: 'the store was closed',
  STORE_NOT_MIGRATED:
    'the database has no Punctual tables yet: call scheduler.start() or migrate() (or store.migrate()) first',
  STORAGE_CORRUPT:
    'the database reported damaged pages or a file that is not a database (SQLITE_CORRUPT, SQLITE_NOTADB, XX001)',
  STORAGE_FULL: 'the disk holding the database is full (SQLITE_FULL, PostgreSQL 53100 disk_full)',
  STORE_DRIVER_UNAVAILABLE:
    'the SQLite driver asked for is unknown or cannot be loaded here (not installed, or this Node has no node:sqlite)',
  // Run errors (recorded on attempts and runs)
  ATTEMPT_TIMEOUT: 'the attempt ran past its timeout',
  ATTEMPT_FAILED: 'the target reported a failure or threw',
  LEASE_EXPIRED: "the worker's lease lapsed before it settled the run (crash, pause, stalled loop)",
  LEASE_LOST:
    "the worker lost the run's lease while delivering it (cancelled or reclaimed): on the attempt's span only",
  CHECK_LIMIT_REACHED: 'check-again was asked beyond maxChecks or past the horizon',
  CHECK_AGAIN_IN_PAST: 'check-again was asked for an instant before the attempt ended',
  RESULT_TOO_LARGE: 'the result exceeded the size cap and was not stored',
  WEBHOOK_TIMEOUT: 'the webhook did not answer within its timeout (or the attempt was aborted)',
  WEBHOOK_CONNECTION: 'the webhook could not be reached (DNS, refused, reset, TLS)',
  WEBHOOK_SECRET_UNAVAILABLE: "the tenant's webhook signing secret could not be read",
  BROKER_UNAVAILABLE:
    'the broker could not be reached, or the connection was lost before the publish was acknowledged',
  BROKER_PUBLISH_FAILED:
    'the broker refused the message, did not acknowledge it in time, or could not route it',
  COMMAND_FAILED:
    'the command exited with a code other than 0, was killed by a signal, or could not start (details hold its exit and output)',
  // Scripts (the sandbox) and their key-value store
  SCRIPT_SYNTAX_ERROR: 'the script does not compile (details.line and details.column locate the error)',
  SCRIPT_TOO_LARGE: "the script's source is larger than the operator's limit",
  SCRIPT_TIMEOUT: 'the script ran past its time limit (or was aborted) and was stopped',
  SCRIPT_OUT_OF_MEMORY: 'the script used more memory (or stack) than its limit and was stopped',
  SCRIPT_RESULT_TOO_LARGE: "the script's return value, as JSON, is larger than the limit",
  SCRIPT_HOST_CALL_REFUSED:
    'the script asked the host for something it may not have: a refused address or host, or a per-run call limit',
  SCRIPT_FAILED: "the script threw (message and stack are the script's), or the sandbox could not run it",
  KV_INVALID:
    'a key-value key or value is invalid (key: 1 to 256 characters, no control characters; value: JSON)',
  KV_QUOTA_EXCEEDED: "the tenant's key-value store is full (number of keys) or the value is too large",
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The one error class of the library. `code` is stable; `details` is JSON-serialisable. */
export class PunctualError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PunctualError';
    this.code = code;
    this.details = details;
  }

  toJSON(): { code: ErrorCode; message: string; details?: Record<string, unknown> } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

export function isPunctualError(e: unknown, code?: ErrorCode): e is PunctualError {
  return e instanceof PunctualError && (code === undefined || e.code === code);
}

/** Turns anything thrown into `{ code?, message, stack? }` fit for a run's history. */
export function describeThrown(e: unknown): { code?: string; message: string; stack?: string } {
  if (e instanceof PunctualError) return { code: e.code, message: e.message };
  if (e instanceof Error) return { message: e.message, ...(e.stack ? { stack: e.stack } : {}) };
  return { message: typeof e === 'string' ? e : (JSON.stringify(e) ?? String(e)) };
}
