// The few parts of the `pg` driver the PostgreSQL store uses, declared structurally, and the one place that
// loads it (lazily, so a user of the SQLite store never needs `pg` installed). It owns the pool's type
// parsers (BIGINT → number, on the pool's own type table, never pg's global one) and checking a client out
// with an error listener attached. It must never interpolate a value into SQL and never read a clock.

export interface PgResult<R> {
  rows: R[];
  rowCount: number | null;
}

/** A named statement: prepared once per connection, then only bound and executed. */
export interface PgNamedQuery {
  name: string;
  text: string;
  values: unknown[];
}

/** Anything that runs one parameterised statement: the pool or a checked-out client. */
export interface PgQueryable {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<PgResult<R>>;
  query<R = Record<string, unknown>>(named: PgNamedQuery): Promise<PgResult<R>>;
}

export interface PgPoolClient extends PgQueryable {
  release(destroy?: boolean | Error): void;
  on(event: 'error', listener: (err: Error) => void): unknown;
  removeListener(event: 'error', listener: (err: Error) => void): unknown;
}

/**
 * Checks a client out for `fn`. While it is checked out the pool does not listen for its errors, so one is
 * attached here: a connection lost mid-transaction rejects the statement in flight instead of crashing the
 * process with an unhandled 'error' event. A client that failed is destroyed, not returned to the pool.
 */
export async function withClient<T>(
  pool: PgPool,
  fn: (client: PgPoolClient, markBroken: () => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  const onError = (): void => {
    broken = true;
  };
  client.on('error', onError);
  try {
    return await fn(client, () => (broken = true));
  } finally {
    client.removeListener('error', onError);
    client.release(broken);
  }
}

export interface PgPool extends PgQueryable {
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

export interface PgNotification {
  channel: string;
  payload?: string | undefined;
}

/** A standalone connection (the LISTEN client). */
export interface PgClient extends PgQueryable {
  connect(): Promise<void>;
  end(): Promise<void>;
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'notification', listener: (msg: PgNotification) => void): unknown;
  removeAllListeners(): unknown;
}

interface TypeParsers {
  getTypeParser(oid: number, format?: string): (value: string) => unknown;
}

interface PgModule {
  Pool: new (config: Record<string, unknown>) => PgPool;
  Client: new (config: Record<string, unknown>) => PgClient;
  types: TypeParsers;
}

const INT8_OID = 20;

/** BIGINT columns hold epoch milliseconds, counts and ids: numbers while exact, the text otherwise. */
function parseInt8(text: string): number | string {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

let loaded: Promise<PgModule> | undefined;

/** Imports `pg` on first use. */
export function loadPg(): Promise<PgModule> {
  loaded ??= import('pg').then(
    (m: unknown) => ((m as { default?: PgModule }).default ?? m) as PgModule,
    (cause: unknown) => {
      loaded = undefined;
      throw new Error('the PostgreSQL store needs the "pg" package: npm install pg', { cause });
    },
  );
  return loaded;
}

/** The store's own type table: pg's defaults, except BIGINT. */
function typeTable(pg: PgModule): TypeParsers {
  return {
    getTypeParser: (oid, format) => (oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format)),
  };
}

/**
 * A pool whose connections each run `session` (SET statements) once, before their first statement: checked
 * out (`connect`) or through `query`, which checks one out as pg's own pool query does.
 */
export async function createPool(connectionString: string, max: number, session: string): Promise<PgPool> {
  const pg = await loadPg();
  const pool = new pg.Pool({ connectionString, max, application_name: 'punctual', types: typeTable(pg) });
  return withSession(pool, session);
}

function withSession(pool: PgPool, session: string): PgPool {
  const ready = new WeakSet<PgPoolClient>();
  const connect = async (): Promise<PgPoolClient> => {
    const client = await pool.connect();
    if (ready.has(client)) return client;
    // Checked out, the client has no listener of the pool's: a connection lost during the SET must not
    // crash the process with an unhandled 'error' event (the SET's rejection reports it).
    const onError = (): void => {};
    client.on('error', onError);
    try {
      await client.query(session);
    } catch (e) {
      client.release(true);
      throw e;
    } finally {
      client.removeListener('error', onError);
    }
    ready.add(client);
    return client;
  };
  const wrapped: PgPool = {
    connect,
    end: () => pool.end(),
    on: (event, listener) => pool.on(event, listener),
    query: (<R>(q: string | PgNamedQuery, values?: unknown[]) =>
      withClient(wrapped, async (client, markBroken) => {
        try {
          return typeof q === 'string' ? await client.query<R>(q, values) : await client.query<R>(q);
        } catch (error) {
          // An error the server did not send (no severity) may have left the connection unusable.
          if ((error as { severity?: string }).severity === undefined) markBroken();
          throw error;
        }
      })) as PgPool['query'],
  };
  return wrapped;
}

export async function createClient(connectionString: string): Promise<PgClient> {
  const pg = await loadPg();
  return new pg.Client({ connectionString, application_name: 'punctual-listen', types: typeTable(pg) });
}
