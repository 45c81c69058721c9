// A run's occurrence id is derived, not stored: on both stores a run inserted as a unique occurrence, as a
// record of a skipped one or as a manual run leaves the `occurrence_id` column empty, reads answer the id
// from its kind, schedule and instant, and a row an older release wrote with its text reads the same. A
// rerun of a cancelled occurrence takes back its key from the same rule. PostgreSQL needs
// PUNCTUAL_TEST_PG_URL; without it that half is skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { draft, MINUTE, runInsert, T0, TENANT } from '../support/fixtures.js';
import { tempFolders } from '../support/temp-folders.js';
import { withScratchSchema } from '../support/pg-scratch-schema.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';

/** Inserts three kinds of runs; answers the schedule id and the runs' ids and occurrence ids as read. */
async function insertAll(store: Store): Promise<{ scheduleId: string; runs: [string, string][] }> {
  await store.migrate();
  const { schedule } = await store.putSchedule({ draft: draft(), nextFireAt: T0, now: T0 });
  const ts = await store.insertRuns(
    [
      runInsert({ schedule, scheduledFor: T0 + MINUTE, dueAt: T0 + MINUTE }),
      runInsert({
        schedule,
        scheduledFor: T0 + 2 * MINUTE,
        unique: false,
        state: 'skipped',
        reason: 'paused',
      }),
      runInsert({ schedule, scheduledFor: T0 + 3 * MINUTE, kind: 'manual', unique: false }),
    ],
    T0,
  );
  const runs = await Promise.all(ts.map(async (t) => (await store.getRun(TENANT, t.run.id))!.run));
  return { scheduleId: schedule.id, runs: runs.map((r) => [r.id, r.occurrenceId]) };
}

function expected(scheduleId: string, runs: [string, string][]): [string, string][] {
  return [
    [runs[0]![0], `${scheduleId}:${T0 + MINUTE}`],
    [runs[1]![0], `${scheduleId}:${T0 + 2 * MINUTE}`],
    [runs[2]![0], `${scheduleId}:manual:${runs[2]![0]}`],
  ];
}

/** Cancels the unique run, reruns it, and answers whether it holds its occurrence key again. */
async function rerunCancelled(store: Store, scheduleId: string, runId: string): Promise<string | undefined> {
  await store.cancelRun(TENANT, runId, T0 + 1);
  const res = await store.rerunRuns({
    tenantId: TENANT,
    scheduleId,
    scheduleVersion: 1,
    runIds: [runId],
    attempts: 1,
    now: T0 + 2,
  });
  expect(res.refused).toEqual([]);
  return (await store.getRun(TENANT, runId))?.run.state;
}

describe('derived occurrence ids: sqlite', () => {
  const folder = tempFolders('punctual-occurrence-');

  it('stores none, answers the derived ids, reads past an older text and reruns with the key', async () => {
    const dir = folder();
    const path = join(dir, 'punctual.db');
    const store = sqliteStore({ path });
    const { scheduleId, runs } = await insertAll(store);
    expect(runs).toEqual(expected(scheduleId, runs));
    await store.close();
    const raw = new Database(path);
    try {
      expect(raw.prepare('SELECT DISTINCT occurrence_id FROM runs').pluck().all()).toEqual([null]);
      // As an older release wrote them: the same text in the column.
      raw
        .prepare(`UPDATE runs SET occurrence_id = schedule_id || ':' || scheduled_for WHERE kind <> 'manual'`)
        .run();
    } finally {
      raw.close();
    }
    const again = sqliteStore({ path });
    const read = await Promise.all(
      runs.map(async ([id]) => [id, (await again.getRun(TENANT, id))!.run.occurrenceId]),
    );
    expect(read).toEqual(expected(scheduleId, runs));
    expect(await rerunCancelled(again, scheduleId, runs[0]![0])).toBe('scheduled');
    await again.close();
    // The rerun run holds its occurrence again (migration 0022: a flag on the row, runs_occurrence).
    const after = new Database(path, { readonly: true });
    expect(
      after
        .prepare('SELECT holds_occurrence, schedule_id, scheduled_for FROM runs WHERE id = ?')
        .get(Number(runs[0]![0])),
    ).toEqual({ holds_occurrence: 1, schedule_id: Number(scheduleId), scheduled_for: T0 + MINUTE });
    after.close();
  });
});

describe.runIf(PG_URL !== '' || REQUIRED)('derived occurrence ids: postgres', () => {
  it('stores none, answers the derived ids, reads past an older text and reruns with the key', async () => {
    if (PG_URL === '') throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    await withScratchSchema(PG_URL, async ({ db, s, store }) => {
      const { scheduleId, runs } = await insertAll(store);
      expect(runs).toEqual(expected(scheduleId, runs));
      const { rows } = await db.query(`SELECT DISTINCT occurrence_id FROM ${s}.runs`);
      expect(rows).toEqual([{ occurrence_id: null }]);
      await db.query(
        `UPDATE ${s}.runs SET occurrence_id = schedule_id || ':' || scheduled_for WHERE kind <> 'manual'`,
      );
      const read = await Promise.all(
        runs.map(async ([id]) => [id, (await store.getRun(TENANT, id))!.run.occurrenceId]),
      );
      expect(read).toEqual(expected(scheduleId, runs));
      await db.query(`UPDATE ${s}.runs SET occurrence_id = NULL`);
      expect(await rerunCancelled(store, scheduleId, runs[0]![0])).toBe('scheduled');
      // The rerun run holds its occurrence again (migration 27: a flag on the row, runs_occurrence).
      const { rows: keys } = await db.query(
        `SELECT holds_occurrence, schedule_id::text AS schedule_id, scheduled_for::text AS scheduled_for
           FROM ${s}.runs WHERE id = $1`,
        [runs[0]![0]],
      );
      expect(keys).toEqual([
        { holds_occurrence: true, schedule_id: scheduleId, scheduled_for: String(T0 + MINUTE) },
      ]);
    });
  });
});
