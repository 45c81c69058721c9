// One HTTP exchange for the webhook driver over node:http/https: connects only to addresses the AddressGuard
// checked (literal hosts before connecting, hostnames through its `lookup` hook), never follows redirects,
// never reuses a pooled socket, and reads at most `maxResponseBytes` of the answer. It never throws: every
// ending (response, timeout, refusal, connection error) is a value.

import http from 'node:http';
import https from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { isPunctualError, type PunctualError } from '../../errors.js';
import type { AddressGuard } from '../address-guard.js';

export interface WebhookRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  signal: AbortSignal;
  maxResponseBytes: number;
  guard: AddressGuard;
}

export type WebhookResponse = {
  kind: 'response';
  status: number;
  statusText: string;
  headers: http.IncomingHttpHeaders;
  /** The first `maxResponseBytes` of the body, decoded as UTF-8 (a character cut in two is dropped). */
  body: string;
  truncated: boolean;
};

export type WebhookExchange =
  | WebhookResponse
  | { kind: 'timeout'; message: string }
  | { kind: 'refused'; error: PunctualError }
  | { kind: 'connection'; code: string | undefined; message: string };

function reasonOf(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  return r instanceof Error ? r.message : typeof r === 'string' ? r : 'the attempt was aborted';
}

/** Sends one request and resolves with how it ended. */
export function sendWebhook(x: WebhookRequest): Promise<WebhookExchange> {
  if (x.signal.aborted)
    return Promise.resolve({ kind: 'timeout', message: `aborted: ${reasonOf(x.signal)}` });
  const host = x.url.hostname.startsWith('[') ? x.url.hostname.slice(1, -1) : x.url.hostname;
  try {
    x.guard.checkLiteral(host); // an IP literal never goes through `lookup`
  } catch (e) {
    if (isPunctualError(e)) return Promise.resolve({ kind: 'refused', error: e });
    throw e;
  }

  return new Promise((resolve) => {
    let done = false;
    let req: http.ClientRequest | undefined;
    let res: http.IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let size = 0;

    const responded = (truncated: boolean): WebhookResponse => {
      const bytes = Buffer.concat(chunks);
      const body = truncated ? new StringDecoder('utf8').write(bytes) : bytes.toString('utf8');
      return {
        kind: 'response',
        status: res!.statusCode ?? 0,
        statusText: res!.statusMessage ?? '',
        headers: res!.headers,
        body,
        truncated,
      };
    };
    const finish = (result: WebhookExchange): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      x.signal.removeEventListener('abort', onAbort);
      req?.destroy();
      resolve(result);
    };
    // Once the status is in, a stalled or aborted body still counts as that response, with what arrived.
    const timer = setTimeout(
      () =>
        finish(res ? responded(true) : { kind: 'timeout', message: `no response within ${x.timeoutMs} ms` }),
      x.timeoutMs,
    );
    const onAbort = (): void => finish({ kind: 'timeout', message: `aborted: ${reasonOf(x.signal)}` });
    x.signal.addEventListener('abort', onAbort, { once: true });

    const transport = x.url.protocol === 'https:' ? https : http;
    try {
      req = transport.request({
        protocol: x.url.protocol,
        hostname: host,
        port: x.url.port === '' ? undefined : Number(x.url.port),
        path: `${x.url.pathname}${x.url.search}`,
        method: x.method,
        headers: { ...x.headers, 'content-length': String(Buffer.byteLength(x.body)) },
        agent: false, // a fresh connection each time: no pooled socket skips the address check
        lookup: x.guard.lookup,
      });
    } catch (e) {
      finish({ kind: 'connection', code: (e as NodeJS.ErrnoException).code, message: (e as Error).message });
      return;
    }
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (isPunctualError(err, 'TARGET_ADDRESS_REFUSED')) finish({ kind: 'refused', error: err });
      else if (res) finish(responded(true));
      else finish({ kind: 'connection', code: err.code, message: describeConnectionError(err) });
    });
    req.on('response', (r) => {
      res = r;
      r.on('data', (chunk: Buffer) => {
        if (size + chunk.length > x.maxResponseBytes) {
          chunks.push(chunk.subarray(0, x.maxResponseBytes - size));
          size = x.maxResponseBytes;
          finish(responded(true));
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      r.on('end', () => finish(responded(false)));
      r.on('error', () => finish(responded(true)));
      r.on('aborted', () => finish(responded(true)));
    });
    req.end(x.body);
  });
}

function describeConnectionError(err: NodeJS.ErrnoException): string {
  return !err.code || err.message.includes(err.code) ? err.message : `${err.code}: ${err.message}`;
}
