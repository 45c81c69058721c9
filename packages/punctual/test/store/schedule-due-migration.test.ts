// The materializer's queue on PostgreSQL (migration 26, schedule_due): a schema of the release before
// migrates forward with its schedules queued (active ones with a next occurrence, their claims kept, the
// ones that roll back marked) and is recorded as a contract step; afterwards the queue follows every writer
// of the schedules (put, change, pause, resume, delete, advance, completion), and any change of a claimed
// schedule clears its claim so the next claim takes it at once. Needs PUNCTUAL_TEST_PG_URL; without it the
// suite is skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { draft, MINUTE, T0, TENANT } from '../support/fixtures.js';
import { pgSchemaBefore } from '../support/pg-schema-before.js';
import { withScratchSchema } from '../support/pg-scratch-schema.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';

/** A schedule row as the release before wrote it: $1 tenant, $2 key, $3 state, $4 next, $5 claim, $6 rules. */
const OLD_ROW = `INSERT INTO %s.schedules (tenant_id, key, spec, spec_kind, tz, target_kind, target, policies,
  overlap, jitter_ms, description, state, version, next_fire_at, fired_count, created_at, updated_at,
  claimed_until, calendar_rules)
  VALUES ($1, $2, '*/5 * * * *', 'cron', 'UTC', 'handler', '{"handler":"job"}', '{}', 'skip', 0, '', $3, 1, $4,
          0, 0, 0, $5, $6::jsonb) RETURNING id::text AS id`;

type QueueRow = [key: string, next: number, claimedUntil: number | null, rollsBack: boolean];

async function queue(db: pg.Client, s: string): Promise<QueueRow[]> {
  const { rows } = await db.query<{ key: string; n: string; c: string | null; r: boolean }>(
    `SELECT s.key, d.next_fire_at AS n, d.claimed_until AS c, d.rolls_back AS r
       FROM ${s}.schedule_due d JOIN ${s}.schedules s ON s.id = d.schedule_id ORDER BY s.key`,
  );
  return rows.map((r) => [r.key, Number(r.n), r.c === null ? null : Number(r.c), r.r]);
}

/** Schedules whose queue row is missing, stray or stale: none, whatever wrote them. */
async function strays(db: pg.Client, s: string): Promise<unknown[]> {
  const { rows } = await db.query(
    `SELECT s.id AS schedule, d.schedule_id AS queued
       FROM ${s}.schedules s FULL JOIN ${s}.schedule_due d ON d.schedule_id = s.id
      WHERE (s.state = 'active' AND s.next_fire_at IS NOT NULL) IS DISTINCT FROM (d.schedule_id IS NOT NULL)
         OR (d.schedule_id IS NOT NULL AND d.next_fire_at IS DISTINCT FROM s.next_fire_at)`,
  );
  return rows;
}

/** The keys a claim at `now` takes: due by `horizon`, and those rolling back by `lead` more. */
const claim = async (store: Store, now: number, horizon = now, lead = 0) =>
  (await store.claimDueSchedules({ now, horizon, limit: 10, leaseMs: 30_000, rollBackLeadMs: lead })).map(
    (x) => x.key,
  );

