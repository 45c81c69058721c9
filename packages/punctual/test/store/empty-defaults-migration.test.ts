// Empty defaults (SQLite migration 0023), on a database of the release before: its schedules, written with
// every default spelled out, read the same after the migration; a schedule put after it keeps an empty text
// for the zone UTC, policies and labels without a setting and the overlap, and reads the same as one that
// spells them out (and costs 12 bytes less: the record's data); a change writes the empty form over an old
// row, a setting away from a default is written as before, an unchanged put of an old row stays unchanged,
// and the label filter finds only labelled schedules.

import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICIES, resolvePolicies } from '../../src/domain/policies.js';
import { LATEST_VERSION, MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { sqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { draft, MINUTE, T0, TENANT } from '../support/fixtures.js';
import { sqliteDatabaseBefore } from '../support/sqlite-database-before.js';
import { tempFolders } from '../support/temp-folders.js';

const folder = tempFolders('punctual-empty-defaults-');

/** A schedule row as the release before wrote it (tenant, key, instant, policies, labels). */
const OLD_ROW = `INSERT INTO schedules (tenant_id, key, spec, spec_kind, tz, target_kind, target, policies,
    overlap, jitter_ms, description, labels, state, version, next_fire_at, fired_count, created_at, updated_at)
  VALUES (?, ?, '*/5 * * * *', 'cron', 'UTC', 'handler', '{"handler":"job"}', ?, ?, 0, '', ?, 'active', 1, ?,
    0, ?, ?)`;

/** The columns 0023 may leave empty, of the schedule `key`, and the bytes of its record's data. */
function stored(path: string, key: string): unknown {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT tz, policies, labels, overlap,
                length(CAST(tz AS BLOB)) + length(CAST(policies AS BLOB)) + length(CAST(labels AS BLOB))
                  + length(CAST(overlap AS BLOB)) AS bytes
           FROM schedules WHERE key = ?`,
      )
      .get(key);
  } finally {
    db.close();
  }
}

async function byKey(store: Store, key: string) {
  const s = await store.getSchedule(TENANT, key);
  if (s === undefined) throw new Error(`no schedule ${key}`);
  return s;
}

describe('empty defaults migration: sqlite', () => {
  it('reads the old rows the same and leaves defaults empty in new and changed rows', async () => {
    const path = join(folder(), 'punctual.db');
    const before = sqliteDatabaseBefore(path, 23);
    const old = before.prepare(OLD_ROW);
    old.run(TENANT, 'plain', '{}', 'allow', '{}', T0, T0, T0);
    old.run(TENANT, 'set', '{"timeoutMs":5000,"overlap":"skip"}', 'skip', '{"team":"a"}', T0, T0, T0);
    before.close();

    const store = sqliteStore({ path });
    await store.migrate();
    expect(MIGRATIONS.find((m) => m.version === 23)?.name).toBe('empty-defaults');
    expect(await store.schemaVersion()).toEqual({ applied: LATEST_VERSION, expected: LATEST_VERSION });

    // The old rows read as they were written.
    const plain = await byKey(store, 'plain');
    expect(plain).toMatchObject({ tz: 'UTC', labels: {}, description: 'Every 5 minutes, UTC' });
    expect(plain.policies).toEqual(DEFAULT_POLICIES);
    const set = await byKey(store, 'set');
    expect(set.labels).toEqual({ team: 'a' });
    expect(set.policies).toEqual(resolvePolicies({ timeoutMs: 5000, overlap: 'skip' }));

    // A put of the same draft over an old row is unchanged: the two forms read as one draft.
    const same = await store.putSchedule({
      draft: draft({ key: 'plain' }),
      nextFireAt: T0,
      now: T0 + MINUTE,
    });
    expect(same.changed).toBe(false);
    expect(same.schedule.version).toBe(1);
    expect(stored(path, 'plain')).toMatchObject({ tz: 'UTC', policies: '{}', labels: '{}' });

    // A new schedule with every default leaves them empty, and reads like the old one.
    const fresh = await store.putSchedule({
      draft: draft({ key: 'fresh' }),
      nextFireAt: T0,
      now: T0 + MINUTE,
    });
    expect(stored(path, 'fresh')).toEqual({ tz: '', policies: '', labels: '', overlap: '', bytes: 0 });
    expect((stored(path, 'plain') as { bytes: number }).bytes).toBe(12);
    const freshRead = await byKey(store, 'fresh');
    expect(freshRead).toEqual(fresh.schedule);
    expect(freshRead).toMatchObject({ tz: 'UTC', labels: {}, description: 'Every 5 minutes, UTC' });
    expect(freshRead.policies).toEqual(DEFAULT_POLICIES);

    // Settings away from the defaults are written as before.
    const policies = resolvePolicies({ timeoutMs: 5000, overlap: 'skip' });
    const labelled = draft({ key: 'labelled', labels: { team: 'a' }, policies, tz: 'Europe/Paris' });
    const put = await store.putSchedule({ draft: labelled, nextFireAt: T0, now: T0 + MINUTE });
    expect(stored(path, 'labelled')).toMatchObject({
      tz: 'Europe/Paris',
      policies: JSON.stringify({ timeoutMs: 5000, overlap: 'skip' }),
      labels: '{"team":"a"}',
      overlap: '',
    });
    expect(await byKey(store, 'labelled')).toEqual(put.schedule);
    expect(put.schedule.policies.overlap).toBe('skip');
    expect(put.schedule.description).toContain('Europe/Paris');

    // A change of an old row writes its defaults empty.
    const changed = await store.putSchedule({
      draft: draft({ key: 'plain', spec: '@hourly' }),
      nextFireAt: T0,
      now: T0 + 2 * MINUTE,
    });
    expect(changed.schedule).toMatchObject({ version: 2, tz: 'UTC', labels: {} });
    expect(stored(path, 'plain')).toMatchObject({ tz: '', policies: '', labels: '', overlap: '' });
    expect(await byKey(store, 'plain')).toEqual(changed.schedule);
    // …and a change back to a setting writes it.
    await store.putSchedule({
      draft: draft({ key: 'fresh', labels: { team: 'b' } }),
      nextFireAt: T0,
      now: T0 + 2 * MINUTE,
    });
    expect(stored(path, 'fresh')).toMatchObject({ labels: '{"team":"b"}' });

    // The label filter finds the labelled schedules only (an empty text is no labels, not malformed JSON).
    const keys = async (labels: [string, string][]) =>
      (await store.listSchedules({ tenantId: TENANT, labels, limit: 10 })).items.map((x) => x.key).sort();
    expect(await keys([['team', 'a']])).toEqual(['labelled', 'set']);
    expect(await keys([['team', 'b']])).toEqual(['fresh']);
    expect((await store.listSchedules({ tenantId: TENANT, limit: 10 })).items).toHaveLength(4);
    await store.close();
  });
});
