// The dashboard's client of Punctual's HTTP API and the only module that calls fetch. Its types and lists of
// names come from src/api-schema.ts, generated from the service's /openapi.json (never typed here by hand);
// requests go through openapi-fetch. What stays here is thin: the API key, kept in sessionStorage (gone when
// the browser session ends) and sent as a bearer token, and every non-2xx answer turned into an ApiError
// that carries the service's `{ error: { code, message, details } }`. It knows nothing of the database.

import createClient from 'openapi-fetch';
import {
  calendarWorkingDaysAnyOf0Values,
  pathsV1SchedulesGetParametersQueryTargetValues,
  runStateValues,
  scheduleStateValues,
  type components,
  type paths,
} from './api-schema.ts';

type Schemas = components['schemas'];

export type Schedule = Schemas['Schedule'];
export type ScheduleState = Schedule['state'];
export type Target = Schemas['Target'];
export type Policies = Schemas['Policies'];
export type ScheduleInput = Schemas['PutScheduleInput'];
export type Run = Schemas['Run'];
export type RunState = Run['state'];
export type Attempt = Schemas['Attempt'];
export type RunDetail = Schemas['RunDetail'];
export type Tenant = Schemas['Tenant'];
export type Preview = Schemas['Preview'];
export type PreviewNote = Schemas['PreviewNote'];
export type PreviewDropped = Schemas['PreviewDropped'];
export type DstChoice = Schemas['DstChoice'];
export type Revision = Schemas['Revision'];
export type RevisionDetail = Schemas['RevisionDetail'];
export type DryRun = Schemas['DryRun'];
export type Occurrence = Schemas['Occurrence'];
export type OccurrenceOverride = Schemas['OccurrenceOverride'];
export type MetricsSnapshot = Schemas['MetricsSnapshot'];
export type Alert = Schemas['Alert'];
export type Calendar = Schemas['Calendar'];
export type CalendarDetail = Schemas['CalendarDetail'];
export type CalendarDate = Schemas['CalendarDate'];
export type CalendarInput = Schemas['PutCalendarInput'];
export type CalendarImportInput = Schemas['ImportCalendarInput'];
export type CalendarImport = Schemas['CalendarImport'];
export type CalendarRevision = Schemas['CalendarRevision'];
export type CalendarRollback = Schemas['CalendarRollbackResult'];
export type Weekday = NonNullable<Calendar['workingDays']>[number];
/** The days of the week a calendar's working days name, Monday first, from the OpenAPI document. */
export const WEEKDAYS: readonly Weekday[] = calendarWorkingDaysAnyOf0Values as readonly Weekday[];

/** Every target kind the service accepts, from its OpenAPI document. */
export const TARGET_KINDS = pathsV1SchedulesGetParametersQueryTargetValues;
export type TargetKind = (typeof TARGET_KINDS)[number];
export const SCHEDULE_STATES: readonly ScheduleState[] = scheduleStateValues;
export const RUN_STATES: readonly RunState[] = runStateValues;

/** A target of kind K, e.g. TargetOf<'script'> is `{ script: { source, ... } }`. */
export type TargetOf<K extends TargetKind> = Extract<Target, Record<K, unknown>>;

/** The kind of a target: its one key. */
export function targetKind(t: Target): TargetKind {
  const key = Object.keys(t)[0];
  return (TARGET_KINDS as readonly string[]).includes(key ?? '') ? (key as TargetKind) : 'handler';
}

/**
 * What a run's error may carry beyond code and message: a script's console output and stack (size-capped by
 * the service). Typed here until the service's schema describes `details`.
 */
/** A run's error beyond code and message (a script's logs and stack), as the service sends it. */
export type RunErrorDetails = Pick<Schemas['RunErrorDetails'], 'logs' | 'stack'>;
export type RunError = NonNullable<Run['error']>;

export type Page<T> = { items: T[]; nextCursor: string | null };

type Query<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } }
  ? NonNullable<Q>
  : never;
export type ScheduleQuery = Query<'/v1/schedules'>;
export type RunQuery = Query<'/v1/runs'>;

/** The service's error body, or one made up for a network failure (code NETWORK) or a non-JSON answer. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

const KEY_STORAGE = 'punctual.apiKey';

/** The API key of this browser session, or null when signed out. */
export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(KEY_STORAGE);
  } catch {
    return null;
  }
}