describe.runIf(PG_URL !== '' || REQUIRED)('schedule_due: postgres', () => {
  it('migrates a schema of the release before with its schedules queued, as a contract step', async () => {
    if (PG_URL === '') throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    await withScratchSchema(PG_URL, async ({ db, s, store }) => {
      await pgSchemaBefore(db, s, 26);
      const row = OLD_ROW.replace('%s', s);
      const rolls = JSON.stringify({ businessDays: { calendar: 'office', roll: 'previous' } });
      await db.query(row, [TENANT, 'active', 'active', T0, null, null]);
      await db.query(row, [TENANT, 'claimed', 'active', T0 + MINUTE, T0 + 30_000, null]);
      await db.query(row, [TENANT, 'paused', 'paused', T0, null, null]);
      await db.query(row, [TENANT, 'completed', 'completed', null, null, null]);
      await db.query(row, [TENANT, 'rolls', 'active', T0 + 2 * MINUTE, null, rolls]);
      await store.migrate();

      const { rows: marks } = await db.query(
        `SELECT compatible_from FROM ${s}.punctual_migrations WHERE version = 26`,
      );
      expect(marks).toEqual([{ compatible_from: 26 }]);
      expect(await queue(db, s)).toEqual([
        ['active', T0, null, false],
        ['claimed', T0 + MINUTE, T0 + 30_000, false],
        ['rolls', T0 + 2 * MINUTE, null, true],
      ]);
      expect(await strays(db, s)).toEqual([]);
      // The claim kept its lease: taken once it lapses, not before; the others at once.
      expect(await claim(store, T0, T0 + MINUTE)).toEqual(['active']);
      expect(await claim(store, T0 + 29_999, T0 + MINUTE)).toEqual([]);
      expect(await claim(store, T0 + 30_000, T0 + MINUTE)).toEqual(['active', 'claimed']);
      expect(await claim(store, T0 + 30_000, T0 + MINUTE, MINUTE)).toEqual(['rolls']);
      expect(await store.nextRollingBackAt()).toBe(T0 + 2 * MINUTE);
      expect(await store.nextScheduleAt()).toBe(T0);
    });
  });

  it('follows every writer of the schedules, and a change of a claimed schedule frees its claim', async () => {
    if (PG_URL === '') throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    await withScratchSchema(PG_URL, async ({ db, s, store }) => {
      await store.migrate();
      const now = T0;
      for (const key of ['a', 'b', 'c', 'd'])
        await store.putSchedule({ draft: draft({ key }), nextFireAt: T0 + MINUTE, now });
      await store.putSchedules(
        ['e', 'f'].map((key) => ({ draft: draft({ key }), nextFireAt: T0 + 2 * MINUTE, now })),
      );
      expect((await queue(db, s)).map((r) => r[0])).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
      expect(await strays(db, s)).toEqual([]);

      // Claimed: out of the next claim until a change requeues it.
      const claimed = await store.claimDueSchedules({
        now: T0 + MINUTE,
        horizon: T0 + MINUTE,
        limit: 10,
        leaseMs: 30_000,
      });
      expect(claimed.map((x) => x.key)).toEqual(['a', 'b', 'c', 'd']);
      expect(await claim(store, T0 + MINUTE)).toEqual([]);
      await store.putSchedule({
        draft: draft({ key: 'a', spec: '@hourly' }),
        nextFireAt: T0 + MINUTE,
        now: now + 1,
      });
      expect(await claim(store, T0 + MINUTE)).toEqual(['a']);

      // Advanced and completed by the materializer.
      const [b, c] = [claimed[1]!, claimed[2]!];
      const advance = (sc: typeof b, next: number | null) => ({
        tenantId: TENANT,
        scheduleId: sc.id,
        version: sc.version,
        expectedNextFireAt: sc.nextFireAt,
        nextFireAt: next,
        fired: 1,
        complete: next === null,
        runs: [],
        now: T0 + MINUTE,
      });
      expect(
        (await store.advanceSchedules([advance(b, T0 + 3 * MINUTE), advance(c, null)])).map((r) => r.status),
      ).toEqual(['advanced', 'advanced']);
      expect(await queue(db, s)).toContainEqual(['b', T0 + 3 * MINUTE, null, false]);
      expect((await queue(db, s)).map((r) => r[0])).not.toContain('c');

      // Paused, resumed, deleted.
      await store.pauseSchedule(TENANT, 'd', { cancelPending: false, note: null, now });
      expect((await queue(db, s)).map((r) => r[0])).not.toContain('d');
      await store.resumeSchedule(TENANT, 'd', { nextFireAt: T0 + 5 * MINUTE, skipped: [], now });
      expect(await queue(db, s)).toContainEqual(['d', T0 + 5 * MINUTE, null, false]);
      await store.deleteSchedule(TENANT, 'e', now);
      expect((await queue(db, s)).map((r) => r[0])).toEqual(['a', 'b', 'd', 'f']);
      expect(await strays(db, s)).toEqual([]);
    });
  });
});
