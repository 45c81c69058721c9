// Unwritten defaults (PostgreSQL migration 26), on a schema of the release before: its schedules, written with
// every default spelled out, read the same after the migration; a schedule put after it leaves jitter 0,
// policies and labels without a setting, the zone UTC, the description, the overlap, the executed count and
// (until its first change) updated_at NULL, and reads the same as one that spells them out; a change writes
// the compact form over an old row and sets updated_at, a setting away from a default is written as before,
// the label filter finds only labelled schedules; the step is recorded as a contract one. Needs PUNCTUAL_TEST_PG_URL; skipped without it, failed when PUNCTUAL_REQUIRE_SERVICES=1.

import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICIES, resolvePolicies } from '../../src/domain/policies.js';
import { MIGRATIONS } from '../../src/store/postgres/migrations.js';
import type { Store } from '../../src/store/store.js';
import { draft, MINUTE, T0, TENANT } from '../support/fixtures.js';
import { pgSchemaBefore } from '../support/pg-schema-before.js';
import { withScratchSchema } from '../support/pg-scratch-schema.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';

/** A schedule row as the release before wrote it ($1 tenant, $2 key, $3 instant, then its settings). */
const OLD_ROW = `INSERT INTO %s.schedules (tenant_id, key, spec, spec_kind, tz, target_kind, target, policies,
    overlap, jitter_ms, description, labels, state, version, next_fire_at, fired_count, executed_count,
    created_at, updated_at)
  VALUES ($1, $2, '*/5 * * * *', 'cron', 'UTC', 'handler', '{"handler":"job"}', $4::jsonb, 'allow', $5,
    'Every 5 minutes', $6::jsonb, 'active', 1, $3, 0, $7, $3, $3)`;

/** The stored columns migration 26 may leave NULL, of the schedule `key`. */
async function stored(db: pg.Client, s: string, key: string): Promise<unknown> {
  const { rows } = await db.query(
    `SELECT jitter_ms::int AS jitter_ms, policies, labels, description, executed_count::int AS executed_count,
            tz, overlap, updated_at::float8 AS updated_at
       FROM ${s}.schedules WHERE key = $1`,
    [key],
  );
  return rows[0];
}

async function byKey(store: Store, key: string) {
  const s = await store.getSchedule(TENANT, key);
  if (s === undefined) throw new Error(`no schedule ${key}`);
  return s;
}

describe.runIf(PG_URL !== '' || REQUIRED)('unwritten defaults migration: postgres', () => {
  it('reads the old rows the same, leaves defaults out of new and changed rows, and is a contract step', async () => {
    if (PG_URL === '') throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    await withScratchSchema(PG_URL, async ({ db, s, store }) => {
      await pgSchemaBefore(db, s, 26);
      const old = OLD_ROW.replace('%s', s);
      await db.query(old, [TENANT, 'plain', T0, '{}', 0, '{}', 4]);
      await db.query(old, [TENANT, 'set', T0, '{"timeoutMs":5000}', 1500, '{"team":"a"}', 0]);
      await store.migrate();

      const { rows: marks } = await db.query(
        `SELECT compatible_from FROM ${s}.punctual_migrations WHERE version = 26`,
      );
      expect(marks).toEqual([{ compatible_from: 26 }]);
      expect(MIGRATIONS.find((m) => m.version === 26)!.compatibleFrom).toBe(26);

      // The old rows read as they were written.
      const plain = await byKey(store, 'plain');
      expect(plain).toMatchObject({
        jitterMs: 0,
        labels: {},
        firedCount: 4,
        description: 'Every 5 minutes, UTC',
      });
      expect(plain.policies).toBe(DEFAULT_POLICIES);
      const set = await byKey(store, 'set');
      expect(set).toMatchObject({ jitterMs: 1500, labels: { team: 'a' }, firedCount: 0 });
      expect(set.policies).toEqual(resolvePolicies({ timeoutMs: 5000 }));

      // A new schedule with every default leaves them out, and reads like the old one.
      const fresh = await store.putSchedule({
        draft: draft({ key: 'fresh' }),
        nextFireAt: T0,
        now: T0 + MINUTE,
      });
      expect(await stored(db, s, 'fresh')).toEqual({
        jitter_ms: null,
        policies: null,
        labels: null,
        description: null,
        executed_count: null,
        tz: null,
        overlap: null,
        updated_at: null,
      });
      const freshRead = await byKey(store, 'fresh');
      expect(freshRead).toEqual(fresh.schedule);
      expect(freshRead).toMatchObject({
        jitterMs: 0,
        labels: {},
        firedCount: 0,
        tz: 'UTC',
        createdAt: T0 + MINUTE,
        updatedAt: T0 + MINUTE,
      });
      expect(freshRead.policies).toEqual(DEFAULT_POLICIES);

      // Settings away from the defaults are written as before.
      const policies = resolvePolicies({ timeoutMs: 5000, overlap: 'skip' });
      const labelled = draft({
        key: 'labelled',
        jitterMs: 250,
        labels: { team: 'a' },
        policies,
        tz: 'Europe/Paris',
      });
      const put = await store.putSchedule({ draft: labelled, nextFireAt: T0, now: T0 + MINUTE });
      expect(await stored(db, s, 'labelled')).toEqual({
        jitter_ms: 250,
        policies: { timeoutMs: 5000, overlap: 'skip' },
        labels: { team: 'a' },
        description: null,
        executed_count: null,
        tz: 'Europe/Paris',
        overlap: null,
        updated_at: null,
      });
      expect(await byKey(store, 'labelled')).toEqual(put.schedule);
      expect(put.schedule).toMatchObject({
        tz: 'Europe/Paris',
        description: expect.stringContaining('Europe/Paris'),
      });
      expect(put.schedule.policies.overlap).toBe('skip');

      // A change of an old row writes its defaults compact; its executed count stays.
      const changed = await store.putSchedule({
        draft: draft({ key: 'plain', spec: '@hourly' }),
        nextFireAt: T0,
        now: T0 + 2 * MINUTE,
      });
      expect(await stored(db, s, 'plain')).toEqual({
        jitter_ms: null,
        policies: null,
        labels: null,
        description: null,
        executed_count: 4,
        tz: null,
        overlap: null,
        updated_at: T0 + 2 * MINUTE,
      });
      expect(changed.schedule).toMatchObject({
        version: 2,
        firedCount: 4,
        labels: {},
        jitterMs: 0,
        tz: 'UTC',
        createdAt: T0,
        updatedAt: T0 + 2 * MINUTE,
      });
      expect(await byKey(store, 'plain')).toEqual(changed.schedule);
      // …and a change back to a setting writes it.
      await store.putSchedule({
        draft: draft({ key: 'fresh', labels: { team: 'b' } }),
        nextFireAt: T0,
        now: T0 + 2 * MINUTE,
      });
      expect(await stored(db, s, 'fresh')).toMatchObject({ labels: { team: 'b' } });

      // The label filter finds the labelled schedules only (NULL labels are out of its index and its answer).
      const keys = async (labels: [string, string][]) =>
        (await store.listSchedules({ tenantId: TENANT, labels, limit: 10 })).items.map((x) => x.key).sort();
      expect(await keys([['team', 'a']])).toEqual(['labelled', 'set']);
      expect(await keys([['team', 'b']])).toEqual(['fresh']);
      expect((await store.listSchedules({ tenantId: TENANT, limit: 10 })).items).toHaveLength(4);
    });
  });
});
