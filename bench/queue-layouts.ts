// Measure-and-choose for the narrow queue, on PostgreSQL: drains N due runs through candidate layouts of the
// pending and the history rows, one layout after the other (reps interleaved), with the same loops, batch
// and load, and reports for each: runs/s, WAL bytes per run, server and client CPU per run, and bytes per
// pending run (the pending table and its indexes after the load, before the drain). It measures only: each
// layout has a schema of its own, dropped and made again; nothing else in the database changes.
//
//   PUNCTUAL_BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/queue-layouts.ts \
//     [--runs 100000] [--loops 4] [--batch 100] [--reps 3] [--layouts store,table,queue,queue-lean,queue-min,raw]
//     [--out bench/results/<file>.md]
//
// Layouts (every one but raw loads through the store's insertRuns: manual runs of one schedule, as the peers
// benchmark's drain does):
// - store: the store's own statements, as the worker sends them: a claim, then settle-and-claim per cycle.
// - table: the same table and indexes, driven by the leanest claim and settlement one could write on them
//   (one UPDATE each, settlement and next claim in one statement; no fair share, overlap decisions, schedule
//   probe or execution count): what the layout costs apart from the store's statements.
// - queue: pending runs in a table of their own (the run's columns, fillfactor 50, no index naming state or
//   lease, so the claim's update is HOT: primary key, occurrence key, claim, claim by tenant, schedule); the
//   claim also takes lapsed leases (no lease index); the settlement deletes the queue row and inserts the
//   history row, whose table has the seven indexes the history keeps today.
// - queue-lean: the same with four history indexes (primary key, occurrence key, the two listing ones): what
//   dropping the quota's and the pruning's indexes would add.
// - queue-min: the same with the history's primary key alone: the floor of writing a history row per run.
// - raw: the raw-SQL peer's shape (two columns, claim FOR UPDATE SKIP LOCKED in a transaction held while the
//   batch runs, then delete): no lease, no history.
//
// Each drain starts right after a CHECKPOINT that precedes its load, so no timed checkpoint lands in it and
// its pages were already logged whole by the load (the full-page images column says when that failed).

import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { createScheduler } from '../packages/punctual/src/index.js';
import { postgresStore } from '../packages/punctual/src/store/postgres/postgres-store.js';
import type { Store } from '../packages/punctual/src/store/store.js';
import { postgresCpuMs } from './peers/src/peer.js';
import { backlog, succeededSettlements } from './workloads.js';

const PG_URL = process.env.PUNCTUAL_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const LAYOUTS = ['store', 'table', 'queue', 'queue-lean', 'queue-min', 'raw'] as const;
type Layout = (typeof LAYOUTS)[number];

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}
const RUNS = Number(arg('runs', '100000'));
const LOOPS = Number(arg('loops', '4'));
const BATCH = Number(arg('batch', '100'));
const REPS = Number(arg('reps', '3'));
const OUT = arg('out', '');
const CHOSEN = arg('layouts', LAYOUTS.join(',')).split(',') as Layout[];
for (const l of CHOSEN) if (!LAYOUTS.includes(l)) throw new Error(`unknown layout ${l}`);
const LEASE_MS = 30_000;

interface Measured {
  layout: Layout;
  runsPerSecond: number;
  walPerRun: number;
  fpi: number;
  serverCpuMsPerRun: number;
  clientCpuMsPerRun: number;
  bytesPerPending: number;
}

/** One layout, loaded and ready: `loop` drains it (settling each batch and claiming the next) and says how many runs it settled. */
interface Prepared {
  pendingBytes: number;
  loop(worker: string): Promise<number>;
  close(): Promise<void>;
}

const schemaOf = (l: Layout) => `bench_layout_${l.replace('-', '_')}`;

/** Statistics for the planner after a load (autovacuum may be off, as in CI). */
const analyze = (schema: string) => admin((c) => c.query(`ANALYZE "${schema}".runs`));