export function storeKey(key: string | null): void {
  try {
    if (key === null) sessionStorage.removeItem(KEY_STORAGE);
    else sessionStorage.setItem(KEY_STORAGE, key);
  } catch {
    // Storage refused (private mode): the key lives as long as the page.
  }
}

export interface ApiClientOptions {
  /** Base URL of the service; '' means the page's own origin. */
  baseUrl?: string;
  /** Returns the API key to send. */
  key: () => string | null;
  /** Called when the service answers 401 (the key was revoked or is wrong). */
  onUnauthorized?: () => void;
  fetch?: (request: Request) => Promise<Response>;
}

/** The API as the dashboard uses it. Every method rejects with ApiError. */
export interface Api {
  tenant(key?: string): Promise<Tenant>;
  listSchedules(q: ScheduleQuery, signal?: AbortSignal): Promise<Page<Schedule>>;
  getSchedule(key: string, signal?: AbortSignal): Promise<Schedule>;
  putSchedule(key: string, body: ScheduleInput, expectedVersion?: number): Promise<Schedule>;
  /** What a put would do (PUT ?dryRun=true), writing nothing. */
  dryRunSchedule(key: string, body: ScheduleInput, expectedVersion?: number): Promise<DryRun>;
  /** The schedule's revisions, newest first. */
  revisions(
    key: string,
    q: { cursor?: string; limit?: number },
    signal?: AbortSignal,
  ): Promise<Page<Revision>>;
  revision(key: string, version: number, signal?: AbortSignal): Promise<RevisionDetail>;
  rollback(
    key: string,
    version: number,
  ): Promise<{ schedule: Schedule; changed: boolean; fromVersion: number }>;
  deleteSchedule(key: string): Promise<void>;
  pause(key: string, body: { cancelPending?: boolean; note?: string }): Promise<Schedule>;
  resume(key: string): Promise<Schedule>;
  trigger(key: string, body?: { payload?: unknown }): Promise<Run>;
  backfill(key: string, body: { from: string; to: string }): Promise<unknown>;
  scheduleRuns(key: string, q: Omit<RunQuery, 'scheduleKey'>, signal?: AbortSignal): Promise<Page<Run>>;
  listRuns(q: RunQuery, signal?: AbortSignal): Promise<Page<Run>>;
  getRun(id: string, signal?: AbortSignal): Promise<RunDetail>;
  cancelRun(id: string): Promise<Run>;
  preview(
    body: {
      spec: string;
      tz?: string;
      from?: string;
      count?: number;
      dst?: Partial<DstChoice>;
      exclude?: string[];
      businessDays?: { calendar: string; roll?: 'skip' | 'next' | 'previous' };
    },
    signal?: AbortSignal,
  ): Promise<Preview>;
  /** A saved schedule's next occurrences as they will really run (its calendars and overrides applied). */
  schedulePreview(
    key: string,
    count: number,
    signal?: AbortSignal,
    /** explain: also list the candidates dropped and why (`dropped`). */
    opts?: { explain?: boolean },
  ): Promise<Preview>;
  /** The service's health metrics (GET /v1/metrics). */
  metrics(signal?: AbortSignal): Promise<MetricsSnapshot>;
  /** The schedule's upcoming occurrences with their overrides. */
  occurrences(key: string, count: number, signal?: AbortSignal): Promise<{ occurrences: Occurrence[] }>;
  overrideOccurrence(
    key: string,
    instant: string,
    body: { kind: OccurrenceOverride['kind']; moveTo?: string; payload?: unknown; note?: string },
  ): Promise<unknown>;
  removeOverride(key: string, instant: string): Promise<void>;
  /** Alerts, newest first: the open ones with `state: 'open'`, those of one schedule with `schedule`. */
  alerts(
    q: { state?: Alert['state']; schedule?: string; limit?: number },
    signal?: AbortSignal,
  ): Promise<{ items: Alert[] }>;
  /** The tenant's calendars, by name. */
  calendars(signal?: AbortSignal): Promise<{ items: Calendar[] }>;
  /** A calendar with the keys of up to 10 schedules using it. */
  getCalendar(name: string, signal?: AbortSignal): Promise<CalendarDetail>;
  putCalendar(name: string, body: CalendarInput, expectedVersion?: number): Promise<Calendar>;
  /** Creates or replaces a calendar from an .ics text's all-day events. */
  importCalendar(name: string, body: CalendarImportInput, expectedVersion?: number): Promise<CalendarImport>;
  deleteCalendar(name: string, expectedVersion?: number): Promise<void>;
  /** The calendar's revisions, newest first. */
  calendarRevisions(
    name: string,
    q: { cursor?: string; limit?: number },
    signal?: AbortSignal,
  ): Promise<Page<CalendarRevision>>;
  rollbackCalendar(name: string, version: number): Promise<CalendarRollback>;
}

