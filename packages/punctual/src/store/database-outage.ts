// What a database error says about the database's availability: it cannot be reached (`unreachable`), an
// established connection was cut while a statement or transaction was in flight (`interrupted`), or it
// answers but refuses writes (`readOnly`: a standby, e.g. an old primary back after a failover). Knows the
// PostgreSQL SQLSTATEs and Node's socket error codes, never imports a driver, and never decides what to do
// about it: the engine backs off and retries, the service reports it.

export type DatabaseOutage = 'unreachable' | 'interrupted' | 'readOnly';

/** Every kind, in the order the docs list them. */
export const DATABASE_OUTAGES: readonly DatabaseOutage[] = ['unreachable', 'interrupted', 'readOnly'];

/** read_only_sql_transaction: a hot standby, or default_transaction_read_only. */
const PG_READ_ONLY = new Set(['25006']);
/** admin_shutdown, crash_shutdown; class 08 (connection exception) once connected. */
const PG_INTERRUPTED = new Set(['57P01', '57P02', '08006', '08003', '08007']);
/** cannot_connect_now (starting up or shutting down), too_many_connections; the rest of class 08. */
const PG_UNREACHABLE = new Set(['57P03', '53300', '08000', '08001', '08004']);
const SOCKET_UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const SOCKET_INTERRUPTED = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
/** What node-postgres says, without a code, when a connection ends or cannot be had in time. */
const INTERRUPTED_MESSAGE = /^Connection terminated|^Client has encountered a connection error/;
const UNREACHABLE_MESSAGE =
  /^timeout exceeded when trying to connect|^Connection terminated due to connection timeout/;

/** The outage an error (or its cause) reports, or null for any other error. */
export function databaseOutage(e: unknown): DatabaseOutage | null {
  for (let err = e, depth = 0; err !== null && typeof err === 'object' && depth < 5; depth++) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (PG_READ_ONLY.has(code)) return 'readOnly';
      if (PG_UNREACHABLE.has(code) || SOCKET_UNREACHABLE.has(code)) return 'unreachable';
      if (PG_INTERRUPTED.has(code) || SOCKET_INTERRUPTED.has(code)) return 'interrupted';
    }
    const message = (err as { message?: unknown }).message;
    if (typeof message === 'string') {
      if (UNREACHABLE_MESSAGE.test(message)) return 'unreachable';
      if (INTERRUPTED_MESSAGE.test(message)) return 'interrupted';
    }
    err = (err as { cause?: unknown }).cause;
  }
  return null;
}
