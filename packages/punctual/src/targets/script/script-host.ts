// The host side of a script's calls, performed on the main thread: `ctx.kv` on the tenant's key-value store
// and `ctx.fetch` through the address guard, the optional per-tenant host allow-list and the fetch limits.
// The tenant is the run's, fixed by the driver; arguments are untrusted JSON from the guest. It must never
// take a tenant id from the arguments, follow a redirect, or reach an address the guard refused.

import type { Json } from '../../domain/json.js';
import { isPunctualError } from '../../errors.js';
import type { KvLimits, KvStore } from '../../store/kv-store.js';
import type { AddressGuard } from '../address-guard.js';
import { sendWebhook } from '../webhook/webhook-request.js';
import type { CallReply, HostOp } from './protocol.js';
import type { ScriptLimits } from './script-limits.js';

export interface HostContext {
  /** The run's tenant: every kv call is scoped to it. */
  tenantId: string;
  kv: KvStore;
  kvLimits: KvLimits;
  guard: AddressGuard;
  /** Hosts this tenant's scripts may fetch from (exact names or `*.example.com`); undefined: any host. */
  allowHosts: readonly string[] | undefined;
  limits: ScriptLimits;
  /** The run's time limit: no fetch waits longer. */
  timeoutMs: number;
  /** Aborted when the run ends (or its attempt is aborted): stops fetches still in flight. */
  signal: AbortSignal;
  now: () => number;
}

/** The response a script's fetch resolves with (before the guest wraps it). */
export interface FetchedResponse {
  status: number;
  statusText: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  truncated: boolean;
}

const KV_LIST_DEFAULT = 100;
const FETCH_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
  'expect',
]);

class Refused extends Error {}

const ok = (value: unknown): CallReply =>
  value === undefined ? { ok: true } : { ok: true, json: JSON.stringify(value) };

/** Performs one host call; every failure is an answer (a rejected promise in the guest), never a throw. */
export async function performHostCall(h: HostContext, op: HostOp, argsJson: string): Promise<CallReply> {
  try {
    const args = JSON.parse(argsJson) as unknown;
    if (!Array.isArray(args)) throw new TypeError('the arguments must be a list');
    switch (op) {
      case 'kv.get': {
        const found = await h.kv.kvGet(h.tenantId, args[0] as string);
        return ok(found?.value);
      }
      case 'kv.set':
        await h.kv.kvSet(h.tenantId, args[0] as string, args[1] as Json, h.now(), h.kvLimits);
        return ok(undefined);
      case 'kv.delete':
        return ok(await h.kv.kvDelete(h.tenantId, args[0] as string));
      case 'kv.list': {
        const o = (args[0] ?? {}) as { prefix?: unknown; cursor?: unknown; limit?: unknown };
        if (typeof o !== 'object' || Array.isArray(o))
          throw new TypeError('kv.list takes { prefix, cursor, limit }');
        if (o.cursor !== undefined && typeof o.cursor !== 'string')
          throw new TypeError('cursor must be a string');
        const page = await h.kv.kvList(h.tenantId, {
          prefix: o.prefix as string | undefined,
          cursor: o.cursor,
          limit: (o.limit as number | undefined) ?? KV_LIST_DEFAULT,
        });
        return ok(page.nextCursor === undefined ? { items: page.items } : page);
      }
      case 'fetch':
        return ok(await fetchFor(h, args[0], args[1]));
    }
  } catch (e) {
    if (e instanceof Refused) return { ok: false, code: 'SCRIPT_HOST_CALL_REFUSED', message: e.message };
    if (isPunctualError(e)) return { ok: false, code: e.code, message: e.message };
    return { ok: false, code: 'SCRIPT_FAILED', message: e instanceof Error ? e.message : String(e) };
  }
}

/** True when `host` is allowed by the list: an exact name, or a subdomain of a `*.domain` entry. */
export function hostAllowed(host: string, allow: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return allow.some((entry) => {
    const e = entry.toLowerCase().replace(/\.$/, '');
    return e.startsWith('*.') ? name.endsWith(e.slice(1)) && name.length > e.length - 1 : name === e;
  });
}

async function fetchFor(h: HostContext, rawUrl: unknown, rawInit: unknown): Promise<FetchedResponse> {
  const l = h.limits;
  if (typeof rawUrl !== 'string' || rawUrl.length > 2048)
    throw new Refused('fetch needs a URL of at most 2048 characters');
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new Refused(`fetch needs an absolute URL, not ${JSON.stringify(rawUrl.slice(0, 100))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Refused('fetch may only use http and https');
  if (url.username !== '' || url.password !== '') throw new Refused('fetch URLs must not carry credentials');
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (h.allowHosts !== undefined && !hostAllowed(host, h.allowHosts)) {
    throw new Refused(`fetch to ${host} is not allowed: the tenant's allow-list does not name it`);
  }

  const init = (rawInit ?? {}) as { method?: unknown; headers?: unknown; body?: unknown };
  if (typeof init !== 'object' || Array.isArray(init)) throw new TypeError('fetch options must be an object');
  const method = init.method === undefined ? 'GET' : String(init.method).toUpperCase();
  if (!FETCH_METHODS.includes(method)) throw new Refused(`fetch methods are ${FETCH_METHODS.join(', ')}`);
  const headers: Record<string, string> = { 'user-agent': 'punctual-script/1' };
  if (init.headers !== undefined && init.headers !== null) {
    if (typeof init.headers !== 'object' || Array.isArray(init.headers)) {
      throw new TypeError('fetch headers must be an object of names to strings');
    }
    const entries = Object.entries(init.headers as Record<string, unknown>);
    if (entries.length > 50) throw new Refused('fetch may send at most 50 headers');
    for (const [name, value] of entries) {
      if (!TOKEN.test(name)) throw new TypeError(`"${name.slice(0, 100)}" is not a header name`);
      if (RESERVED_HEADERS.has(name.toLowerCase()))
        throw new Refused(`the ${name} header is set by the host`);
      if (typeof value !== 'string' || value.length > 8192 || !HEADER_VALUE.test(value)) {
        throw new TypeError(`the ${name} header must be a string of at most 8192 visible characters`);
      }
      headers[name.toLowerCase()] = value;
    }
  }
  const body = init.body === undefined ? '' : init.body;
  if (typeof body !== 'string')
    throw new TypeError('a fetch body must be a string (objects are sent as JSON)');
  if (Buffer.byteLength(body, 'utf8') > l.fetchMaxRequestBytes) {
    throw new Refused(`a fetch body may be at most ${l.fetchMaxRequestBytes} bytes`);
  }
  if (body !== '' && headers['content-type'] === undefined) {
    headers['content-type'] = /^\s*[[{]/.test(body) ? 'application/json' : 'text/plain; charset=utf-8';
  }

  const timeoutMs = Math.min(l.fetchTimeoutMs, h.timeoutMs);
  const exchange = await sendWebhook({
    url,
    method,
    headers,
    body,
    timeoutMs,
    signal: h.signal,
    maxResponseBytes: l.fetchMaxResponseBytes,
    guard: h.guard,
  });
  switch (exchange.kind) {
    case 'refused':
      throw new Refused(exchange.error.message);
    case 'timeout':
      throw new Error(`fetch ${host}: ${exchange.message}`);
    case 'connection':
      throw new Error(`fetch ${host}: ${exchange.message}`);
    case 'response': {
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(exchange.headers)) {
        if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      return {
        status: exchange.status,
        statusText: exchange.statusText,
        url: url.href,
        headers: out,
        body: exchange.body,
        truncated: exchange.truncated,
      };
    }
  }
}
