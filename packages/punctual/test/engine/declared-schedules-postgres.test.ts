// Declared schedules on one PostgreSQL database: instances that start at once, each with its own store
// (its own connections), reconcile the declared set once: every schedule created once, at version 1, even
// when their clocks differ; a later restart changes nothing, and an orphan is removed once.
// Needs PUNCTUAL_TEST_PG_URL; without it the suite is skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrphanPolicy, ReconcileReport } from '../../src/domain/declared.js';
import { createScheduler, type Scheduler } from '../../src/scheduler.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';
import { collect } from '../support/events.js';
import { TestClock } from '../support/test-clock.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';

let opened: { schedulers: Scheduler[]; schemas: string[] } = { schedulers: [], schemas: [] };

const KEYS = ['monthly-invoices', 'nightly-export', 'rates-sync', 'standup'];

/** The billing application's declarations; `withSync: false` leaves rates-sync out. */
function billing(s: Scheduler, o: { withSync?: boolean } = {}): void {
  s.handle('nightly-export', () => {}, { schedule: { spec: '0 2 * * *', tz: 'Europe/Paris' } });
  s.handle('invoice', () => {}, { schedule: { key: 'monthly-invoices', spec: '0 6 1 * *' } });
  s.handle('sync', () => {});
  s.defineSchedules([
    // Without DTSTART an RRULE starts at its creation instant: instances with other clocks must not rewrite it.
    { key: 'standup', spec: 'FREQ=DAILY;BYHOUR=9', target: { handler: 'sync' } },
    ...(o.withSync === false ? [] : [{ key: 'rates-sync', spec: '@every 1h', target: { handler: 'sync' } }]),
  ]);
}

/** An instance on `schema` with its own store and a frozen clock at `start`, declared but not started. */
function instance(
  schema: string,
  start: string,
  o: { withSync?: boolean; orphans?: OrphanPolicy } = {},
): { s: Scheduler; reports: ReconcileReport[] } {
  const s = createScheduler({
    store: postgresStore({ connectionString: PG_URL, schema }),
    clock: new TestClock(start),
    clockSync: { enabled: false },
    declared: { app: 'billing', orphans: o.orphans ?? 'keep' },
  });
  opened.schedulers.push(s);
  const reports = collect(s, 'schedules:reconciled');
  billing(s, o);
  return { s, reports };
}

function freshSchema(): string {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  opened.schemas.push(schema);
  return schema;
}

async function versions(s: Scheduler): Promise<Record<string, [number, string]>> {
  const page = await s.list({ limit: 100 });
  return Object.fromEntries(page.items.map((x) => [x.key, [x.version, x.state]]));
}

if (PG_URL === '') {
  describe.skipIf(!REQUIRED)('declared schedules on postgres', () => {
    it('needs PostgreSQL', () => {
      throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    });
  });
} else {
  afterEach(async () => {
    const { schedulers, schemas } = opened;
    opened = { schedulers: [], schemas: [] };
    // Stop with no grace: the test clocks never move.
    await Promise.all(schedulers.map((s) => s.stop({ graceMs: 0 }).then(() => s.store.close())));
    const pg = await import('pg');
    const c = new pg.default.Client({ connectionString: PG_URL });
    await c.connect();
    for (const schema of schemas) await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await c.end();
  });

  describe('declared schedules across instances on postgres', () => {
    it('instances starting at once create each declared schedule once, at version 1', async () => {
      const schema = freshSchema();
      const all = [
        instance(schema, '2026-01-05T00:00:00.000Z'),
        instance(schema, '2026-01-05T00:02:00.000Z'),
        instance(schema, '2026-01-05T00:05:00.000Z'),
      ];
      await Promise.all(all.map((i) => i.s.start()));
      const reports = all.flatMap((i) => i.reports);
      expect(reports).toHaveLength(3);
      expect(reports.flatMap((r) => r.created).sort()).toEqual(KEYS);
      expect(reports.flatMap((r) => r.updated)).toEqual([]);
      expect(reports.flatMap((r) => r.unchanged).sort()).toEqual([...KEYS, ...KEYS].sort());
      const expected = Object.fromEntries(KEYS.map((k) => [k, [1, 'active']]));
      expect(await versions(all[0]!.s)).toEqual(expected);

      // A restart (later, another clock) with the same declarations changes nothing.
      const again = instance(schema, '2026-01-06T12:00:00.000Z');
      await again.s.start();
      expect(again.reports[0]).toMatchObject({ created: [], updated: [], removed: [] });
      expect(again.reports[0]!.unchanged.slice().sort()).toEqual(KEYS);
      expect(await versions(again.s)).toEqual(expected);
    });

    it('instances dropping a declaration at once remove it once and leave the rest as it was', async () => {
      const schema = freshSchema();
      await instance(schema, '2026-01-05T00:00:00.000Z').s.start();
      const next = [0, 1].map(() =>
        instance(schema, '2026-01-05T01:00:00.000Z', { withSync: false, orphans: 'delete' }),
      );
      await Promise.all(next.map((i) => i.s.start()));
      const reports = next.flatMap((i) => i.reports);
      expect(reports.flatMap((r) => r.removed)).toEqual(['rates-sync']);
      expect(reports.flatMap((r) => r.kept)).toEqual([]);
      expect(await versions(next[0]!.s)).toEqual({
        'monthly-invoices': [1, 'active'],
        'nightly-export': [1, 'active'],
        standup: [1, 'active'],
      });
    });
  });
}
