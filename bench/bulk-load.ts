// Bulk load: N yearly schedules (60 distinct specs, 1 January 00:00-00:59, so none fires while the service
// runs; what a put writes does not depend on the spec) saved through
// `putBulk` into PostgreSQL (a fresh schema) and SQLite (a WAL file in a temporary folder), and through
// `POST /v1/schedules/bulk` of the service in-process. Reports schedules/s for the first load (all created),
// the same inputs again (all unchanged) and a new payload each (all updated), as a Markdown table, with the
// CPU per schedule of this process and (PostgreSQL on this host) of the database server's backends serving
// the bench's database.
// `npm run bench:bulk -- [--count 100000] [--stores postgres,sqlite] [--via library,http] [--batch 2000]
// [--passes created,unchanged,updated]`.
// PostgreSQL: PUNCTUAL_BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test), schema bench_bulk_load.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { pino } from 'pino';
import { createScheduler } from '../packages/punctual/src/scheduler.js';
import { postgresStore } from '../packages/punctual/src/store/postgres/postgres-store.js';
import { sqliteStore } from '../packages/punctual/src/store/sqlite/sqlite-store.js';
import type { Store } from '../packages/punctual/src/store/store.js';
import { loadConfig } from '../packages/server/src/config.js';
import { createService } from '../packages/server/src/service.js';

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '100000' },
    stores: { type: 'string', default: 'postgres,sqlite' },
    via: { type: 'string', default: 'library,http' },
    batch: { type: 'string', default: '2000' },
    /** The passes to run, in order (each needs the ones before it: unchanged and updated need created). */
    passes: { type: 'string', default: 'created,unchanged,updated' },
    /** Inputs per HTTP request (at most the route's limit). */
    request: { type: 'string', default: '5000' },
  },
});
const COUNT = Number(args.count);
const BATCH = Number(args.batch);
const PER_REQUEST = Number(args.request);
const PG_URL = process.env.PUNCTUAL_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench_bulk_load';
/** Inputs built and handed over at a time, so a million never sit in memory at once. */
const CHUNK = 20_000;

/** The passes: all created, the same inputs again (all unchanged), then a new payload each (all updated). */
const ALL_PASSES = ['created', 'unchanged', 'updated'] as const;
type Pass = (typeof ALL_PASSES)[number];
const PASSES = args.passes.split(',').filter((p): p is Pass => (ALL_PASSES as readonly string[]).includes(p));

function input(i: number, pass: Pass): Record<string, unknown> {
  const payload = pass === 'updated' ? { n: i, changed: true } : { n: i };
  return { key: `bulk-${i}`, spec: `${i % 60} 0 1 1 *`, target: { handler: 'noop' }, payload };
}

async function dropSchema(): Promise<void> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  } finally {
    await c.end();
  }
}

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * The CPU (in ticks) of the database server's backends serving the bench's database now, by pid, read from
 * /proc (the server runs on this host; the bench's own monitoring connection is left out). Undefined where
 * /proc cannot be read. The background processes the backends share (WAL writer, checkpointer) are not in it.
 */
async function serverTicks(): Promise<Map<number, number> | undefined> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    const { rows } = await c.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    const out = new Map<number, number>();
    for (const { pid } of rows) {
      try {
        // The fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.set(pid, Number(f[11]) + Number(f[12]));
      } catch {
        return undefined;
      }
    }
    return out;
  } finally {
    await c.end();
  }
}

/** The server's WAL insert position now (bytes since the cluster began; the whole cluster writes to it). */
async function walPosition(): Promise<bigint> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    const { rows } = await c.query<{ b: string }>(
      "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text AS b",
    );
    return BigInt(rows[0]!.b.split('.')[0]!);
  } finally {
    await c.end();
  }
}

/** Loads COUNT schedules with `put` (one chunk at a time); returns schedules/s and the outcome totals. */
async function timed(
  put: (inputs: Record<string, unknown>[]) => Promise<Record<string, number>>,
  pass: Pass,
  server: boolean,
): Promise<{
  perSecond: number;
  seconds: number;
  cpuUs: number;
  serverCpuUs: number | null;
  walBytes: number | null;
  totals: Record<string, number>;
}> {
  const totals: Record<string, number> = {};
  const ticks0 = server ? await serverTicks() : undefined;
  const wal0 = server ? await walPosition() : undefined;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let start = 0; start < COUNT; start += CHUNK) {
    const inputs = Array.from({ length: Math.min(CHUNK, COUNT - start) }, (_, n) => input(start + n, pass));
    for (const [k, v] of Object.entries(await put(inputs))) totals[k] = (totals[k] ?? 0) + v;
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuUs = Math.round((cpu.user + cpu.system) / COUNT);
  let serverCpuUs: number | null = null;
  const walBytes = wal0 === undefined ? null : Number((await walPosition()) - wal0) / COUNT;
  const ticks1 = ticks0 === undefined ? undefined : await serverTicks();
  if (ticks0 !== undefined && ticks1 !== undefined) {
    let ticks = 0;
    // A backend that connected during the pass counts from zero.
    for (const [pid, t] of ticks1) ticks += t - (ticks0.get(pid) ?? 0);
    serverCpuUs = Math.round((ticks * 1e6) / TICKS_PER_SECOND / COUNT);
  }
  return { perSecond: Math.round(COUNT / seconds), seconds, cpuUs, serverCpuUs, walBytes, totals };
}

