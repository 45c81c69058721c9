// The finishing of the generated OpenAPI document: bodies a client may leave out become optional, unused
// components go, every operation lists every error status it can answer with (derived from its shape, so a
// route cannot forget one: auth, parameters, a body, a path segment), responses carry descriptions, and the
// document names the server it is served from. It must never hand-list statuses per route (routes declare
// only what their own logic adds: 404, 409, ...) and never change what a route accepts.

import { STATUS_CODES } from 'node:http';
import { localUrl } from '../local-url.js';

interface Operation {
  operationId?: string;
  security?: unknown[];
  parameters?: { in: string }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> };
  responses?: Record<string, { description?: string; content?: unknown }>;
}

interface Doc {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
  security?: unknown[];
  servers?: { url: string; description?: string }[];
}

/** What each error status means in this API (docs/errors.md has the codes). */
export const ERROR_STATUS_MEANINGS: Record<number, string> = {
  400: 'VALIDATION_FAILED, MALFORMED_JSON or MALFORMED_REQUEST, or a library code for invalid input',
  401: 'UNAUTHORIZED: no valid API key',
  404: 'a library NOT_FOUND code (the schedule, run, key or tenant does not exist)',
  409: 'a conflict: VERSION_CONFLICT, RUN_NOT_CANCELLABLE, ...',
  413: 'BODY_TOO_LARGE (or a key-value value over its limit)',
  414: 'URI_TOO_LONG: a path segment longer than any key or id',
  415: 'UNSUPPORTED_MEDIA_TYPE: the body is not application/json',
  429: 'RATE_LIMITED or QUOTA_EXCEEDED (Retry-After when waiting helps)',
  500: 'INTERNAL: the service failed (never caused by request content)',
  503: 'NOT_READY: starting, stopping, or the database does not answer (Retry-After)',
};

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/**
 * The error statuses an operation can answer with, from its shape: every one can fail (500); behind
 * authentication it can be refused (401), limited (429) and find its database away (503); anything it reads
 * from the request can be invalid (400); a method with a body can be too large or not JSON (413, 415); a
 * path parameter can be too long (414).
 */
export function errorStatusesOf(
  method: string,
  path: string,
  op: Operation,
  globalSecurity: unknown[] | undefined,
): number[] {
  const security = op.security ?? globalSecurity ?? [];
  const params = op.parameters ?? [];
  const hasBody = BODY_METHODS.has(method);
  // Every route may answer 400: a query string with a bad percent-escape is refused before routing, and a
  // /v1 route that reads no query string refuses any field.
  const out = new Set<number>([400, 500]);
  if (security.length > 0) [401, 429, 503].forEach((s) => out.add(s));
  // Open routes whose operator may require a token (PUNCTUAL_METRICS_TOKEN for /metrics).
  if (TOKEN_OPTIONAL.has(path)) out.add(401);
  if (hasBody) [413, 415].forEach((s) => out.add(s));
  if (params.some((p) => p.in === 'path')) out.add(414);
  return [...out];
}

/** Paths that are open unless the operator configures a token for them. */
const TOKEN_OPTIONAL = new Set(['/metrics']);

const ERROR_REF = { $ref: '#/components/schemas/Error' };

/**
 * A stable operation id from the method and path (`PUT /v1/schedules/{key}` → `putSchedulesByKey`), for
 * generated clients' method names: the API version prefix is left out, parameters read `By<Name>`.
 */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split('/')
    .filter((w) => w !== '' && w !== 'v1')
    .flatMap((w) => (w.startsWith('{') ? ['by', w.slice(1, -1)] : w.split(/[-_.]/)));
  return method + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/**
 * Adds an operation id, every derived error status (with the error body) and a description to every
 * response of every operation.
 */
function completeOperations(d: Doc): void {
  for (const [path, ops] of Object.entries(d.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      op.operationId ??= operationIdOf(method, path);
      op.responses ??= {};
      for (const status of errorStatusesOf(method, path, op, d.security)) {
        op.responses[status] ??= { content: { 'application/json': { schema: ERROR_REF } } };
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (response.description === undefined || response.description === 'Default Response') {
          response.description =
            ERROR_STATUS_MEANINGS[Number(status)] ?? STATUS_CODES[Number(status)] ?? status;
        }
      }
      op.responses = Object.fromEntries(Object.entries(op.responses).sort(([a], [b]) => a.localeCompare(b)));
    }
  }
}

/**
 * Finishes the generated document: bodies a client may leave out (schemas.ts marks them) become optional,
 * every operation lists its error statuses, and components no operation refers to (the zod provider emits
 * an input and an output twin of each) go.
 */
export function finishDocument<T>(doc: T): T {
  const d = doc as Doc;
  for (const ops of Object.values(d.paths ?? {})) {
    for (const op of Object.values(ops)) {
      const media = op.requestBody?.content?.['application/json'];
      const schema = media?.schema;
      if (!op.requestBody || !media || !schema?.optionalBody) continue;
      op.requestBody.required = false;
      const anyOf = schema.anyOf as Record<string, unknown>[] | undefined;
      const { optionalBody: _marker, anyOf: _anyOf, ...rest } = schema;
      media.schema = { ...rest, ...(anyOf?.find((x) => x.type !== 'null') ?? {}) };
    }
  }
  completeOperations(d);
  const schemas = d.components?.schemas;
  if (schemas) {
    const used = new Set<string>();
    const refs = (value: unknown): void => {
      for (const m of JSON.stringify(value).matchAll(/#\/components\/schemas\/([^"]+)"/g)) {
        const name = m[1] as string;
        if (!used.has(name)) {
          used.add(name);
          refs(schemas[name]);
        }
      }
    };
    refs(d.paths);
    for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
  }
  return doc;
}

/**
 * The document with its `servers`: PUNCTUAL_PUBLIC_URL when set, else `http://HOST:PORT` of the address the
 * service listens on, else (not listening: built in-process) `/`, the origin the document is read from.
 */
export function withServers<T extends object>(
  doc: T,
  publicUrl: string | null,
  listening: { address: string; port: number } | null,
): T & { servers: { url: string }[] } {
  const url = publicUrl ?? (listening ? localUrl(listening.address, listening.port) : '/');
  return { ...doc, servers: [{ url }] };
}
