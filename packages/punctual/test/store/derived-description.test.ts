// A schedule's description is derived, not stored: on both stores a put (single, bulk, update) leaves the
// column empty, every read answers the words the spec compiler gives for the spec, its form and its zone,
// and a row an older release wrote with its text reads the same. PostgreSQL needs PUNCTUAL_TEST_PG_URL;
// without it that half is skipped, or fails when PUNCTUAL_REQUIRE_SERVICES=1.

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { draft, MINUTE, T0, TENANT } from '../support/fixtures.js';
import { tempFolders } from '../support/temp-folders.js';
import { withScratchSchema } from '../support/pg-scratch-schema.js';

const PG_URL = process.env.PUNCTUAL_TEST_PG_URL ?? '';
const REQUIRED = process.env.PUNCTUAL_REQUIRE_SERVICES === '1';

/** Writes through every put path; answers the descriptions each returned. */
async function putAll(store: Store): Promise<string[]> {
  await store.migrate();
  const one = await store.putSchedule({ draft: draft({ key: 'one' }), nextFireAt: T0, now: T0 });
  const bulk = await store.putSchedules([
    { draft: draft({ key: 'two', spec: '@every 90m', specKind: 'every' }), nextFireAt: T0, now: T0 },
    { draft: draft({ key: 'three', spec: '30 2 * * *', tz: 'America/New_York' }), nextFireAt: T0, now: T0 },
  ]);
  const changed = await store.putSchedule({
    draft: draft({ key: 'one', spec: '*/10 * * * *' }),
    nextFireAt: T0,
    now: T0 + MINUTE,
  });
  return [...bulk, changed].map((r) => r.schedule.description).concat(one.schedule.description);
}

const WORDS = ['Every 1h 30m', 'At 02:30, every day, America/New_York', 'Every 10 minutes, UTC'];

async function readAll(store: Store): Promise<string[]> {
  const keys = ['two', 'three', 'one'];
  return Promise.all(keys.map(async (k) => (await store.getSchedule(TENANT, k))!.description));
}

describe('derived descriptions: sqlite', () => {
  const folder = tempFolders('punctual-description-');

  it('stores none, answers the derived words, and reads past an older release text', async () => {
    const dir = folder();
    const path = join(dir, 'punctual.db');
    const store = sqliteStore({ path });
    expect(await putAll(store)).toEqual([...WORDS, 'Every 5 minutes, UTC']);
    expect(await readAll(store)).toEqual(WORDS);
    await store.close();
    const raw = new Database(path);
    try {
      expect(raw.prepare('SELECT DISTINCT description FROM schedules').pluck().all()).toEqual(['']);
      raw.prepare("UPDATE schedules SET description = 'words of an older release'").run();
    } finally {
      raw.close();
    }
    const again = sqliteStore({ path });
    expect(await readAll(again)).toEqual(WORDS);
    await again.close();
  });
});

describe.runIf(PG_URL !== '' || REQUIRED)('derived descriptions: postgres', () => {
  it('stores none, answers the derived words, and reads past an older release text', async () => {
    if (PG_URL === '') throw new Error('PUNCTUAL_REQUIRE_SERVICES=1 but PUNCTUAL_TEST_PG_URL is not set');
    await withScratchSchema(PG_URL, async ({ db, s, store }) => {
      expect(await putAll(store)).toEqual([...WORDS, 'Every 5 minutes, UTC']);
      expect(await readAll(store)).toEqual(WORDS);
      const { rows } = await db.query(`SELECT DISTINCT description FROM ${s}.schedules`);
      expect(rows).toEqual([{ description: null }]); // left out since migration 26 (unwritten defaults)
      await db.query(`UPDATE ${s}.schedules SET description = 'words of an older release'`);
      expect(await readAll(store)).toEqual(WORDS);
    });
  });
});
