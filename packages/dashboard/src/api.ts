// The typed client of Punctual's HTTP API and the only module that calls fetch. It owns the API key, kept in
// sessionStorage (gone when the browser session ends), and turns every non-2xx answer into an ApiError that
// carries the service's `{ error: { code, message, details } }`. It knows nothing of the database.

export type ScheduleState = 'active' | 'paused' | 'completed';
export type RunState = 'scheduled' | 'running' | 'succeeded' | 'dead' | 'skipped' | 'expired' | 'cancelled';
export type TargetKind = 'handler' | 'webhook';

export const SCHEDULE_STATES: readonly ScheduleState[] = ['active', 'paused', 'completed'];
export const RUN_STATES: readonly RunState[] = [
  'scheduled',
  'running',
  'succeeded',
  'dead',
  'skipped',
  'expired',
  'cancelled',
];
export const TARGET_KINDS: readonly TargetKind[] = ['handler', 'webhook'];

export interface WebhookTarget {
  url: string;
  method?: 'POST' | 'PUT' | 'PATCH';
  headers?: Record<string, string>;
  timeoutMs?: number;
}
export type Target = { handler: string } | { webhook: WebhookTarget };

export interface Policies {
  retry: {
    maxAttempts: number;
    backoff: 'fixed' | 'exponential';
    delayMs: number;
    maxDelayMs: number;
    jitter: boolean;
  };
  timeoutMs: number;
  overlap: 'allow' | 'skip' | 'bufferOne' | 'bufferAll' | 'cancelPrevious';
  misfire: 'skip' | 'runOnce' | 'runAll';
  catchupWindowMs: number;
  maxCatchup: number;
  deadlineMs: number | null;
  priority: number;
  maxChecks: number;
  checkHorizonMs: number;
}

export interface Schedule {
  key: string;
  spec: string;
  tz: string;
  description: string;
  target: Target;
  payload: unknown;
  policies: Policies;
  startAt: string | null;
  endAt: string | null;
  maxRuns: number | null;
  jitterMs: number;
  state: ScheduleState;
  version: number;
  nextFireAt: string | null;
  firedCount: number;
  note: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The body of PUT /v1/schedules/{key}: every field but the spec and target may be left out. */
export interface ScheduleInput {
  spec: string;
  tz?: string;
  target: Target;
  payload?: unknown;
  policies?: Partial<Omit<Policies, 'retry'>> & { retry?: Partial<Policies['retry']> };
  startAt?: string | null;
  endAt?: string | null;
  maxRuns?: number | null;
  jitter?: number | string;
}

export interface RunError {
  code?: string;
  message: string;
}

export interface Run {
  id: string;
  scheduleKey: string;
  occurrenceId: string;
  kind: 'scheduled' | 'manual' | 'backfill';
  state: RunState;
  scheduledFor: string;
  dueAt: string;
  expiresAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  attempt: number;
  maxAttempts: number;
  checks: number;
  reason: string | null;
  error: RunError | null;
  result: unknown;
  details: unknown;
  createdAt: string;
}

export interface Attempt {
  attempt: number;
  startedAt: string;
  finishedAt: string;
  outcome: string;
  error: RunError | null;
  result: unknown;
}

export interface RunDetail extends Run {
  attempts: Attempt[];
}

export interface Tenant {
  name: string;
  state?: 'active' | 'disabled';
  quotas: { maxSchedules: number | null; maxRunsPerMinute: number | null; requestsPerSecond: number | null };
  webhookSecret: string;
  previousSecretExpiresAt?: string | null;
  createdAt?: string;
}

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface Preview {
  description: string;
  next: string[];
}

export interface ScheduleQuery {
  state?: ScheduleState | undefined;
  target?: TargetKind | undefined;
  keyPrefix?: string | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
}

export interface RunQuery {
  state?: RunState | undefined;
  scheduleKey?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
}

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

type Query = Record<string, string | number | undefined>;

function queryString(q: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s === '' ? '' : `?${s}`;
}

const enc = encodeURIComponent;

export interface ApiClientOptions {
  /** Base URL of the service; '' means the page's own origin. */
  baseUrl?: string;
  /** Returns the API key to send. */
  key: () => string | null;
  /** Called when the service answers 401 (the key was revoked or is wrong). */
  onUnauthorized?: () => void;
  fetch?: typeof fetch;
}

/** The API as the dashboard uses it. Every method rejects with ApiError. */
export interface Api {
  tenant(key?: string): Promise<Tenant>;
  listSchedules(q: ScheduleQuery, signal?: AbortSignal): Promise<Page<Schedule>>;
  getSchedule(key: string, signal?: AbortSignal): Promise<Schedule>;
  putSchedule(key: string, body: ScheduleInput, expectedVersion?: number): Promise<Schedule>;
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
    body: { spec: string; tz?: string; from?: string; count?: number },
    signal?: AbortSignal,
  ): Promise<Preview>;
  metrics(signal?: AbortSignal): Promise<string>;
}

