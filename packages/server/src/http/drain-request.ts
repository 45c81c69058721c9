// Reading and discarding the rest of a request body the service answers without reading (413
// BODY_TOO_LARGE, or a refusal before parsing: 401, 404, 415) before it answers, as mature servers' lingering
// close does: a client still sending its body (Node's fetch, curl) would otherwise see its write fail (EPIPE,
// ECONNRESET) instead of reading the answer. Bounded in bytes and time, so a client cannot make the service
// read forever; it never keeps what it reads.

import type { IncomingMessage } from 'node:http';

/** The most bytes read and discarded after a refused body; beyond it the connection is closed. */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
/** The longest time spent reading a refused body. */
export const DRAIN_MAX_MS = 10_000;

/**
 * Resolves true once the whole body was read (or there was none left), false when the bound was reached or
 * the connection failed first: the caller then answers with `Connection: close`.
 */
export function drainRequest(
  req: IncomingMessage,
  maxBytes = DRAIN_MAX_BYTES,
  maxMs = DRAIN_MAX_MS,
): Promise<boolean> {
  if (req.complete || req.readableEnded) return Promise.resolve(true);
  if (req.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let read = 0;
    const finish = (whole: boolean): void => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onFail);
      req.off('close', onClose);
      if (!whole) req.pause();
      resolve(whole);
    };
    const onData = (chunk: Buffer): void => {
      read += chunk.length;
      if (read > maxBytes) finish(false);
    };
    const onEnd = (): void => finish(true);
    const onFail = (): void => finish(false);
    const onClose = (): void => finish(req.complete);
    const timer = setTimeout(() => finish(false), maxMs);
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onFail);
    req.once('close', onClose);
    req.resume();
  });
}
