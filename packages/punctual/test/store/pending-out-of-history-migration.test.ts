// A PostgreSQL schema made by the release before migration 23 (the history indexes holding running runs), and
// one made by the release before migration 24 (holding scheduled runs), migrate forward: the indexes are
// rebuilt without pending runs, and every read answers as before on the runs the old release wrote, running
// and scheduled ones included: the lists (a tenant's, a schedule's, by state) and the runs-per-minute count. Needs PUNCTUAL_TEST_PG_URL; without it the suite is skipped, or fails when
// PUNCTUAL_REQUIRE_SERVICES=1.

import { describe, expect, it } from 'vitest';
import { MINUTE, T0, TENANT } from '../support/fixtures.js';
import { pgSchemaBefore } from '../support/pg-schema-before.js';
import { withScratchSchema } from '../support/pg-scratch-schema.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';

/** The old release's runs of one schedule: [minutes after T0, state, started (minutes after T0) or null]. */
const RUNS: [number, string, number | null][] = [
  [0, 'succeeded', 0],
  [1, 'dead', 1],
  [2, 'running', 2],
  [2, 'scheduled', null],
  [3, 'running', 3],
  [4, 'skipped', null],
  [5, 'scheduled', null],
];

describe.runIf(PG_URL !== '' || REQUIRED)('pending runs out of history indexes migrations: postgres', () => {
  it.each([23, 24])(
    'migrates a schema of the release before %i: its runs, pending ones too, list and count as before',
    async (below) => {
      if (PG_URL === '') throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
      await withScratchSchema(PG_URL, async ({ db, schema, s, store }) => {
        await pgSchemaBefore(db, s, below);
        const ids: string[] = [];
        for (const [at, state, started] of RUNS) {
          const final = state !== 'running' && state !== 'scheduled';
          const { rows } = await db.query<{ id: string }>(
            `INSERT INTO ${s}.runs (tenant_id, schedule_id, schedule_key, schedule_version, kind, state,
             scheduled_for, due_at, priority, max_attempts, overlap, created_at, started_at, finished_at,
             lease_owner, lease_token, lease_expires_at, attempt)
           VALUES ($1, 7, 'k', 1, 'manual', $2, $3, $3, 0, 3, 'allow', $3, $4, $5, $6, $7, $8, $9)
           RETURNING id::text AS id`,
            [
              TENANT,
              state,
              T0 + at * MINUTE,
              started === null ? null : T0 + started * MINUTE,
              final ? T0 + (at + 1) * MINUTE : null,
              state === 'running' ? 'worker-1' : null,
              state === 'running' ? 'token' : null,
              state === 'running' ? T0 + 10 * MINUTE : null,
              started === null ? 0 : 1,
            ],
          );
          ids.push(rows[0]!.id);
        }
        const newestFirst = RUNS.map((r, i) => [ids[i], r[1]] as const)
          .reverse()
          .map(([id, state]) => [id, state]);

        await store.migrate();
        const list = async (q: { scheduleKey?: string; state?: 'running' | 'scheduled'; limit: number }) => {
          const seen: [string, string][] = [];
          let cursor: string | undefined;
          do {
            const page = await store.listRuns({ tenantId: TENANT, ...q, cursor });
            seen.push(...page.items.map((r): [string, string] => [r.id, r.state]));
            cursor = page.nextCursor;
          } while (cursor !== undefined && seen.length < 50);
          return seen;
        };
        expect(await list({ limit: 2 })).toEqual(newestFirst);
        expect(await list({ scheduleKey: 'k', limit: 3 })).toEqual(newestFirst);
        expect(await list({ state: 'running', limit: 1 })).toEqual(
          newestFirst.filter((r) => r[1] === 'running'),
        );
        expect(await list({ state: 'scheduled', limit: 50 })).toEqual(
          newestFirst.filter((r) => r[1] === 'scheduled'),
        );
        // Started since T0 + 1 min: the dead run and both running ones.
        expect(await store.countRunsStartedSince(TENANT, T0 + MINUTE)).toBe(3);
        expect(await store.countRunsStartedSince(TENANT, T0)).toBe(4);

        const { rows: defs } = await db.query<{ name: string; def: string }>(
          `SELECT indexname AS name, indexdef AS def FROM pg_indexes
          WHERE schemaname = $1 AND indexname IN ('runs_tenant_time', 'runs_tenant_key_time', 'runs_tenant_started')
          ORDER BY 1`,
          [schema],
        );
        expect(defs.map((d) => d.name)).toEqual([
          'runs_tenant_key_time',
          'runs_tenant_started',
          'runs_tenant_time',
        ]);
        const byName = new Map(defs.map((d) => [d.name, d.def]));
        expect(byName.get('runs_tenant_started')).toContain(`(state <> 'running'::text)`);
        for (const name of ['runs_tenant_time', 'runs_tenant_key_time']) {
          expect(byName.get(name)).toContain(`(state <> ALL (ARRAY['scheduled'::text, 'running'::text]))`);
        }
        const { rows: marks } = await db.query<{ v: number; c: number }>(
          `SELECT version AS v, compatible_from AS c FROM ${s}.punctual_migrations WHERE version >= $1
          ORDER BY version`,
          [below],
        );
        // Expand steps: the previous release still runs beside each.
        expect(marks.filter((m) => m.v <= 24)).toEqual(
          [23, 24].filter((v) => v >= below).map((v) => ({ v, c: 5 })),
        );
      });
    },
  );
});