export function createApi(opts: ApiClientOptions): Api {
  const base = opts.baseUrl ?? '';
  const doFetch = opts.fetch ?? ((input, init) => fetch(input, init));

  async function request<T>(
    method: string,
    path: string,
    init: {
      body?: unknown;
      signal?: AbortSignal | undefined;
      headers?: Record<string, string>;
      key?: string;
    } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
    const key = init.key ?? opts.key();
    if (key) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (init.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.body);
    }
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, { method, headers, body, signal: init.signal ?? null });
    } catch (e) {
      if ((e as Error)?.name === 'AbortError') throw e;
      throw new ApiError(0, 'NETWORK', 'the service could not be reached; check that it is running');
    }
    const text = await res.text();
    let json: unknown = undefined;
    if (text !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    if (!res.ok) {
      const err = (json as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)
        ?.error;
      const apiError =
        err && typeof err.code === 'string'
          ? new ApiError(
              res.status,
              err.code,
              typeof err.message === 'string' ? err.message : err.code,
              typeof err.details === 'object' && err.details !== null
                ? (err.details as Record<string, unknown>)
                : {},
            )
          : new ApiError(
              res.status,
              `HTTP_${res.status}`,
              `the service answered ${res.status} ${res.statusText}`,
            );
      if (res.status === 401 && init.key === undefined) opts.onUnauthorized?.();
      throw apiError;
    }
    return json as T;
  }

  return {
    tenant: (key) => request('GET', '/v1/tenant', key === undefined ? {} : { key }),
    listSchedules: (q, signal) => request('GET', `/v1/schedules${queryString({ ...q })}`, { signal }),
    getSchedule: (key, signal) => request('GET', `/v1/schedules/${enc(key)}`, { signal }),
    putSchedule: (key, body, expectedVersion) =>
      request('PUT', `/v1/schedules/${enc(key)}`, {
        body,
        ...(expectedVersion === undefined ? {} : { headers: { 'if-match': String(expectedVersion) } }),
      }),
    deleteSchedule: async (key) => {
      await request('DELETE', `/v1/schedules/${enc(key)}`);
    },
    pause: (key, body) => request('POST', `/v1/schedules/${enc(key)}/pause`, { body }),
    resume: (key) => request('POST', `/v1/schedules/${enc(key)}/resume`, { body: {} }),
    trigger: (key, body = {}) => request('POST', `/v1/schedules/${enc(key)}/trigger`, { body }),
    backfill: (key, body) => request('POST', `/v1/schedules/${enc(key)}/backfill`, { body }),
    scheduleRuns: (key, q, signal) =>
      request('GET', `/v1/schedules/${enc(key)}/runs${queryString({ ...q })}`, { signal }),
    listRuns: (q, signal) => request('GET', `/v1/runs${queryString({ ...q })}`, { signal }),
    getRun: (id, signal) => request('GET', `/v1/runs/${enc(id)}`, { signal }),
    cancelRun: (id) => request('POST', `/v1/runs/${enc(id)}/cancel`, { body: {} }),
    preview: (body, signal) => request('POST', '/v1/preview', { body, signal }),
    metrics: async (signal) => {
      let res: Response;
      try {
        res = await doFetch(`${base}/metrics`, { headers: { accept: 'text/plain' }, signal: signal ?? null });
      } catch (e) {
        if ((e as Error)?.name === 'AbortError') throw e;
        throw new ApiError(0, 'NETWORK', 'the service could not be reached; check that it is running');
      }
      if (!res.ok) throw new ApiError(res.status, `HTTP_${res.status}`, `/metrics answered ${res.status}`);
      return res.text();
    },
  };
}
