// The raw-SQL baseline: what PostgreSQL itself allows. One jobs table with an index on the due time, a
// `FOR UPDATE SKIP LOCKED` claim held in a transaction while the handler runs, delete on completion; each
// worker sleeps until the earliest due row (at most 50 ms, to see new rows). Recurring schedules are one
// row each whose due time moves forward by its period in the claiming statement (no run history).

import pg from 'pg';
import { cronPeriod, dropSchema, schemaBytes, type OnRun, type Peer, type PeerContext } from './peer.js';

const SCHEMA = 'bench_peers_raw';
const MAX_SLEEP_MS = 50;
const SCHEDULES_SQL = `UPDATE "${SCHEMA}".schedules SET next_at = next_at + period_ms WHERE id IN (
  SELECT id FROM "${SCHEMA}".schedules WHERE next_at <= $1 ORDER BY next_at LIMIT 100
  FOR UPDATE SKIP LOCKED) RETURNING id, (next_at - period_ms)::text AS fire_at`;

export class RawSqlPeer implements Peer {
  readonly name = 'raw-sql';
  readonly server = 'postgres' as const;
  readonly maxRecurring = 10_000_000;
  settings: Record<string, string | number | boolean> = {};
  private pool!: pg.Pool;
  private ctx!: PeerContext;
  private stopped = false;
  private loops: Promise<void>[] = [];
  private hasSchedules = false;

  async setup(ctx: PeerContext): Promise<void> {
    this.ctx = ctx;
    await dropSchema(ctx.pgUrl, SCHEMA);
    this.pool = new pg.Pool({ connectionString: ctx.pgUrl, max: ctx.concurrency + 2 });
    await this.pool.query(`CREATE SCHEMA "${SCHEMA}"`);
    await this.pool.query(`CREATE TABLE "${SCHEMA}".jobs (id text PRIMARY KEY, run_at bigint NOT NULL)`);
    await this.pool.query(`CREATE INDEX ON "${SCHEMA}".jobs (run_at)`);
    await this.pool.query(
      `CREATE TABLE "${SCHEMA}".schedules (id text PRIMARY KEY, next_at bigint NOT NULL, period_ms bigint NOT NULL)`,
    );
    await this.pool.query(`CREATE INDEX ON "${SCHEMA}".schedules (next_at)`);
    this.settings = {
      schema: SCHEMA,
      claim: 'BEGIN; SELECT … ORDER BY run_at LIMIT 1 FOR UPDATE SKIP LOCKED; handler; DELETE; COMMIT',
      schedules: 'UPDATE … SET next_at = next_at + period_ms … LIMIT 100 FOR UPDATE SKIP LOCKED RETURNING',
      pool: ctx.concurrency + 2,
      idleSleep: `until earliest due row, at most ${MAX_SLEEP_MS} ms`,
      guarantees: 'at-least-once; no retries, history, leases or misfire handling',
    };
  }

  async enqueueOne(id: string, at: number): Promise<void> {
    await this.pool.query(`INSERT INTO "${SCHEMA}".jobs (id, run_at) VALUES ($1, $2)`, [id, at]);
  }

  async enqueueBulk(items: { id: string; at: number }[]): Promise<void> {
    await this.pool.query(
      `INSERT INTO "${SCHEMA}".jobs (id, run_at) SELECT * FROM unnest($1::text[], $2::bigint[])`,
      [items.map((i) => i.id), items.map((i) => i.at)],
    );
  }

  loadDue(items: { id: string; at: number }[]): Promise<void> {
    return this.enqueueBulk(items);
  }

  async scheduleRecurring(n: number, cronFor: (i: number) => string): Promise<void> {
    this.hasSchedules = n > 0;
    const now = Date.now();
    for (let i = 0; i < n; i += 1000) {
      const ids: string[] = [];
      const next: number[] = [];
      const period: number[] = [];
      for (let j = i; j < Math.min(n, i + 1000); j++) {
        const { periodMs, offsetMs } = cronPeriod(cronFor(j));
        ids.push(`rec-${j}`);
        next.push(Math.floor((now - offsetMs) / periodMs) * periodMs + periodMs + offsetMs);
        period.push(periodMs);
      }
      await this.pool.query(
        `INSERT INTO "${SCHEMA}".schedules SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[])`,
        [ids, next, period],
      );
    }
  }

  async startWorkers(concurrency: number, onRun: OnRun): Promise<void> {
    for (let i = 0; i < concurrency; i++) this.loops.push(this.loop(onRun));
  }

  private async loop(onRun: OnRun): Promise<void> {
    const client = await this.pool.connect();
    try {
      // Bounded by `stopped` (teardown) and by the workload's own deadline, which calls teardown.
      while (!this.stopped) {
        const now = Date.now();
        const sched = this.hasSchedules
          ? await client.query<{ id: string; fire_at: string }>(SCHEDULES_SQL, [now])
          : { rows: [] as { id: string; fire_at: string }[] };
        for (const r of sched.rows) onRun(r.id, Number(r.fire_at));
        await client.query('BEGIN');
        const { rows } = await client.query<{ id: string; run_at: string }>(
          `SELECT id, run_at::text FROM "${SCHEMA}".jobs WHERE run_at <= $1 ORDER BY run_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
          [now],
        );
        const job = rows[0];
        if (job) {
          onRun(job.id, Number(job.run_at));
          await client.query(`DELETE FROM "${SCHEMA}".jobs WHERE id = $1`, [job.id]);
          await client.query('COMMIT');
          continue;
        }
        await client.query('COMMIT');
        if (sched.rows.length > 0) continue;
        const next = await client.query<{ t: string | null }>(
          `SELECT least((SELECT min(run_at) FROM "${SCHEMA}".jobs), (SELECT min(next_at) FROM "${SCHEMA}".schedules))::text AS t`,
        );
        const t = next.rows[0]?.t;
        const wait =
          t === null || t === undefined ? MAX_SLEEP_MS : Math.min(MAX_SLEEP_MS, Number(t) - Date.now());
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    } finally {
      client.release();
    }
  }

  storageBytes(): Promise<number> {
    return schemaBytes(this.ctx.pgUrl, SCHEMA);
  }

  async teardown(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled(this.loops);
    await this.pool.end();
    await dropSchema(this.ctx.pgUrl, SCHEMA);
  }
}
