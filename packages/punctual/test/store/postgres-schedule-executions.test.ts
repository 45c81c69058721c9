// A schedule deleted while a run of it settles, in both orders, on PostgreSQL: the execution counts
// (schedule_executions, migration 22) never outlive their schedule, though the settlement locks no schedule
// row. A delete in progress makes the settlement wait, which then counts nothing; a settlement in progress
// makes the delete wait, which then deletes what it counted. Each side is played by a transaction held open
// on a connection of its own, the other by the store. Needs PUNCTUAL_TEST_PG_URL; without it the suite is
// skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PgDb } from '../../src/store/postgres/postgres-database.js';
import { forgetExecutions } from '../../src/store/postgres/postgres-executions.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';
import { T0, TENANT } from '../support/fixtures.js';
import { addRuns, claimOne, create, settlement } from './conformance/helpers.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';

describe.runIf(PG_URL !== '' || REQUIRED)('execution counts and a schedule delete: postgres', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const s = `"${schema}"`;
  const store = postgresStore({ connectionString: PG_URL, schema });
  const clients: pg.Client[] = [];

  const connect = async () => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    clients.push(c);
    return c;
  };
  /** The counts rows, by schedule id. */
  const counted = async (c: pg.Client) =>
    (await c.query<{ id: string }>(`SELECT schedule_id::text AS id FROM ${s}.schedule_executions`)).rows.map(
      (r) => r.id,
    );
  /** Resolves once a session waits for the counts lock of schedule `id` (which the other side holds). */
  const waitingForLock = async (c: pg.Client, id: string) => {
    for (;;) {
      const { rows } = await c.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks
          WHERE locktype = 'advisory' AND NOT granted AND objsubid = 1
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, $2::bigint % 64)`,
        [`${s}.schedule_executions`, id],
      );
      if (rows[0]!.n > 0) return;
    }
  };

  beforeAll(async () => {
    if (PG_URL === '') throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    await store.migrate();
  });
  afterAll(async () => {
    await store.close();
    for (const c of clients) await c.end();
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
    await c.end();
  });

  it('a delete in progress: the settlement waits for it, then counts nothing', async () => {
    const sc = await create(store, { key: 'deleted-first' });
    await addRuns(store, sc, [T0]);
    const run = await claimOne(store, T0 + 10);
    const other = await connect();
    const watch = await connect();
    // The delete, up to its commit: the schedule row gone, its counts forgotten (bucket lock held).
    await other.query('BEGIN');
    await other.query(`DELETE FROM ${s}.schedules WHERE id = $1`, [sc.id]);
    await forgetExecutions({ s } as PgDb, other, sc.id);
    const settling = store.settleRuns(
      [settlement(run, { state: 'succeeded', result: null }, T0 + 20)],
      T0 + 20,
    );
    await waitingForLock(watch, run.run.scheduleId);
    await other.query('COMMIT');
    const [done] = await settling;
    expect(done).toMatchObject({ from: 'running', to: 'succeeded' }); // the run settles all the same
    expect(await counted(watch)).not.toContain(sc.id);
  });

  it('a settlement in progress: the delete waits for it, then deletes what it counted', async () => {
    const sc = await create(store, { key: 'settled-first' });
    const other = await connect();
    const watch = await connect();
    // The settlement, up to its commit: count_executions has counted the schedule (bucket lock held shared).
    await other.query('BEGIN');
    await other.query(`SELECT ${s}.count_executions($1::bigint[], '{1}', $2::bigint[], $2::bigint[])`, [
      [sc.id],
      [T0],
    ]);
    expect(await counted(other)).toContain(sc.id); // counted, as the settlement sees it
    expect(await counted(watch)).not.toContain(sc.id); // not committed yet
    const deleting = store.deleteSchedule(TENANT, sc.key, T0 + 30);
    await waitingForLock(watch, sc.id);
    // Once committed, the waiting delete goes on at once: the row it then deletes is the one counted above.
    await other.query('COMMIT');
    expect((await deleting).deleted).toBe(true);
    expect(await counted(watch)).not.toContain(sc.id);
  });
});
