// The client side of the commands that talk to a running service (schedules, runs): where it is (--url,
// PUNCTUAL_URL, default http://127.0.0.1:8080), which key to send (--key, PUNCTUAL_API_KEY), one JSON
// request at a time, and the one way an API error or an unreachable service is reported. It never prints
// or logs the key, and never retries a request on its own.

import { isPunctualError } from 'punctual';
import { ArgumentError, EXIT_REJECTED, reportError, type CliIo } from './io.js';
import { SERVICE_UNREACHABLE, printError, type Env } from './output.js';

export const DEFAULT_URL = 'http://127.0.0.1:8080';
/** How long one request may take before the command gives up. */
export const REQUEST_TIMEOUT_MS = 30_000;

export interface ClientArgs {
  /** The service's address. Default: PUNCTUAL_URL, then http://127.0.0.1:8080. */
  url?: string | undefined;
  /** An API key (--key). Default: PUNCTUAL_API_KEY. */
  apiKey?: string | undefined;
  /** Where PUNCTUAL_URL and PUNCTUAL_API_KEY come from (main.ts passes the process's). Default: none set. */
  env?: Env | undefined;
  json?: boolean | undefined;
  /** Default: the global fetch. */
  fetch?: typeof fetch | undefined;
}

/** An answer of the API outside 2xx, with its `{ error: { code, message, details } }` body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The body as the API sent it (printed as is with --json). */
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The service did not answer (refused, reset, timed out). */
export class UnreachableError extends Error {
  readonly code = SERVICE_UNREACHABLE;
}

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

/** Query parameters; an array repeats its parameter (`?label=a&label=b`). */
export type Query = Record<string, string | number | readonly string[] | undefined>;

export interface ApiClient {
  readonly url: string;
  call<T = unknown>(
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    path: string,
    opts?: { query?: Query; body?: unknown; headers?: Record<string, string> },
  ): Promise<ApiResponse<T>>;
}

/** Builds a client from the arguments; refuses (ARGUMENT_INVALID) a missing key or a URL that is not http(s). */
export function apiClient(args: ClientArgs): ApiClient {
  const env = args.env ?? {};
  const base = (args.url ?? env.PUNCTUAL_URL ?? DEFAULT_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(base)) {
    throw new ArgumentError(
      `--url must be an http:// or https:// URL such as ${DEFAULT_URL} (got "${base}")`,
    );
  }
  const key = args.apiKey ?? env.PUNCTUAL_API_KEY;
  if (key === undefined || key === '') {
    throw new ArgumentError('no API key: pass --key pk_... or set PUNCTUAL_API_KEY');
  }
  const doFetch = args.fetch ?? fetch;
  return {
    url: base,
    async call<T>(
      method: string,
      path: string,
      opts: { query?: Query; body?: unknown; headers?: Record<string, string> } = {},
    ): Promise<ApiResponse<T>> {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.query ?? {})) {
        if (Array.isArray(v)) for (const one of v as readonly string[]) params.append(k, one);
        else if (v !== undefined) params.set(k, String(v));
      }
      const qs = params.size > 0 ? `?${params.toString()}` : '';
      const headers: Record<string, string> = {
        authorization: `Bearer ${key}`,
        accept: 'application/json',
        ...opts.headers,
      };
      if (opts.body !== undefined) headers['content-type'] = 'application/json';
      let res: Response;
      try {
        res = await doFetch(`${base}${path}${qs}`, {
          method,
          headers,
          body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
      } catch (e) {
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        const why = cause?.code ?? cause?.message ?? (e instanceof Error ? e.message : String(e));
        throw new UnreachableError(`cannot reach the service at ${base}: ${why}`);
      }
      const text = await res.text();
      let body: unknown = undefined;
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
      }
      if (res.status >= 200 && res.status < 300)
        return { status: res.status, headers: res.headers, body: body as T };
      const err = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
      const code = typeof err?.code === 'string' ? err.code : `HTTP_${res.status}`;
      const message =
        typeof err?.message === 'string'
          ? err.message
          : `${method} ${path} answered ${res.status} ${res.statusText}`;
      throw new ApiError(res.status, code, message, body ?? { error: { code, message } });
    },
  };
}

/** Reports an error of a client command and returns its exit code; anything else (a bug) is rethrown. */
export function reportClientError(e: unknown, io: CliIo, json: boolean): number {
  if (e instanceof ApiError) {
    if (json) io.stdout(`${JSON.stringify(e.body)}\n`);
    else {
      const field = (e.body as { error?: { details?: { field?: unknown } } }).error?.details?.field;
      const where = typeof field === 'string' && !e.message.includes(field) ? ` (${field})` : '';
      io.stderr(`punctual: ${e.code}: ${e.message}${where}\n`);
    }
    return EXIT_REJECTED;
  }
  if (e instanceof UnreachableError) return printError(io, json, e.code, e.message, EXIT_REJECTED);
  if (e instanceof ArgumentError || isPunctualError(e)) return reportError(e, io, json);
  throw e;
}

/** Runs a client command: builds the client, runs `fn`, reports what goes wrong. */
export async function withClient(
  args: ClientArgs,
  io: CliIo,
  fn: (client: ApiClient) => Promise<number>,
): Promise<number> {
  try {
    return await fn(apiClient(args));
  } catch (e) {
    return reportClientError(e, io, args.json === true);
  }
}

/** A path segment (schedule key, run id) encoded for a URL. */
export const seg = (s: string): string => encodeURIComponent(s);
