// PostgreSQL: the insert of new schedules (postgres-schedule-inserts.ts). A schedule created by a bulk put
// has exactly the rows (schedule and revision, column for column) of one created by a single put, and two
// bulk puts racing to create the same keys both end well: one creates each key, the other, failing its
// insert on the key, starts over on the update path and finds them unchanged. Needs PUNCTUAL_TEST_PG_URL;
// without it the file is skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ScheduleRevision } from '../../src/domain/schedule-revision.js';
import { createScheduler } from '../../src/scheduler.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';
import { MINUTE, T0, TENANT } from '../support/fixtures.js';
import { TestClock } from '../support/test-clock.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';

describe.runIf(PG_URL !== '' || REQUIRED)('postgres: inserting new schedules', () => {
  async function withSchema(
    fn: (ctx: { s: string; query: Query; store: ReturnType<typeof postgresStore> }) => Promise<void>,
  ) {
    if (PG_URL === '') throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    const pg = (await import('pg')).default;
    const db = new pg.Client({ connectionString: PG_URL });
    await db.connect();
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const store = postgresStore({ connectionString: PG_URL, schema, listen: false });
    try {
      await store.migrate();
      await fn({ s: `"${schema}"`, query: async (t, v) => (await db.query(t, v)).rows, store });
    } finally {
      await store.close();
      await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await db.end();
    }
  }

  it('writes, for a bulk-created schedule, the rows a single put writes', async () => {
    await withSchema(async ({ s, query, store }) => {
      const s1 = createScheduler({ store, clock: new TestClock(T0) });
      s1.handle('h', () => {});
      const api = s1.tenant(TENANT);
      const input = (key: string) => ({
        key,
        spec: '*/5 * * * *',
        target: { handler: 'h' },
        payload: { z: { b: 2, a: 1 }, list: [1, 'two', null] },
        labels: { team: 'ops' },
        summary: 'Every five minutes',
        policies: { overlap: 'skip' as const },
      });
      await api.putBulk([input('bulk'), input('bulk-2')], { actor: 'key:7' });
      await api.put(input('single'), { actor: 'key:7' });
      const rows = await query(`SELECT * FROM ${s}.schedules ORDER BY key`);
      expect(rows.map((r) => r.key)).toEqual(['bulk', 'bulk-2', 'single']);
      const same = (r: Record<string, unknown>) => ({ ...r, id: null, key: null, created_seq: null });
      expect(same(rows[0]!)).toEqual(same(rows[2]!));
      // Each creation keeps its revision in its row, under a number of its own, until the schedule changes.
      expect(rows.map((r) => r.created_by)).toEqual(['key:7', 'key:7', 'key:7']);
      expect(new Set(rows.map((r) => r.created_seq)).size).toBe(3);
      expect(await query(`SELECT * FROM ${s}.schedule_revisions`)).toEqual([]);
      const revs = await Promise.all(
        ['bulk', 'single'].map(
          async (key) => (await store.listScheduleRevisions({ tenantId: TENANT, key, limit: 5 })).items,
        ),
      );
      const sameRev = (r: ScheduleRevision) => ({
        ...r,
        seq: null,
        scheduleId: null,
        key: null,
        content: null,
      });
      expect(revs.map((items) => items.length)).toEqual([1, 1]);
      expect(sameRev(revs[0]![0]!)).toEqual(sameRev(revs[1]![0]!));
      expect(revs[0]![0]).toMatchObject({
        seq: Number(rows[0]!.created_seq),
        scheduleId: String(rows[0]!.id),
        version: 1,
        change: 'created',
        actor: 'key:7',
        state: 'active',
      });
      // Ids follow the order given.
      expect(Number(rows[0]!.id)).toBeLessThan(Number(rows[1]!.id));
    });
  });

  it('lets two bulk puts race to create the same keys: each key is created once, the other put finds it', async () => {
    await withSchema(async ({ s, query, store }) => {
      const api = () => {
        const sc = createScheduler({ store, clock: new TestClock(T0 + MINUTE) });
        sc.handle('h', () => {});
        return sc.tenant(TENANT);
      };
      const inputs = Array.from({ length: 300 }, (_, i) => ({
        key: `k${i}`,
        spec: '0 * * * *',
        target: { handler: 'h' },
      }));
      const [a, b] = await Promise.all([
        api().putBulk(inputs, { batchSize: 100 }),
        api().putBulk(inputs, { batchSize: 100 }),
      ]);
      expect(a.totals.refused + b.totals.refused).toBe(0);
      expect(a.totals.created + b.totals.created).toBe(300);
      expect(a.totals.unchanged + b.totals.unchanged).toBe(300);
      // One creation each: revision rows and creations kept in schedule rows, under distinct numbers.
      const [{ n, seqs }] = (await query(
        `SELECT count(*)::int AS n, count(DISTINCT seq)::int AS seqs FROM (
           SELECT seq FROM ${s}.schedule_revisions
           UNION ALL SELECT created_seq FROM ${s}.schedules WHERE created_seq IS NOT NULL) AS c`,
      )) as [{ n: number; seqs: number }];
      expect([n, seqs]).toEqual([300, 300]);
    });
  });
});

type Query = (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;