interface Row {
  store: string;
  via: string;
  pass: string;
  perSecond: number;
  seconds: number;
  /** CPU of this process (the library, or the client and the service in-process) per schedule, in µs. */
  cpuUs: number;
  /** CPU of the database server's backends per schedule, in µs (PostgreSQL; null: not measured). */
  serverCpuUs: number | null;
  /** WAL the server wrote during the pass per schedule, in bytes (PostgreSQL; the whole cluster's). */
  walBytes: number | null;
  totals: Record<string, number>;
}

async function viaLibrary(kind: string, store: Store): Promise<Row[]> {
  await store.migrate();
  const s = createScheduler({ store });
  s.handle('noop', () => {});
  const put = async (inputs: Record<string, unknown>[]) =>
    (await s.putBulk(inputs, { batchSize: BATCH })).totals;
  const rows: Row[] = [];
  for (const pass of PASSES)
    rows.push({ store: kind, via: 'library', pass, ...(await timed(put, pass, kind === 'postgres')) });
  await store.close();
  return rows;
}

async function viaHttp(kind: string, env: Record<string, string>): Promise<Row[]> {
  const config = loadConfig({
    ...env,
    PUNCTUAL_HOST: '127.0.0.1',
    PUNCTUAL_PORT: '0',
    PUNCTUAL_DEFAULT_RATE_LIMIT: '100000',
    PUNCTUAL_BODY_LIMIT: String(64 * 1024 * 1024),
    PUNCTUAL_SHUTDOWN_GRACE: '2s',
  });
  const service = await createService(config, { logger: pino({ level: 'silent' }), processMetrics: false });
  const { url } = await service.start();
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const key = service.bootstrap!.apiKey;
  const post = (items: unknown[]): Promise<Record<string, number>> =>
    new Promise((resolve, reject) => {
      const req = request(
        `${url}/v1/schedules/bulk`,
        {
          method: 'POST',
          agent,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () => {
            if (res.statusCode !== 200) return reject(new Error(`${res.statusCode}: ${body.slice(0, 500)}`));
            const answer = JSON.parse(body) as {
              totals: Record<string, number>;
              items: { error?: unknown }[];
            };
            const refused = answer.items.find((i) => i.error !== undefined);
            if (refused) return reject(new Error(`refused: ${JSON.stringify(refused)}`));
            resolve(answer.totals);
          });
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(items));
    });
  const put = async (inputs: Record<string, unknown>[]) => {
    const totals: Record<string, number> = {};
    for (let i = 0; i < inputs.length; i += PER_REQUEST) {
      const items = inputs
        .slice(i, i + PER_REQUEST)
        .map((x) => ({ ...x, target: { webhook: { url: HOOK } } }));
      for (const [k, v] of Object.entries(await post(items))) totals[k] = (totals[k] ?? 0) + v;
    }
    return totals;
  };
  const rows: Row[] = [];
  try {
    for (const pass of PASSES)
      rows.push({ store: kind, via: 'http', pass, ...(await timed(put, pass, kind === 'postgres')) });
  } finally {
    agent.destroy();
    await service.close();
  }
  return rows;
}

/** Never called: the service runs no worker here (the schedules fire in the next hour at the earliest). */
const HOOK = 'https://hooks.example.com/bulk';

const rows: Row[] = [];
for (const kind of args.stores.split(',')) {
  for (const via of args.via.split(',')) {
    const dir = mkdtempSync(join(tmpdir(), 'punctual-bench-bulk-'));
    try {
      if (kind === 'postgres') await dropSchema();
      if (via === 'library') {
        const store =
          kind === 'postgres'
            ? postgresStore({ connectionString: PG_URL, schema: SCHEMA, listen: false })
            : sqliteStore({ path: join(dir, 'bulk.db') });
        rows.push(...(await viaLibrary(kind, store)));
      } else {
        const env: Record<string, string> =
          kind === 'postgres'
            ? { PUNCTUAL_DATABASE_URL: PG_URL, PUNCTUAL_PG_SCHEMA: SCHEMA }
            : { PUNCTUAL_DATABASE_PATH: join(dir, 'bulk.db') };
        rows.push(...(await viaHttp(kind, env)));
      }
    } finally {
      if (kind === 'postgres') await dropSchema();
      rmSync(dir, { recursive: true, force: true });
    }
    const last = rows.at(-PASSES.length)!;
    console.error(`${kind} ${via}: ${last.perSecond} schedules/s created (${last.seconds.toFixed(1)} s)`);
  }
}

console.log(
  `\n${COUNT} schedules, batch ${BATCH}, HTTP ${PER_REQUEST} per request; ${cpus().length} cores\n`,
);
console.log(
  '| store | via | pass | schedules/s | seconds | process CPU µs per schedule | server CPU µs per schedule | WAL bytes per schedule | outcomes |',
);
console.log('|---|---|---|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  const outcomes = Object.entries(r.totals)
    .filter(([, v]) => v > 0)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  console.log(
    `| ${r.store} | ${r.via} | ${r.pass} | ${r.perSecond} | ${r.seconds.toFixed(1)} | ${r.cpuUs} | ${r.serverCpuUs ?? '-'} | ${r.walBytes === null ? '-' : Math.round(r.walBytes)} | ${outcomes} |`,
  );
}
