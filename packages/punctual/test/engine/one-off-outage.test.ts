// One-offs after a long outage (issue 19.2): an `@at` or `@in` runs once, late, however long the outage,
// whether or not its run was written before the outage; only a deadline stops it. The catch-up window and
// the misfire policy are about recurring specs. Runs on SQLite and, when PUNCTUAL_TEST_PG_URL is set, on
// PostgreSQL (each test in a schema of its own, dropped afterwards).

import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Run } from '../../src/domain/run.js';
import { postgresStore } from '../../src/store/postgres/postgres-store.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { harness, type Harness } from '../support/harness.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const HOUR = 3_600_000;
const T0 = Date.parse('2026-01-05T00:00:00Z');

const schemas: string[] = [];
interface AdminPool {
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}
let admin: Promise<AdminPool> | undefined;
afterAll(async () => {
  if (admin === undefined) return;
  const pool = await admin;
  for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await pool.end();
});

const stores: [string, () => Store][] = [['sqlite', () => sqliteStore({ path: ':memory:' })]];
if (PG_URL !== '') {
  stores.push([
    'postgres',
    () => {
      admin ??= import('pg').then(
        (m) => new m.default.Pool({ connectionString: PG_URL, max: 1 }) as AdminPool,
      );
      const schema = `t_${randomBytes(6).toString('hex')}`;
      schemas.push(schema);
      return postgresStore({ connectionString: PG_URL, schema });
    },
  ]);
} else if (process.env.PUNCTUAL_REQUIRE_SERVICES === '1') {
  throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
}

describe.each(stores)('one-offs after an outage (%s)', (_name, openStore) => {
  let h: Harness;
  afterEach(async () => h?.close());

  /** The run's final state, whichever it is (succeeded, expired or skipped), so a wrong one fails at once. */
  function finalRun(): Promise<Run> {
    return Promise.race(
      (['run:succeeded', 'run:expired', 'run:skipped'] as const).map((e) => h.waitFor(e).then((p) => p.run)),
    );
  }

  async function start(): Promise<void> {
    // The test clock is far from the database server's: no clock correction. The not-fired report is kept
    // out of the way: on PostgreSQL it marks the overdue run (a row lock) while the restarted worker claims,
    // and a claim skips locked rows, so the run would wait for the worker's next wake-up (maxSleepMs), which
    // a test clock never reaches.
    h = await harness({
      store: openStore(),
      clockSync: { enabled: false },
      notFiredGraceMs: 100 * HOUR,
    });
    h.s.handle('once', () => {});
  }

  /** Saves `@at T0 + 1h`, optionally lets its run be written, then is down for `downMs`; returns the end. */
  async function outage(opts: { materialise: boolean; downMs: number; deadlineMs?: number }): Promise<Run> {
    await start();
    const at = T0 + HOUR;
    const written = h.waitFor('run:scheduled');
    await h.s.put({
      key: 'once',
      spec: `@at ${new Date(at).toISOString()}`,
      target: { handler: 'once' },
      ...(opts.deadlineMs !== undefined ? { policies: { deadlineMs: opts.deadlineMs } } : {}),
    });
    if (opts.materialise) {
      await h.clock.set(at - 5_000); // inside the 10 s look-ahead
      expect((await written).run.scheduledFor).toBe(at);
    }
    await h.s.stop();
    const ended = (await h.s.listRuns({ scheduleKey: 'once' })).items;
    expect(ended).toHaveLength(opts.materialise ? 1 : 0);
    await h.clock.set(at + opts.downMs);
    const final = finalRun();
    await h.s.start();
    return final;
  }

  for (const materialise of [false, true]) {
    const when = materialise ? 'written before the outage' : 'not yet written';
    it(`an @at ${when} runs once, 48 h late, with the lateness on the run`, async () => {
      const run = await outage({ materialise, downMs: 48 * HOUR });
      expect(run.state).toBe('succeeded');
      expect(run.scheduledFor).toBe(T0 + HOUR);
      expect(run.startedAt! - run.scheduledFor).toBe(48 * HOUR);
      expect(h.of('run:skipped')).toEqual([]);
      const runs = (await h.s.listRuns({ scheduleKey: 'once' })).items;
      expect(runs.map((r) => r.state)).toEqual(['succeeded']);
      expect((await h.s.get('once'))!.state).toBe('completed');
    });

    it(`an @at ${when} with a deadline expires instead`, async () => {
      const run = await outage({ materialise, downMs: 48 * HOUR, deadlineMs: HOUR });
      expect(run).toMatchObject({ state: 'expired', reason: 'deadline', scheduledFor: T0 + HOUR });
      expect(h.of('run:started')).toEqual([]);
    });
  }

  it('an @in whose instant passed during the outage runs too, whatever the misfire policy', async () => {
    await start();
    await h.s.put({
      key: 'later',
      spec: '@in 2h',
      target: { handler: 'once' },
      policies: { misfire: 'skip', catchupWindowMs: 60_000 },
    });
    await h.s.stop();
    await h.clock.set(T0 + 72 * HOUR);
    const done = finalRun();
    await h.s.start();
    const run = await done;
    expect(run).toMatchObject({ state: 'succeeded', scheduledFor: T0 + 2 * HOUR });
    expect(h.of('run:skipped')).toEqual([]);
  });

  it('the emitter example @at 1647067401 (2022) saved in 2026 runs at once, as time.md promises', async () => {
    await start();
    const done = finalRun();
    const { schedule } = await h.s.put({
      key: 'emitter',
      spec: '@at 1647067401',
      target: { handler: 'once' },
    });
    expect(schedule.state).toBe('active');
    const run = await done;
    expect(run).toMatchObject({ state: 'succeeded', scheduledFor: 1_647_067_401_000 });
    expect(run.startedAt).toBe(T0);
    expect(h.of('run:skipped')).toEqual([]);
  });
});
