// The PostgreSQL store: the shared conformance suite plus what only a multi-instance store must prove
// (concurrent migration, racing claims and advances, overlap safety across instances, NOTIFY wake-ups, clock
// offset, connection loss). Each test gets its own schema, dropped when the test passes and kept (and named
// in the log) when it fails. Needs PUNCTUAL_TEST_PG_URL; without it the suite is skipped, or fails when
// PUNCTUAL_REQUIRE_SERVICES=1.

import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ClaimedRun, Store } from '../../src/store/store.js';
import { postgresStore, type PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { LATEST_VERSION, MIGRATIONS } from '../../src/store/postgres/migrations.js';
import { draft, OTHER_TENANT, policies, runInsert, T0, TENANT } from '../support/fixtures.js';
import { describeStoreConformance } from './conformance.js';
import { notMigratedTests } from './not-migrated.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';

interface Admin {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

let adminPool: Promise<Admin> | undefined;
function admin(): Promise<Admin> {
  adminPool ??= import('pg').then((m) => new m.default.Pool({ connectionString: PG_URL, max: 3 }) as Admin);
  return adminPool;
}

/** Schemas and stores opened by the current test. */
let current: { schemas: string[]; stores: PostgresStore[] } = { schemas: [], stores: [] };

function freshSchema(): string {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  current.schemas.push(schema);
  return schema;
}

/** A store on `schema` (a fresh one by default), closed after the test. */
function storeOn(schema: string, opts: { poolSize?: number; listen?: boolean } = {}): PostgresStore {
  const store = postgresStore({ connectionString: PG_URL, schema, ...opts });
  current.stores.push(store);
  return store;
}

async function open(): Promise<PostgresStore> {
  const store = storeOn(freshSchema());
  await store.migrate();
  return store;
}

if (PG_URL === '') {
  if (REQUIRED) {
    describe('postgres store', () => {
      it('needs PostgreSQL', () => {
        throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
      });
    });
  } else {
    console.warn('postgres store tests skipped: PostgreSQL is not configured (set PUNCTUAL_TEST_PG_URL)');
    describe.skip('postgres store: PostgreSQL is not configured (set PUNCTUAL_TEST_PG_URL to run it)', () => {
      it('runs against PostgreSQL', () => undefined);
    });
  }
} else {
  afterEach(async (ctx) => {
    const { schemas, stores } = current;
    current = { schemas: [], stores: [] };
    await Promise.all(stores.map((s) => s.close()));
    if (ctx.task.result?.state === 'fail') {
      console.error(`postgres test "${ctx.task.name}" failed; its schema is kept: ${schemas.join(', ')}`);
      return;
    }
    const db = await admin();
    for (const schema of schemas) await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });
  afterAll(async () => {
    await (await adminPool)?.end();
  });

  describeStoreConformance('postgres', async () => {
    const store = storeOn(freshSchema());
    return { store, cleanup: () => store.close() };
  });

  describe('postgres store', () => {
    describe('before migrate()', () => {
      notMigratedTests(() => storeOn(freshSchema()));
    });

    describe('migrations', () => {
      it('migrates once when three instances start at the same moment', async () => {
        const schema = freshSchema();
        const stores = [storeOn(schema), storeOn(schema), storeOn(schema)];
        await Promise.all(stores.map((s) => s.migrate()));
        const { rows } = await (
          await admin()
        ).query(`SELECT version FROM "${schema}".punctual_migrations ORDER BY version`);
        expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
        await stores[0]!.migrate(); // idempotent
        expect(await stores[1]!.nextRunDueAt()).toBeNull();
      });

      it('upgrades a version 5 schema to the schedule fields, counting the runs already executed', async () => {
        const schema = freshSchema();
        const s = `"${schema}"`;
        const db = await admin();
        await db.query(`CREATE SCHEMA ${s}`);
        await db.query(
          `CREATE TABLE ${s}.punctual_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)`,
        );
        for (const m of MIGRATIONS.slice(0, 5)) {
          await db.query(m.sql(s));
          await db.query(`INSERT INTO ${s}.punctual_migrations (version, name) VALUES ($1, $2)`, [
            m.version,
            m.name,
          ]);
        }
        const { rows } = await db.query(
          `INSERT INTO ${s}.schedules (tenant_id, key, spec, spec_kind, tz, target, target_kind, policies,
             overlap, jitter_ms, description, state, version, next_fire_at, fired_count, created_at, updated_at)
           VALUES ($1, 'report', '*/5 * * * *', 'cron', 'UTC', '{"handler":"job"}', 'handler', $2, 'allow', 0,
             'Every 5 minutes', 'active', 1, $3, 3, $3, $3)
           RETURNING id`,
          [TENANT, JSON.stringify(draft().policies), T0],
        );
        const run = (state: string, at: number, startedAt: number | null, finishedAt: number) =>
          db.query(
            `INSERT INTO ${s}.runs (tenant_id, schedule_id, schedule_key, schedule_version, kind, state,
               scheduled_for, due_at, priority, attempt, max_attempts, overlap, created_at, started_at,
               finished_at)
             VALUES ($1, $2, 'report', 1, 'scheduled', $3, $4, $4, 0, 1, 1, 'allow', $4, $5, $6)`,
            [TENANT, rows[0]!.id, state, at, startedAt, finishedAt],
          );
        await run('succeeded', T0, T0 + 10, T0 + 20);
        await run('dead', T0 + 300_000, T0 + 300_010, T0 + 300_020);
        await run('skipped', T0 + 600_000, null, T0 + 600_000);

        const store = storeOn(schema);
        await store.migrate();
        expect(await store.schemaVersion()).toMatchObject({
          applied: LATEST_VERSION,
          expected: LATEST_VERSION,
        });
        expect(await store.getSchedule(TENANT, 'report')).toMatchObject({
          key: 'report',
          summary: null,
          labels: {},
          materializedCount: 3,
          firedCount: 2,
          lastFiredAt: T0 + 300_010,
          lastSucceededAt: T0 + 20,
        });
      });

      it('refuses a schema migrated by a newer Punctual', async () => {
        const store = await open();
        await (
          await admin()
        ).query(
          `INSERT INTO "${store.schema}".punctual_migrations (version, name) VALUES ($1, 'from the future')`,
          [LATEST_VERSION + 1],
        );
        await expect(storeOn(store.schema).migrate()).rejects.toMatchObject({ code: 'SCHEMA_TOO_NEW' });
      });

      it('reports the applied and the expected schema version, creating nothing', async () => {
        const store = storeOn(freshSchema());
        expect(await store.schemaVersion()).toEqual({ applied: 0, expected: LATEST_VERSION, required: 0 });
        const { rows } = await (
          await admin()
        ).query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [store.schema]);
        expect(rows).toEqual([]);
        await store.migrate();
        // The oldest code the schema still works with: the highest compatibility marker applied.
        expect(await store.schemaVersion()).toEqual({
          applied: LATEST_VERSION,
          expected: LATEST_VERSION,
          required: Math.max(...MIGRATIONS.map((m) => m.compatibleFrom)),
        });
        await (
          await admin()
        ).query(
          `INSERT INTO "${store.schema}".punctual_migrations (version, name) VALUES ($1, 'from the future')`,
          [LATEST_VERSION + 1],
        );
        // A row without a compatibility marker needs code that knows it.
        expect(await store.schemaVersion()).toEqual({
          applied: LATEST_VERSION + 1,
          expected: LATEST_VERSION,
          required: LATEST_VERSION + 1,
        });
      });

      it('rejects a schema name that is not a plain identifier', () => {
        expect(() => postgresStore({ connectionString: PG_URL, schema: 'x"; DROP TABLE y; --' })).toThrow(
          /schema/,
        );
      });
    });

    describe('attempt records', () => {
      it('keeps a successful attempt on its run row, and still reads runs that succeeded before', async () => {
        const store = await open();
        // Two schedules, one run each (the default overlap policy would hold one schedule's second run).
        const one = await store.putSchedule({ draft: draft({ key: 'a' }), nextFireAt: null, now: T0 });
        const two = await store.putSchedule({ draft: draft({ key: 'b' }), nextFireAt: null, now: T0 });
        const [a, b] = await store.insertRuns(
          [
            runInsert({ schedule: one.schedule, scheduledFor: T0 }),
            runInsert({ schedule: two.schedule, scheduledFor: T0 }),
          ],
          T0,
        );
        const { claimed } = await store.claimRuns({ workerId: 'w1', now: T0, limit: 2, leaseMs: 60_000 });
        expect(claimed).toHaveLength(2);
        const attempt = (c: ClaimedRun) => ({
          runId: c.run.id,
          attempt: 1,
          workerId: 'w1',
          startedAt: T0 + 5,
          finishedAt: T0 + 9,
          outcome: 'succeeded' as const,
          error: null,
          result: 'ok',
        });
        await store.settleRuns(
          claimed.map((c) => ({
            runId: c.run.id,
            token: c.token,
            outcome: { state: 'succeeded', result: 'ok' },
            attempt: attempt(c),
            run: c.run,
          })),
          T0 + 9,
        );
        const db = await admin();
        const s = `"${store.schema}"`;
        // No attempts row for a success: the run row holds it.
        expect((await db.query(`SELECT count(*)::int AS n FROM ${s}.attempts`)).rows[0]!.n).toBe(0);
        const mine = claimed.find((c) => c.run.id === a!.run.id)!;
        expect((await store.getRun(TENANT, a!.run.id))?.attempts).toEqual([attempt(mine)]);
        // A run that succeeded before migration 5 has its success as an attempts row and no succeeded_by.
        await db.query(`UPDATE ${s}.runs SET succeeded_by = NULL WHERE id = $1`, [b!.run.id]);
        await db.query(
          `INSERT INTO ${s}.attempts (tenant_id, run_id, attempt, worker_id, started_at, finished_at, outcome)
           VALUES ($1, $2, 1, 'old', $3, $4, 'succeeded')`,
          [TENANT, b!.run.id, T0 + 1, T0 + 2],
        );
        const old = await store.getRun(TENANT, b!.run.id);
        expect(old?.attempts.map((x) => [x.workerId, x.outcome])).toEqual([['old', 'succeeded']]);
      });
    });

    describe('across instances', () => {
      it('claims each of 2,000 due runs exactly once when two instances race', async () => {
        const a = await open();
        const b = storeOn(a.schema, { poolSize: 4 });
        const { schedule } = await a.putSchedule({ draft: draft(), nextFireAt: null, now: T0 });
        const runs = Array.from({ length: 2000 }, (_, i) =>
          runInsert({ schedule, scheduledFor: T0 + i, dueAt: T0 + (i % 7) }),
        );
        expect(await a.insertRuns(runs, T0)).toHaveLength(2000);
        const seen: string[] = [];
        const drain = async (store: Store, worker: string): Promise<void> => {
          for (;;) {
            const { claimed } = await store.claimRuns({
              workerId: worker,
              now: T0 + 10,
              limit: 37,
              leaseMs: 60_000,
            });
            if (claimed.length === 0) return;
            seen.push(...claimed.map((c) => c.run.id));
          }
        };
        await Promise.all([drain(a, 'a1'), drain(a, 'a2'), drain(b, 'b1'), drain(b, 'b2')]);
        expect(seen).toHaveLength(2000);
        expect(new Set(seen).size).toBe(2000);
        expect(await a.nextRunDueAt()).toBeNull();
      });

      it('creates a key once when instances put it at the same moment; the others see it unchanged', async () => {
        const a = await open();
        const stores = [a, storeOn(a.schema), storeOn(a.schema)];
        const results = await Promise.all(
          stores.flatMap((s) => [0, 1].map(() => s.putSchedule({ draft: draft(), nextFireAt: T0, now: T0 }))),
        );
        expect(results.filter((r) => r.created)).toHaveLength(1);
        expect(
          results.every((r) => r.schedule.version === 1 && r.schedule.id === results[0]!.schedule.id),
        ).toBe(true);
      });

      it('lets exactly one of two racing advances of a schedule win', async () => {
        const a = await open();
        const b = storeOn(a.schema);
        const { schedule } = await a.putSchedule({ draft: draft(), nextFireAt: T0, now: T0 });
        const advance = (store: Store) =>
          store.advanceSchedule({
            tenantId: TENANT,
            scheduleId: schedule.id,
            version: 1,
            expectedNextFireAt: T0,
            nextFireAt: T0 + 300_000,
            fired: 1,
            complete: false,
            runs: [runInsert({ schedule, scheduledFor: T0 })],
            now: T0,
          });
        for (let round = 0; round < 5; round++) {
          const results = await Promise.all([advance(a), advance(b), advance(a), advance(b)]);
          const statuses = results.map((r) => r.status).sort();
          expect(statuses).toEqual(
            round === 0 ? ['advanced', 'conflict', 'conflict', 'conflict'] : Array(4).fill('conflict'),
          );
        }
        const after = await a.getSchedule(TENANT, schedule.key);
        expect(after).toMatchObject({ nextFireAt: T0 + 300_000, materializedCount: 1 });
        expect((await a.listRuns({ tenantId: TENANT, limit: 10 })).items).toHaveLength(1);
      });

      it.each(['skip', 'bufferOne', 'bufferAll', 'cancelPrevious'] as const)(
        'never runs two runs of one %s schedule at once across instances',
        async (overlap) => {
          const a = await open();
          const b = storeOn(a.schema, { poolSize: 4 });
          const schedules = [];
          for (let i = 0; i < 8; i++) {
            const { schedule } = await a.putSchedule({
              draft: draft({ key: `s${i}`, policies: policies({ overlap }) }),
              nextFireAt: null,
              now: T0,
            });
            schedules.push(schedule);
          }
          await a.insertRuns(
            schedules.flatMap((schedule) =>
              Array.from({ length: 6 }, (_, i) => runInsert({ schedule, scheduledFor: T0 + i * 1000 })),
            ),
            T0,
          );
          const db = await admin();
          const maxRunning = async (): Promise<number> => {
            const { rows } = await db.query(
              `SELECT coalesce(max(n), 0)::int AS n FROM (SELECT count(*) AS n FROM "${a.schema}".runs
                WHERE state = 'running' GROUP BY schedule_id) AS c`,
            );
            return Number(rows[0]!.n);
          };
          const now = T0 + 10_000;
          for (let round = 0; round < 12; round++) {
            const claims = await Promise.all(
              [a, b, a, b].map((s, i) => s.claimRuns({ workerId: `w${i}`, now, limit: 4, leaseMs: 60_000 })),
            );
            const claimed: ClaimedRun[] = claims.flatMap((c) => c.claimed);
            expect(await maxRunning()).toBeLessThanOrEqual(1);
            // cancelPrevious: a later claim in the same round cancels the earlier one, so only the count of
            // running runs (above) is the invariant; the others claim at most one run per schedule a round.
            if (overlap === 'cancelPrevious') continue;
            const perSchedule = new Map<string, number>();
            for (const c of claimed)
              perSchedule.set(c.run.scheduleId, (perSchedule.get(c.run.scheduleId) ?? 0) + 1);
            expect(Math.max(0, ...perSchedule.values())).toBeLessThanOrEqual(1);
            await a.settleRuns(
              claimed.map((c) => ({
                runId: c.run.id,
                token: c.token,
                outcome: { state: 'succeeded', result: null },
                attempt: {
                  runId: c.run.id,
                  attempt: c.run.attempt,
                  workerId: c.run.leaseOwner!,
                  startedAt: now,
                  finishedAt: now,
                  outcome: 'succeeded',
                  error: null,
                  result: null,
                },
                run: c.run,
              })),
              now,
            );
          }
        },
      );
    });

    describe('fast path and hot statements', () => {
      it('claims runs that need no decision and runs that do in one call, in claim order per kind', async () => {
        const store = await open();
        const plain = (await store.putSchedule({ draft: draft({ key: 'plain' }), nextFireAt: null, now: T0 }))
          .schedule;
        const skip = (
          await store.putSchedule({
            draft: draft({ key: 'skip', policies: policies({ overlap: 'skip' }) }),
            nextFireAt: null,
            now: T0,
          })
        ).schedule;
        const [p1, p2] = (
          await store.insertRuns(
            [1, 3].map((i) => runInsert({ schedule: plain, scheduledFor: T0 + i })),
            T0,
          )
        ).map((t) => t.run);
        const [s1, s2] = (
          await store.insertRuns(
            [0, 2].map((i) => runInsert({ schedule: skip, scheduledFor: T0 + i })),
            T0,
          )
        ).map((t) => t.run);
        const [late] = (
          await store.insertRuns([runInsert({ schedule: plain, scheduledFor: T0 - 5, expiresAt: T0 })], T0)
        ).map((t) => t.run);
        const res = await store.claimRuns({ workerId: 'w', now: T0 + 10, limit: 10, leaseMs: 60_000 });
        expect(res.claimed.map((c) => c.run.id)).toEqual([p1!.id, p2!.id, s1!.id]);
        expect(res.claimed.map((c) => c.schedule.key)).toEqual(['plain', 'plain', 'skip']);
        expect(res.transitions.map((t) => [t.run.id, t.to])).toEqual([
          [p1!.id, 'running'],
          [p2!.id, 'running'],
          [late!.id, 'expired'],
          [s1!.id, 'running'],
          [s2!.id, 'skipped'],
        ]);
        expect(await store.nextRunDueAt()).toBeNull();
      });

      it('shares a settle-and-claim among tenants due at once, like a claim', async () => {
        const store = await open();
        const busy = (await store.putSchedule({ draft: draft({ key: 'busy' }), nextFireAt: null, now: T0 }))
          .schedule;
        const quiet = (
          await store.putSchedule({
            draft: draft({ key: 'quiet', tenantId: OTHER_TENANT }),
            nextFireAt: null,
            now: T0,
          })
        ).schedule;
        await store.insertRuns([runInsert({ schedule: busy, scheduledFor: T0 - 100 })], T0);
        const [first] = (await store.claimRuns({ workerId: 'w', now: T0, limit: 1, leaseMs: 60_000 }))
          .claimed;
        await store.insertRuns(
          Array.from({ length: 20 }, (_, i) => runInsert({ schedule: busy, scheduledFor: T0 - 50 + i })),
          T0,
        );
        await store.insertRuns([runInsert({ schedule: quiet, scheduledFor: T0 })], T0);
        const ok = { state: 'succeeded', result: null } as const;
        const attempt = {
          runId: first!.run.id,
          attempt: 1,
          workerId: 'w',
          startedAt: T0,
          finishedAt: T0 + 1,
          outcome: 'succeeded',
          error: null,
          result: null,
        } as const;
        const both = await store.settleAndClaim(
          [{ runId: first!.run.id, token: first!.token, outcome: ok, attempt, run: first!.run }],
          { workerId: 'w', now: T0 + 1, limit: 4, leaseMs: 60_000 },
        );
        expect(both.settled[0]).toMatchObject({ from: 'running', to: 'succeeded' });
        expect(both.claim.claimed.map((c) => c.run.tenantId).sort()).toEqual(
          [TENANT, TENANT, TENANT, OTHER_TENANT].sort(),
        );
      });

      it('hands out the schedule of the version a run is claimed at (cached per version)', async () => {
        const store = await open();
        const v1 = (await store.putSchedule({ draft: draft(), nextFireAt: null, now: T0 })).schedule;
        await store.insertRuns([runInsert({ schedule: v1, scheduledFor: T0 })], T0);
        const first = await store.claimRuns({ workerId: 'w', now: T0, limit: 5, leaseMs: 60_000 });
        expect(first.claimed[0]!.schedule).toEqual(v1);
        const v2 = (
          await store.putSchedule({ draft: draft({ payload: { v: 2 } }), nextFireAt: null, now: T0 + 1 })
        ).schedule;
        await store.insertRuns([runInsert({ schedule: v2, scheduledFor: T0 + 1 })], T0 + 1);
        const second = await store.claimRuns({ workerId: 'w', now: T0 + 1, limit: 5, leaseMs: 60_000 });
        expect(second.claimed[0]!.schedule).toEqual(v2);
      });

      it('cancels a run it leased whose schedule is deleted before the claim reads the schedule', async () => {
        const store = await open();
        const sc = (await store.putSchedule({ draft: draft(), nextFireAt: null, now: T0 })).schedule;
        await store.insertRuns([runInsert({ schedule: sc, scheduledFor: T0 })], T0);
        // The claim reads the schedules its cache lacks after its page (statement 'claim.schedules'): the
        // schedule is deleted just before that read, after the page leased the run.
        const pg = (await import('pg')).default;
        type Query = (this: unknown, config: unknown, values?: unknown) => Promise<unknown>;
        const proto = pg.Client.prototype as unknown as { query: Query };
        const original = proto.query;
        let deleted = false;
        proto.query = async function (this: unknown, config: unknown, values?: unknown) {
          if (!deleted && (config as { name?: string } | null)?.name === 'punctual.claim.schedules') {
            deleted = true;
            await store.deleteSchedule(TENANT, sc.key, T0);
          }
          return original.call(this, config, values);
        };
        try {
          const res = await store.claimRuns({ workerId: 'w', now: T0, limit: 5, leaseMs: 60_000 });
          expect(deleted).toBe(true);
          expect(res.claimed).toEqual([]);
          expect(res.transitions.map((t) => [t.from, t.to, t.run.reason])).toEqual([
            ['running', 'cancelled', 'deleted'],
          ]);
        } finally {
          proto.query = original;
        }
        const [run] = (await store.listRuns({ tenantId: TENANT, limit: 10 })).items;
        expect(run).toMatchObject({ state: 'cancelled', reason: 'deleted', leaseOwner: null });
      });

      it('keeps the index plans of the hot statements when generic, on a table without statistics', async () => {
        const store = await open();
        const { claimPageSql, settleAndClaimSql } =
          await import('../../src/store/postgres/postgres-claim-sql.js');
        const { advanceSql, claimDueSchedulesSql } =
          await import('../../src/store/postgres/postgres-materializer.js');
        const { settleSql } = await import('../../src/store/postgres/postgres-leases.js');
        const { HOT_SESSION } = await import('../../src/store/postgres/postgres-database.js');
        const { dueExpectationsSql } = await import('../../src/store/postgres/postgres-expectations.js');
        const pg = (await import('pg')).default;
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        const s = `"${store.schema}"`;
        const empty = (n: number) => Array<string>(n).fill(`'{}'`);
        const claimArgs = ['1', '20', `'{bufferOne,bufferAll}'`, `'w'`, '30000', `'{}'`, '101'];
        const statements = {
          page: [claimPageSql(s), claimArgs],
          settle_claim: [settleAndClaimSql(s), ['1', ...empty(29), ...claimArgs.slice(1)]],
          // The 16 run columns, now, the expect_by column, the wake-up channel.
          advance: [
            advanceSql(s),
            ['1', `'t'`, '1', 'NULL', '2', '1', 'false', ...empty(16), '1', `'{}'`, `'c'`],
          ],
          expect_due: [dueExpectationsSql(s), ['1', '500']],
          claim_schedules: [claimDueSchedulesSql(s), ['1', '2', '100', '30000', '0', '0']],
          settle: [settleSql(s), ['1', ...empty(29)]],
        } as const;
        try {
          await c.query(HOT_SESSION);
          const plans: Record<string, string> = {};
          for (const [name, [text, args]] of Object.entries(statements)) {
            await c.query(`PREPARE ${name} AS ${text}`);
            const { rows } = await c.query(`EXPLAIN (COSTS OFF) EXECUTE ${name}(${args.join(', ')})`);
            plans[name] = rows.map((r) => String(r['QUERY PLAN'])).join('\n');
          }
          for (const plan of Object.values(plans)) expect(plan).not.toMatch(/Seq Scan|hashed SubPlan/);
          // Every primary-key scan is a probe: one without an index condition walks the whole table.
          for (const [name, plan] of Object.entries(plans)) {
            const walks = plan.match(/Index Scan using \w+_pkey on \w+.*\n(?!\s+Index Cond)/g) ?? [];
            expect([name, walks]).toEqual([name, []]);
          }
          expect(plans.expect_due).toMatch(/Index Scan using runs_expect_due on runs/);
          expect(plans.page).toMatch(/Index Scan using runs_claim on runs/);
          expect(plans.page).toMatch(/Index Scan using runs_pkey on runs/);
          expect(plans.page).not.toMatch(/runs_due|runs_lease|runs_tenant_/);
          // Whether two tenants are due: a probe of runs_claim_tenant per tenant and level.
          expect(plans.page).toMatch(
            /Index Only Scan using runs_claim_tenant on runs d\n\s+Index Cond: \(\(tenant_id = /,
          );
          expect(plans.settle_claim).toMatch(/Index Scan using runs_claim on runs/);
          expect(plans.settle_claim).not.toMatch(/runs_due|runs_lease/);
          expect(plans.advance).toMatch(/Index Scan using schedules_pkey on schedules/);
        } finally {
          await c.end();
        }
      });
    });

    describe('wake-ups', () => {
      it('wakes a listener in another instance when a run is inserted', async () => {
        const a = await open();
        const b = storeOn(a.schema);
        const woke = new Promise<number>((resolve) => a.onWake(resolve));
        await a.wakeupsReady();
        const { schedule } = await b.putSchedule({ draft: draft(), nextFireAt: null, now: T0 });
        await b.insertRuns(
          [
            runInsert({ schedule, scheduledFor: T0 + 5000 }),
            runInsert({ schedule, scheduledFor: T0 + 2000 }),
          ],
          T0,
        );
        expect(await woke).toBe(T0 + 2000);
      });

      it('reconnects the LISTEN connection after it is killed, and reports the earliest due run', async () => {
        const a = await open();
        const { schedule } = await a.putSchedule({ draft: draft(), nextFireAt: null, now: T0 });
        await a.insertRuns([runInsert({ schedule, scheduledFor: T0 + 7000 })], T0);
        const wakes: number[] = [];
        let resolveSecond!: (v: number) => void;
        const second = new Promise<number>((r) => (resolveSecond = r));
        a.onWake((dueAt) => {
          wakes.push(dueAt);
          if (wakes.length === 1) resolveSecond(dueAt);
        });
        await a.wakeupsReady();
        const { rows } = await (
          await admin()
        ).query(`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE query = $1`, [
          `LISTEN "${a.schema}_wake"`,
        ]);
        expect(rows).toHaveLength(1);
        expect(await second).toBe(T0 + 7000);
      });
    });

    describe('clock', () => {
      it('measures the offset to the server clock (same machine: about zero)', async () => {
        const store = await open();
        const { offsetMs, rttMs } = await store.clockOffset(Date.now);
        expect(rttMs).toBeGreaterThanOrEqual(0);
        expect(Math.abs(offsetMs)).toBeLessThan(50);
        expect(Math.abs(await store.measureClockOffset(Date.now))).toBeLessThan(50);
        // A local clock an hour behind is corrected by an hour.
        const behind = await store.measureClockOffset(() => Date.now() - 3_600_000);
        expect(Math.abs(behind - 3_600_000)).toBeLessThan(50);
      });
    });

    describe('connection loss', () => {
      it('survives its connections being killed: the next operations succeed again', async () => {
        const store = await open();
        const errors: unknown[] = [];
        const s2 = postgresStore({
          connectionString: PG_URL,
          schema: store.schema,
          onError: (e) => errors.push(e),
        });
        current.stores.push(s2);
        await s2.putSchedule({ draft: draft(), nextFireAt: T0, now: T0 });
        await (
          await admin()
        ).query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE application_name = 'punctual' AND pid <> pg_backend_pid() AND query LIKE $1`,
          [`%"${store.schema}"%`],
        );
        // Killed idle connections are dropped by the pool (reported, not thrown); queries go on.
        let got;
        for (let i = 0; i < 3 && got === undefined; i++)
          got = await s2.getSchedule(TENANT, 'report').catch(() => undefined);
        expect(got).toMatchObject({ key: 'report' });
      });

      it('rejects a call whose connection is killed mid-transaction, and carries on', async () => {
        const store = await open();
        await store.putSchedule({ draft: draft(), nextFireAt: T0, now: T0 });
        const db = await admin();
        // Hold the schedule's row lock so the store's next transaction waits inside PostgreSQL.
        const pg = (await import('pg')).default;
        const holder = new pg.Client({ connectionString: PG_URL });
        await holder.connect();
        try {
          await holder.query('BEGIN');
          await holder.query(`SELECT 1 FROM "${store.schema}".schedules WHERE key = 'report' FOR UPDATE`);
          const put = store.putSchedule({
            draft: draft({ summary: 'changed' }),
            nextFireAt: T0,
            now: T0 + 1,
          });
          const outcome = put.then(
            () => 'resolved',
            (e: unknown) => e,
          );
          let killed = 0;
          for (let i = 0; i < 500 && killed === 0; i++) {
            const { rows } = await db.query(
              `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
                WHERE application_name = 'punctual' AND wait_event_type = 'Lock' AND query LIKE $1`,
              [`%"${store.schema}".schedules%FOR UPDATE%`],
            );
            killed = rows.length;
          }
          expect(killed).toBe(1);
          expect(await outcome).toBeInstanceOf(Error);
        } finally {
          await holder.query('ROLLBACK');
          await holder.end();
        }
        const res = await store.putSchedule({
          draft: draft({ summary: 'changed' }),
          nextFireAt: T0,
          now: T0 + 2,
        });
        expect(res.schedule.version).toBe(2);
      });

      it('rejects operations after close with STORE_CLOSED', async () => {
        const store = await open();
        await store.close();
        await expect(store.nextRunDueAt()).rejects.toMatchObject({ code: 'STORE_CLOSED' });
      });
    });
  });
}
