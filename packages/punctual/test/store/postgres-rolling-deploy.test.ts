// A rolling deploy on one PostgreSQL schema: an instance of the running release (version N) and one of the
// next (N+1, played by a store that knows one more migration) run side by side while N+1 applies an expand
// migration; N keeps working and an N instance may still start. A later contract migration, declared as
// needing N+2, makes an N instance refuse to start (SCHEMA_TOO_NEW) and change nothing. Needs
// PUNCTUAL_TEST_PG_URL; without it the suite is skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createScheduler, type Scheduler } from '../../src/scheduler.js';
import { LATEST_VERSION, MIGRATIONS, type Migration } from '../../src/store/postgres/migrations.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';
import { nextEvent } from '../support/events.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';
// The newest migration this build knows (numbers are reserved per change, so the list may skip some).
const N = LATEST_VERSION;

/** N+1: an expand step older code ignores (a nullable column), so it still works with release N. */
const expand: Migration = {
  version: N + 1,
  name: 'test-expand-labels',
  sql: (s) => `ALTER TABLE ${s}.schedules ADD COLUMN test_labels JSONB`,
  compatibleFrom: N,
};
/** N+2: the contract step, which only code that knows it may run against. */
const contract: Migration = {
  version: N + 2,
  name: 'test-contract-labels',
  sql: (s) => `ALTER TABLE ${s}.schedules ALTER COLUMN test_labels SET DEFAULT '{}'::jsonb`,
  compatibleFrom: N + 2,
};

const schema = `t_${randomBytes(6).toString('hex')}`;
const schedulers: Scheduler[] = [];
function instance(migrations?: readonly Migration[]): Scheduler {
  const s = createScheduler({
    store: postgresStore({ connectionString: PG_URL, schema, migrations }),
    clockSync: { enabled: false },
  });
  s.handle('job', () => {});
  schedulers.push(s);
  return s;
}

/** Triggers the schedule on `s`, the only instance running, and waits for that run to succeed on it. */
async function runsOn(s: Scheduler): Promise<void> {
  const done = nextEvent(s, 'run:succeeded');
  const run = await s.trigger('k');
  expect((await done).run.id).toBe(run.id);
}

const rows = async (): Promise<{ version: number; compatible_from: number | null }[]> => {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    const r = await c.query(`SELECT version, compatible_from FROM ${schema}.punctual_migrations ORDER BY 1`);
    return r.rows;
  } finally {
    await c.end();
  }
};

if (PG_URL === '') {
  describe.skipIf(!REQUIRED)(
    'rolling deploy: PostgreSQL is not configured (set PUNCTUAL_TEST_PG_URL)',
    () => {
      it('needs PostgreSQL', () => {
        throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
      });
    },
  );
} else {
  afterAll(async () => {
    await Promise.allSettled(schedulers.map((s) => s.close()));
    const pg = (await import('pg')).default;
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await c.end();
  });

  describe('a rolling deploy across a migration', () => {
    it('runs release N beside N+1 after an expand step, and refuses N after the contract step', async () => {
      const old = instance();
      await old.start();
      await old.put({ key: 'k', spec: '@every 1h', target: { handler: 'job' } });
      await runsOn(old);

      // N+1 starts (and applies the expand step) while N runs; each then delivers alone.
      const next = instance([...MIGRATIONS, expand]);
      await next.start();
      expect((await rows()).at(-1)).toEqual({ version: N + 1, compatible_from: N });
      await old.stop();
      await runsOn(next);
      await next.stop();
      // An N instance restarted in the middle of the deploy starts on the expanded schema and delivers.
      const oldAgain = instance();
      await oldAgain.start();
      await runsOn(oldAgain);
      expect(await oldAgain.store.schemaVersion!()).toEqual({ applied: N + 1, expected: N, required: N });

      const last = instance([...MIGRATIONS, expand, contract]);
      await last.start();
      await oldAgain.stop();
      await runsOn(last);
      const refused = instance();
      await expect(refused.start()).rejects.toMatchObject({
        code: 'SCHEMA_TOO_NEW',
        details: { databaseVersion: N + 2, codeVersion: N, requiredCodeVersion: N + 2 },
      });
      expect(await refused.store.schemaVersion!()).toEqual({ applied: N + 2, expected: N, required: N + 2 });
      const refusedNext = instance([...MIGRATIONS, expand]);
      await expect(refusedNext.start()).rejects.toMatchObject({ code: 'SCHEMA_TOO_NEW' });
      expect((await rows()).map((r) => r.version)).toEqual([
        ...MIGRATIONS.map((m) => m.version),
        N + 1,
        N + 2,
      ]);
    });
  });
}
