// The raw-SQL baseline: what PostgreSQL itself allows. One jobs table with an index on the due time;
// `concurrency` loops, each claiming a batch with `FOR UPDATE SKIP LOCKED` in a transaction held while it runs
// the batch's handlers one by one, then deleting the batch and committing; an idle loop sleeps until the
// earliest due row (at most 50 ms, to see new rows). Recurring schedules are one row each whose due time
// moves forward by its period in the same transaction (no run history).

import pg from 'pg';
import {
  cronPeriod,
  dropSchema,
  nextPhase,
  schemaBytes,
  type OnRun,
  type Peer,
  type PeerContext,
} from './peer.js';

const SCHEMA = 'bench_peers_raw';
const MAX_SLEEP_MS = 50;
/**
 * Jobs claimed per transaction. Tried on `drain` (20000 due, concurrency 10, 5 reps, 2-core machine, medians):
 * 1 → ~2.0k runs/s, 20 → ~19k, 50 → ~27k, 100 → ~36k. 100 is the fastest tried, and the same cap as
 * Punctual's claimBatch and this file's schedule claim; with a no-op handler the rate keeps rising with the
 * batch (it counts round trips per run), so larger batches were not pursued.
 */
const BATCH = 100;
// The text column is aliased `due`: named `run_at`, ORDER BY would sort by the text and not walk the index.
const CLAIM_SQL = `SELECT id, run_at::text AS due FROM "${SCHEMA}".jobs WHERE run_at <= $1 ORDER BY run_at
  LIMIT $2 FOR UPDATE SKIP LOCKED`;
// `= ANY(ARRAY(…))` keeps the update on the primary key whatever the statistics (right after a bulk load,
// `IN (…)` is planned as a hash join over a sequential scan of every schedule).
const SCHEDULES_SQL = `UPDATE "${SCHEMA}".schedules SET next_at = next_at + period_ms WHERE id = ANY(ARRAY(
  SELECT id FROM "${SCHEMA}".schedules WHERE next_at <= $1 ORDER BY next_at LIMIT 100
  FOR UPDATE SKIP LOCKED)) RETURNING id, (next_at - period_ms)::text AS fire_at`;

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
      loops: `${ctx.concurrency} (one handler in flight each)`,
      claim: `BEGIN; SELECT … ORDER BY run_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED; handlers; DELETE … = ANY(ids); COMMIT`,
      claimBatch: BATCH,
      schedules:
        'in the same transaction: UPDATE … SET next_at = next_at + period_ms … LIMIT 100 FOR UPDATE SKIP LOCKED RETURNING',
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

  scheduleRecurring(n: number, cronFor: (i: number) => string): Promise<void> {
    return this.insertSchedules(n, (i) => cronPeriod(cronFor(i)));
  }

  scheduleSpread(n: number, periodMs: number, phaseFor: (i: number) => number): Promise<void> {
    return this.insertSchedules(n, (i) => ({ periodMs, offsetMs: phaseFor(i) }));
  }

  /** One row per schedule, due at its next phase instant, 1000 rows per INSERT. */
  private async insertSchedules(
    n: number,
    timing: (i: number) => { periodMs: number; offsetMs: number },
  ): Promise<void> {
    this.hasSchedules = n > 0;
    for (let i = 0; i < n; i += 1000) {
      const now = Date.now();
      const ids: string[] = [];
      const next: number[] = [];
      const period: number[] = [];
      for (let j = i; j < Math.min(n, i + 1000); j++) {
        const { periodMs, offsetMs } = timing(j);
        ids.push(`rec-${j}`);
        next.push(nextPhase(periodMs, offsetMs, now));
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
        // One transaction per batch: the claimed rows stay locked (other loops skip them) while this
        // loop runs their handlers one after another, and are deleted/advanced only on COMMIT, so a crash
        // before it leaves them due again (at-least-once). One loop = one handler in flight.
        await client.query('BEGIN');
        const sched = this.hasSchedules
          ? await client.query<{ id: string; fire_at: string }>(SCHEDULES_SQL, [now])
          : { rows: [] as { id: string; fire_at: string }[] };
        const { rows } = await client.query<{ id: string; due: string }>(CLAIM_SQL, [now, BATCH]);
        for (const r of sched.rows) onRun(r.id, Number(r.fire_at));
        for (const job of rows) onRun(job.id, Number(job.due));
        if (rows.length > 0)
          await client.query(`DELETE FROM "${SCHEMA}".jobs WHERE id = ANY($1::text[])`, [
            rows.map((r) => r.id),
          ]);
        await client.query('COMMIT');
        if (rows.length > 0 || sched.rows.length > 0) continue;
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