async function admin<T>(f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

const relationBytes = (table: string) =>
  admin(async (c) => {
    const { rows } = await c.query<{ b: string }>(`SELECT pg_total_relation_size($1)::text AS b`, [table]);
    return Number(rows[0]!.b);
  });

/** The store, migrated in the layout's schema, with RUNS due manual runs of one schedule (bench/workloads.ts). */
async function loadStore(schema: string, at: number): Promise<Store> {
  await admin((c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
  const store = postgresStore({ connectionString: PG_URL, schema, listen: false, hotPoolSize: LOOPS });
  const s = createScheduler({ store });
  s.handle('bench', () => {});
  await s.migrate();
  const { schedule } = await s.put({ key: 'backlog', spec: '@yearly', target: { handler: 'bench' } });
  await backlog(s, schedule.id, RUNS, () => at, 'manual');
  return store;
}

async function prepareStore(at: number): Promise<Prepared> {
  const schema = schemaOf('store');
  const store = await loadStore(schema, at);
  await analyze(schema);
  return {
    pendingBytes: await relationBytes(`"${schema}".runs`),
    async loop(worker) {
      let settledCount = 0;
      const req = () => ({ workerId: worker, now: Date.now(), limit: BATCH, leaseMs: LEASE_MS });
      let claimed = (await store.claimRuns(req())).claimed;
      while (claimed.length > 0) {
        const now = Date.now();
        const r = await store.settleAndClaim(succeededSettlements(claimed, worker, now, now), req());
        settledCount += r.settled.filter((x) => x !== null).length;
        claimed = r.claim.claimed;
      }
      return settledCount;
    },
    close: () => store.close(),
  };
}

/** The columns of `runs` in order (the queue and history tables copy them). */
async function runColumns(schema: string): Promise<string[]> {
  return admin(async (c) => {
    const { rows } = await c.query<{ n: string }>(
      `SELECT column_name AS n FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'runs'
        ORDER BY ordinal_position`,
      [schema],
    );
    return rows.map((r) => r.n);
  });
}

/**
 * A layout driven by bare SQL: `cycleSql` takes $1 now, $2 worker, $3 limit, $4 ids and $5 tokens to settle,
 * and returns rows (k = 'c': a claimed id and token; k = 's': the settled count in id).
 */
function bareLoop(pool: pg.Pool, cycleSql: string) {
  return async (worker: string): Promise<number> => {
    let settled = 0;
    let ids: string[] = [];
    let tokens: string[] = [];
    for (;;) {
      const { rows } = await pool.query<{ k: string; id: string; token: string | null }>({
        name: 'cycle',
        text: cycleSql,
        values: [Date.now(), worker, BATCH, ids, tokens],
      });
      const claimed = rows.filter((r) => r.k === 'c');
      settled += rows.filter((r) => r.k === 's').reduce((a, r) => a + Number(r.id), 0);
      if (claimed.length === 0) return settled;
      ids = claimed.map((r) => r.id);
      tokens = claimed.map((r) => r.token!);
    }
  };
}

const LEASE_SET = `state = 'running', attempt = r.attempt + 1, lease_owner = $2,
  lease_token = gen_random_uuid()::text, lease_expires_at = $1::bigint + ${LEASE_MS},
  attempt_started_at = $1, started_at = COALESCE(r.started_at, $1)`;

/**
 * The claim of a bare cycle (a CTE after `settled`): up to $3 runs of `table` that are `available` and due by
 * $1, leased to $2; then the cycle's output.
 */
function claimThenOutput(table: string, available: string): string {
  return `claimed AS (
      UPDATE ${table} AS r SET ${LEASE_SET}
       WHERE r.id = ANY(ARRAY(
               SELECT id FROM ${table}
                WHERE ${available} AND priority = 0 AND due_at <= $1
                ORDER BY priority DESC, due_at, id LIMIT $3 FOR UPDATE SKIP LOCKED))
      RETURNING r.id, r.lease_token
    )
    SELECT 'c' AS k, id::text, lease_token AS token FROM claimed
    UNION ALL SELECT 's', count(*)::text, NULL FROM settled`;
}

/** A bare layout ready to drain, its pending runs in `pendingTable`. */
async function barePrepared(pool: pg.Pool, cycle: string, pendingTable: string): Promise<Prepared> {
  return {
    pendingBytes: await relationBytes(pendingTable),
    loop: bareLoop(pool, cycle),
    close: () => pool.end(),
  };
}

async function prepareTable(at: number): Promise<Prepared> {
  const schema = schemaOf('table');
  const s = `"${schema}"`;
  const store = await loadStore(schema, at);
  await store.close();
  await analyze(schema);
  const pool = new pg.Pool({ connectionString: PG_URL, max: LOOPS });
  const cycle = `
    WITH settled AS (
      UPDATE ${s}.runs AS r
         SET state = 'succeeded', finished_at = $1, lease_owner = NULL, lease_token = NULL,
             lease_expires_at = NULL
        FROM unnest($4::bigint[], $5::text[]) AS x(id, token)
       WHERE r.id = x.id AND r.lease_token = x.token AND r.state = 'running'
      RETURNING r.id
    ), ${claimThenOutput(`${s}.runs`, `state = 'scheduled'`)}`;
  return barePrepared(pool, cycle, `${s}.runs`);
}

/** The history's indexes beyond its primary key, by layout. */
function historyIndexes(s: string, layout: 'queue' | 'queue-lean' | 'queue-min'): string {
  if (layout === 'queue-min') return '';
  const listing = `CREATE UNIQUE INDEX h_occurrence_key ON ${s}.h (occurrence_key);
    CREATE INDEX h_tenant_time ON ${s}.h (tenant_id, scheduled_for DESC, id DESC);
    CREATE INDEX h_tenant_key_time ON ${s}.h (tenant_id, schedule_key, scheduled_for DESC, id DESC);`;
  if (layout === 'queue-lean') return listing;
  return `${listing}
    CREATE INDEX h_tenant_started ON ${s}.h (tenant_id, started_at) WHERE started_at IS NOT NULL;
    CREATE INDEX h_finished ON ${s}.h (finished_at);
    CREATE INDEX h_schedule_finished ON ${s}.h (schedule_id, finished_at DESC, id DESC);`;
}

async function prepareQueue(at: number, layout: 'queue' | 'queue-lean' | 'queue-min'): Promise<Prepared> {
  const schema = schemaOf(layout);
  const s = `"${schema}"`;
  const store = await loadStore(schema, at);
  await store.close();
  const cols = await runColumns(schema);
  await admin((c) =>
    c.query(`
      CREATE TABLE ${s}.q (LIKE ${s}.runs INCLUDING DEFAULTS) WITH (fillfactor = 50);
      INSERT INTO ${s}.q SELECT * FROM ${s}.runs;
      ALTER TABLE ${s}.q ADD PRIMARY KEY (id);
      CREATE UNIQUE INDEX q_occurrence_key ON ${s}.q (occurrence_key);
      CREATE INDEX q_claim ON ${s}.q (priority DESC, due_at, id);
      CREATE INDEX q_claim_tenant ON ${s}.q (tenant_id, priority DESC, due_at, id);
      CREATE INDEX q_schedule ON ${s}.q (schedule_id);
      CREATE TABLE ${s}.h (LIKE ${s}.runs INCLUDING DEFAULTS);
      ALTER TABLE ${s}.h ADD PRIMARY KEY (id);
      ${historyIndexes(s, layout)}
      TRUNCATE ${s}.runs CASCADE;
      ANALYZE ${s}.q;`),
  );
  const final: Record<string, string> = {
    state: `'succeeded'`,
    finished_at: '$1',
    lease_owner: 'NULL',
    lease_token: 'NULL',
    lease_expires_at: 'NULL',
  };
  const list = cols.map((c) => `"${c}"`).join(', ');
  const values = cols.map((c) => final[c] ?? `d."${c}"`).join(', ');
  const pool = new pg.Pool({ connectionString: PG_URL, max: LOOPS });
  const cycle = `
    WITH d AS (
      DELETE FROM ${s}.q AS r USING unnest($4::bigint[], $5::text[]) AS x(id, token)
       WHERE r.id = x.id AND r.lease_token = x.token
      RETURNING r.*
    ), settled AS (
      INSERT INTO ${s}.h (${list}) SELECT ${values} FROM d RETURNING id
    ), ${claimThenOutput(`${s}.q`, `(lease_expires_at IS NULL OR lease_expires_at < $1)`)}`;
  return barePrepared(pool, cycle, `${s}.q`);
}

async function prepareRaw(at: number): Promise<Prepared> {
  const s = `"${schemaOf('raw')}"`;
  await admin((c) =>
    c.query(`
      DROP SCHEMA IF EXISTS ${s} CASCADE; CREATE SCHEMA ${s};
      CREATE TABLE ${s}.jobs (id bigint PRIMARY KEY, due_at bigint NOT NULL);
      CREATE INDEX ON ${s}.jobs (due_at);
      INSERT INTO ${s}.jobs SELECT g, ${at} FROM generate_series(1, ${RUNS}) AS g;
      ANALYZE ${s}.jobs;`),
  );
  const pool = new pg.Pool({ connectionString: PG_URL, max: LOOPS });
  return {
    pendingBytes: await relationBytes(`${s}.jobs`),
    async loop() {
      let done = 0;
      for (;;) {
        const c = await pool.connect();
        try {
          await c.query('BEGIN');
          const { rows } = await c.query<{ id: string }>({
            name: 'claim',
            text: `SELECT id FROM ${s}.jobs WHERE due_at <= $1 ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
            values: [Date.now(), BATCH],
          });
          if (rows.length > 0) {
            await c.query({
              name: 'delete',
              text: `DELETE FROM ${s}.jobs WHERE id = ANY($1::bigint[])`,
              values: [rows.map((r) => r.id)],
            });
          }
          await c.query('COMMIT');
          if (rows.length === 0) return done;
          done += rows.length;
        } finally {
          c.release();
        }
      }
    },
    close: () => pool.end(),
  };
}

function prepare(layout: Layout, at: number): Promise<Prepared> {
  switch (layout) {
    case 'store':
      return prepareStore(at);
    case 'table':
      return prepareTable(at);
    case 'queue':
    case 'queue-lean':
    case 'queue-min':
      return prepareQueue(at, layout);
    case 'raw':
      return prepareRaw(at);
  }
}

const walPosition = () =>
  admin(async (c) => {
    const { rows } = await c.query<{ lsn: string; fpi: string }>(
      `SELECT pg_current_wal_lsn()::text AS lsn, (SELECT wal_fpi FROM pg_stat_wal)::text AS fpi`,
    );
    return rows[0]!;
  });
const walBytes = (from: string, to: string) =>
  admin(async (c) => {
    const { rows } = await c.query<{ b: string }>(
      `SELECT pg_wal_lsn_diff($2::pg_lsn, $1::pg_lsn)::text AS b`,
      [from, to],
    );
    return Number(rows[0]!.b);
  });

async function measure(layout: Layout): Promise<Measured> {
  await admin((c) => c.query('CHECKPOINT'));
  const p = await prepare(layout, Date.now() - 1_000);
  try {
    const wal0 = await walPosition();
    const server0 = postgresCpuMs();
    const client0 = process.cpuUsage();
    const t0 = performance.now();
    const counts = await Promise.all(Array.from({ length: LOOPS }, (_, i) => p.loop(`w${i}`)));
    const seconds = (performance.now() - t0) / 1000;
    const client = process.cpuUsage(client0);
    const serverMs = postgresCpuMs() - server0;
    const wal1 = await walPosition();
    const done = counts.reduce((a, b) => a + b, 0);
    if (done !== RUNS) throw new Error(`${layout}: settled ${done} runs, expected ${RUNS}`);
    return {
      layout,
      runsPerSecond: Math.round(RUNS / seconds),
      walPerRun: Math.round((await walBytes(wal0.lsn, wal1.lsn)) / RUNS),
      fpi: Number(wal1.fpi) - Number(wal0.fpi),
      serverCpuMsPerRun: +(serverMs / RUNS).toFixed(4),
      clientCpuMsPerRun: +((client.user + client.system) / 1000 / RUNS).toFixed(4),
      bytesPerPending: Math.round(p.pendingBytes / RUNS),
    };
  } finally {
    await p.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const all: Measured[] = [];
  for (let rep = 0; rep < REPS; rep += 1) {
    for (const layout of CHOSEN) {
      const m = await measure(layout);
      all.push(m);
      console.error(`rep ${rep + 1} ${layout}: ${JSON.stringify(m)}`);
    }
  }
  const raws = all.filter((m) => m.layout === 'raw').map((m) => m.runsPerSecond);
  const rawRate = raws.length === 0 ? undefined : median(raws);
  const lines = [
    `Drain of ${RUNS} due runs, ${LOOPS} loops, batch ${BATCH}, median of ${REPS} (interleaved); PostgreSQL at ${PG_URL.replace(/\/\/[^@]*@/, '//')}`,
    '',
    '| layout | runs/s | vs raw | WAL bytes per run | full-page images | server CPU ms per run | client CPU ms per run | bytes per pending run |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const layout of CHOSEN) {
    const ms = all.filter((m) => m.layout === layout);
    const rate = median(ms.map((m) => m.runsPerSecond));
    lines.push(
      `| ${layout} | ${rate.toLocaleString('en-US')} | ${rawRate === undefined ? '-' : (rate / rawRate).toFixed(2) + 'x'} | ` +
        `${median(ms.map((m) => m.walPerRun)).toLocaleString('en-US')} | ${median(ms.map((m) => m.fpi))} | ` +
        `${median(ms.map((m) => m.serverCpuMsPerRun))} | ${median(ms.map((m) => m.clientCpuMsPerRun))} | ` +
        `${median(ms.map((m) => m.bytesPerPending))} |`,
    );
  }
  const table = lines.join('\n');
  console.log(table);
  if (OUT !== '')
    writeFileSync(OUT, `${table}\n\nRaw measurements:\n\n${all.map((m) => JSON.stringify(m)).join('\n')}\n`);
}

await main();
