// The schema version of the configured database and the version this build of Punctual expects, for
// `migrate` and `doctor`. It only reads: it never applies a migration to the database it inspects (the
// expected SQLite version is read from a scratch in-memory database migrated for the purpose).

import { PostgresStore, SqliteStore, sqliteStore, type Store } from 'punctual';

export interface SchemaVersion {
  /** Highest migration applied to the database (0: none). */
  database: number;
  /** Highest migration this build knows; null when the store does not tell. */
  code: number | null;
}

let sqliteLatest: Promise<number> | undefined;

/** The SQLite schema version this build migrates to. */
export function latestSqliteVersion(): Promise<number> {
  sqliteLatest ??= (async () => {
    const scratch = sqliteStore({ path: ':memory:' });
    try {
      await scratch.migrate();
      return scratch.diagnostics().schemaVersion;
    } finally {
      await scratch.close();
    }
  })();
  return sqliteLatest;
}

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

/** Reads max(version) of the schema's punctual_migrations over its own short connection (0 when absent). */
async function postgresVersion(url: string, schema: string): Promise<number> {
  // `pg` is the driver the PostgreSQL store itself loads; it is installed wherever that store is used.
  const pg = (await import('pg')).default as unknown as { Client: new (o: object) => PgClient };
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    // The schema name was validated as a lowercase identifier by the configuration and the store.
    const table = `"${schema}".punctual_migrations`;
    const exists = await client.query(`SELECT to_regclass('${table}') IS NOT NULL AS e`);
    if (exists.rows[0]?.e !== true) return 0;
    const { rows } = await client.query(`SELECT coalesce(max(version), 0)::int AS v FROM ${table}`);
    return Number(rows[0]?.v ?? 0);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The store's schema version and the one this build expects. */
export async function schemaVersion(store: Store, databaseUrl: string | null): Promise<SchemaVersion> {
  if (store instanceof SqliteStore) {
    return { database: store.diagnostics().schemaVersion, code: await latestSqliteVersion() };
  }
  if (store instanceof PostgresStore && databaseUrl !== null) {
    return { database: await postgresVersion(databaseUrl, store.schema), code: null };
  }
  throw new Error('this store does not report its schema version');
}
