// Opening the service while its database does not answer: `waitForDatabase` tries again with backoff
// (250 ms doubling to 10 s) for at most PUNCTUAL_DATABASE_WAIT, and `notReadyServer` answers on the
// service's address meanwhile (/healthz 200, everything else 503 NOT_READY with Retry-After), so a fleet
// restarted during a database outage comes back by itself. Only errors that say the database is away
// (isStoreUnavailable) are waited out; any other is thrown at once. It never reads a clock for anything but
// the deadline and never logs a database URL.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isStoreUnavailable } from 'punctual';

export interface WaitOptions {
  /** The longest wait in milliseconds; 0: try once. */
  waitMs: number;
  /** Stops waiting (the attempt in flight finishes); the result is then null. */
  signal: AbortSignal;
  /** Called before each wait with why and how long. */
  onWait: (error: unknown, attempt: number, delayMs: number) => void;
  /** Default: Date.now. */
  now?: () => number;
}

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 10_000;

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Runs `open` until it succeeds, fails for another reason, the wait is over, or the signal fires (null). */
export async function waitForDatabase<T>(open: () => Promise<T>, opts: WaitOptions): Promise<T | null> {
  const now = opts.now ?? Date.now;
  const deadline = now() + opts.waitMs;
  let delay = FIRST_DELAY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await open();
    } catch (e) {
      const left = deadline - now();
      if (!isStoreUnavailable(e) || left <= 0 || opts.signal.aborted) throw e;
      const wait = Math.min(delay, left);
      opts.onWait(e, attempt, wait);
      await pause(wait, opts.signal);
      if (opts.signal.aborted) return null;
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}

const NOT_READY = JSON.stringify({
  error: {
    code: 'NOT_READY',
    message: 'the service is waiting for its database',
    details: { database: 'unreachable' },
  },
});

/** A stand-in on the service's address while it waits: the process is up, and not ready. */
export async function notReadyServer(
  host: string,
  port: number,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const up = req.url === '/healthz' && req.method === 'GET';
    res.writeHead(up ? 200 : 503, {
      'content-type': 'application/json; charset=utf-8',
      ...(up ? {} : { 'retry-after': '5' }),
    });
    res.end(up ? JSON.stringify({ status: 'ok' }) : NOT_READY);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
