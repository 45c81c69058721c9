// Whether an error thrown by a store operation means the database did not answer (refused or lost
// connection, a server shutting down or failing over, a read-only standby) rather than a refusal of the
// request or a bug. Callers use it to wait and try again (the API answers 503 NOT_READY, a webhook attempt
// is handed back without spending an attempt, `serve` waits for its database). It must never inspect a
// message for a password, and never match an error that retrying would only repeat.

/** Socket-level codes of Node.js: the connection could not be made or was lost. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs of an unavailable server: 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot
 * connect now (starting, or a standby being promoted), 25006 read-only transaction (the address still
 * points at a standby), 53300 too many connections; class 08 is a connection exception.
 */
const PG_CODES = new Set(['57P01', '57P02', '57P03', '25006', '53300']);

/** Messages of the `pg` driver for a connection it lost or could not make (it gives them no code). */
const PG_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^Cannot use a pool after calling end on the pool/,
];

/** True when `error` (or an error it wraps, as `cause` or in an AggregateError) says the database is away. */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string') {
    if (NETWORK_CODES.has(e.code) || PG_CODES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code)) return true;
  }
  if (typeof e.message === 'string' && PG_MESSAGES.some((re) => re.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isStoreUnavailable(x, depth + 1))) return true;
  return isStoreUnavailable(e.cause, depth + 1);
}