/** The ApiError for a non-2xx answer and its (possibly absent or non-JSON) body. */
export function errorOf(res: Response, body: unknown): ApiError {
  const err = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)
    ?.error;
  if (err && typeof err.code === 'string') {
    return new ApiError(
      res.status,
      err.code,
      typeof err.message === 'string' ? err.message : err.code,
      typeof err.details === 'object' && err.details !== null ? (err.details as Record<string, unknown>) : {},
    );
  }
  return new ApiError(
    res.status,
    `HTTP_${res.status}`,
    `the service answered ${res.status} ${res.statusText}`,
  );
}

/** The header a request with this key sends: an explicit key (sign-in) wins over the session's. */
const EXPLICIT_KEY = 'x-punctual-sign-in-key';

export function createApi(opts: ApiClientOptions): Api {
  const doFetch = opts.fetch ?? ((request: Request) => fetch(request));
  const client = createClient<paths>({
    baseUrl: opts.baseUrl || (typeof location === 'undefined' ? 'http://localhost' : location.origin),
    fetch: async (request: Request) => {
      const explicit = request.headers.get(EXPLICIT_KEY);
      request.headers.delete(EXPLICIT_KEY);
      const key = explicit ?? opts.key();
      if (key) request.headers.set('authorization', `Bearer ${key}`);
      request.headers.set('accept', 'application/json');
      let res: Response;
      try {
        res = await doFetch(request);
      } catch (e) {
        if ((e as Error)?.name === 'AbortError') throw e;
        throw new ApiError(0, 'NETWORK', 'the service could not be reached; check that it is running');
      }
      if (res.status === 401 && explicit === null) opts.onUnauthorized?.();
      return res;
    },
  });

  /** The data of a 2xx answer; an ApiError otherwise. */
  async function unwrap<T>(
    call: Promise<{ data?: T; error?: unknown; response: Response }>,
  ): Promise<NonNullable<T>> {
    let result: { data?: T; error?: unknown; response: Response };
    try {
      result = await call;
    } catch (e) {
      // openapi-fetch reads every body as JSON: a 2xx or error body that is not JSON lands here.
      if (e instanceof ApiError || (e as Error)?.name === 'AbortError') throw e;
      throw new ApiError(0, 'BAD_ANSWER', `the service's answer could not be read: ${(e as Error).message}`);
    }
    if (!result.response.ok) throw errorOf(result.response, result.error);
    return result.data as NonNullable<T>;
  }

  const key = (k: string) => ({ path: { key: k } });
  const cal = (n: string) => ({ path: { name: n } });
  const id = (i: string) => ({ path: { id: i } });
  const ifMatch = (v: number | undefined) => (v === undefined ? {} : { 'if-match': String(v) });

  return {
    tenant: (signInKey) =>
      unwrap(
        client.GET('/v1/tenant', {
          ...(signInKey === undefined ? {} : { headers: { [EXPLICIT_KEY]: signInKey } }),
        }),
      ),
    listSchedules: (q, signal) => unwrap(client.GET('/v1/schedules', { params: { query: q }, signal })),
    getSchedule: (k, signal) => unwrap(client.GET('/v1/schedules/{key}', { params: key(k), signal })),
    putSchedule: (k, body, expectedVersion) =>
      unwrap(
        client.PUT('/v1/schedules/{key}', {
          params: { ...key(k), header: ifMatch(expectedVersion) as never },
          body,
        }),
        // Without dryRun the answer is the schedule.
      ) as Promise<Schedule>,
    dryRunSchedule: (k, body, expectedVersion) =>
      unwrap(
        client.PUT('/v1/schedules/{key}', {
          params: { ...key(k), query: { dryRun: 'true' }, header: ifMatch(expectedVersion) as never },
          body,
        }),
        // With dryRun the answer is the dry run.
      ) as Promise<DryRun>,
    alerts: (q, signal) => unwrap(client.GET('/v1/alerts', { params: { query: q }, signal })),
    revisions: (k, q, signal) =>
      unwrap(client.GET('/v1/schedules/{key}/revisions', { params: { ...key(k), query: q }, signal })),
    revision: (k, version, signal) =>
      unwrap(
        client.GET('/v1/schedules/{key}/revisions/{version}', {
          params: { path: { key: k, version } },
          signal,
        }),
      ),
    rollback: (k, version) =>
      unwrap(client.POST('/v1/schedules/{key}/rollback', { params: key(k), body: { version } })),
    deleteSchedule: async (k) => {
      await unwrap(client.DELETE('/v1/schedules/{key}', { params: key(k), parseAs: 'text' }));
    },
    pause: (k, body) => unwrap(client.POST('/v1/schedules/{key}/pause', { params: key(k), body })),
    resume: (k) => unwrap(client.POST('/v1/schedules/{key}/resume', { params: key(k), body: {} })),
    trigger: (k, body = {}) =>
      unwrap(client.POST('/v1/schedules/{key}/trigger', { params: key(k), body: body as never })),
    backfill: (k, body) => unwrap(client.POST('/v1/schedules/{key}/backfill', { params: key(k), body })),
    scheduleRuns: (k, q, signal) =>
      unwrap(client.GET('/v1/schedules/{key}/runs', { params: { ...key(k), query: q }, signal })),
    listRuns: (q, signal) => unwrap(client.GET('/v1/runs', { params: { query: q }, signal })),
    getRun: (i, signal) => unwrap(client.GET('/v1/runs/{id}', { params: id(i), signal })),
    cancelRun: (i) => unwrap(client.POST('/v1/runs/{id}/cancel', { params: id(i), body: {} })),
    preview: (body, signal) => unwrap(client.POST('/v1/preview', { body, signal })),
    schedulePreview: (k, count, signal, opts = {}) =>
      unwrap(
        client.GET('/v1/schedules/{key}/preview', {
          params: { ...key(k), query: { count, ...(opts.explain ? { explain: 'true' as const } : {}) } },
          signal,
        }),
      ),
    metrics: (signal) => unwrap(client.GET('/v1/metrics', { signal })),
    occurrences: (k, count, signal) =>
      unwrap(
        client.GET('/v1/schedules/{key}/occurrences', { params: { ...key(k), query: { count } }, signal }),
      ),
    overrideOccurrence: (k, instant, body) =>
      unwrap(
        client.PUT('/v1/schedules/{key}/occurrences/{instant}', {
          params: { path: { key: k, instant } },
          body,
        }),
      ),
    calendars: (signal) => unwrap(client.GET('/v1/calendars', { signal })),
    getCalendar: (n, signal) => unwrap(client.GET('/v1/calendars/{name}', { params: cal(n), signal })),
    putCalendar: (n, body, expectedVersion) =>
      unwrap(
        client.PUT('/v1/calendars/{name}', {
          params: { ...cal(n), header: ifMatch(expectedVersion) as never },
          body,
        }),
      ),
    importCalendar: (n, body, expectedVersion) =>
      unwrap(
        client.POST('/v1/calendars/{name}/import', {
          params: { ...cal(n), header: ifMatch(expectedVersion) as never },
          body,
        }),
      ),
    deleteCalendar: async (n, expectedVersion) => {
      await unwrap(
        client.DELETE('/v1/calendars/{name}', {
          params: { ...cal(n), header: ifMatch(expectedVersion) as never },
          parseAs: 'text',
        }),
      );
    },
    calendarRevisions: (n, q, signal) =>
      unwrap(client.GET('/v1/calendars/{name}/revisions', { params: { ...cal(n), query: q }, signal })),
    rollbackCalendar: (n, version) =>
      unwrap(client.POST('/v1/calendars/{name}/rollback', { params: cal(n), body: { version } })),
    removeOverride: async (k, instant) => {
      await unwrap(
        client.DELETE('/v1/schedules/{key}/occurrences/{instant}', {
          params: { path: { key: k, instant } },
          parseAs: 'text',
        }),
      );
    },
  };
}
